/**
 * Walk-in applications (issue #18 point 6), mounted at /api/admin/walk-in; every route needs an admin
 * (401 anonymous, 403 student — DESIGN §4, security/policy.ts):
 * - GET  /campuses → {campuses:[{id, name}]}
 * - POST /applicants {firstName, lastName, email, phone, campusId, privacyConsent} → 201 {applicant, setPasswordLinkDays, sms}
 * - POST /applicants/:id/uploads (multipart `file`, ≤ 5 MB, magic bytes) → 201 {upload} owned by the applicant
 * - POST /applications {applicantId, campusId, expectedFee?, …the application form} → 201 {application}; 409
 *   `fee_changed` (nothing stored) when `expectedFee`, the fee the desk form showed, is no longer the fee charged
 */
import { Router } from 'express';
import type { AppDeps } from '../../deps.ts';
import { validate } from '../../http/validate.ts';
import { currentUser, requireAdmin } from '../../http/guards.ts';
import { IdParamSchema } from '#contracts/common.ts';
import { WalkInApplicantSchema, WalkInApplicationSchema } from '#contracts/walk-in.ts';
import { ExpectedFeeSchema } from '#contracts/settings.ts';
import { feeToCharge } from '../settings/settings.service.ts';
import { parseFile } from '../uploads/uploads.routes.ts';
import { storeUpload } from '../uploads/uploads.service.ts';
import { linkOrigin } from '../../mail/links.ts';
import { createWalkInApplicant, submitWalkInApplication, walkInApplicant, walkInCampuses } from './walk-in.service.ts';

/**
 * Admin router at /api/admin/walk-in (issue #18 point 6) with the routes listed above; 404 when the applicant is not a student account.
 */
export function walkInRouter(deps: AppDeps): Router {
  const r = Router();
  const db = deps.database.db;
  r.use(requireAdmin);
  r.get('/campuses', async (_req, res) => { res.json({ campuses: await walkInCampuses(db) }); });
  r.post('/applicants', validate(WalkInApplicantSchema), async (req, res) => {
    res.status(201).json(await createWalkInApplicant(db, deps.config, req.body));
  });
  const idParam = validate(IdParamSchema, 'params');
  r.post('/applicants/:id/uploads', idParam, async (req, _res, next) => {
    try { await walkInApplicant(db, idParam.data(req).id); next(); } catch (err) { next(err); }
  }, parseFile, async (req, res) => {
    const upload = await storeUpload(db, deps.store, idParam.data(req).id, req.file);
    res.status(201).json({ upload });
  });
  const expectedFee = validate(ExpectedFeeSchema);
  r.post('/applications', expectedFee, validate(WalkInApplicationSchema), async (req, res) => {
    const fee = await feeToCharge(db, deps.config, expectedFee.data(req).expectedFee);
    const application = await submitWalkInApplication(db, currentUser(req).id, req.body, fee, { store: deps.store, origin: linkOrigin(deps.config, req) });
    res.status(201).json({ application });
  });
  return r;
}
