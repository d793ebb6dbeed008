/**
 * Applications (spec §7): GET /api/applications (the caller's own, admins included) and POST /api/applications;
 * mounted also at /api/colfront/applications. POST takes an optional `expectedFee` (the fee the applicant agreed to;
 * 409 `fee_changed`, nothing stored, when the admin setting differs now; 409 `course_closed` when the course was
 * deactivated, 404 'Course Not Found' when there is none). GET /:id → {application, timeline, documents, payment} (own only,
 * else 404); PUT /:id/documents {documents} while documents_required (owner only). Admin: PUT /api/admin/applications/:id/status {status, notes, expectedStatus?}.
 */
import { Router } from 'express';
import { feeToCharge } from '../settings/settings.service.ts';
import type { AppDeps } from '../../deps.ts';
import { validate } from '../../http/validate.ts';
import { linkOrigin } from '../../mail/links.ts';
import { requireAdmin, requireUser, currentUser } from '../../http/guards.ts';
import { IdParamSchema } from '#contracts/common.ts';
import { ApplicationSubmitSchema, DocumentsUpdateSchema, StatusUpdateSchema } from '#contracts/applications.ts';
import { ExpectedFeeSchema } from '#contracts/settings.ts';
import { largeSubmitBody } from './large-body.ts';
import { addMissingDocuments, applicationDetail, applicationsWithPayments, setApplicationStatus, submitApplication } from './applications.service.ts';

const idParam = validate(IdParamSchema, 'params');

/**
 * Router at /api/applications and /api/colfront/applications (spec §7): list, detail, documents update and submit as above; 401 anonymous, 404 others' ids.
 *
 * GET / answers {applications: ApplicationListItem[]} with the caller's own applications only, newest first, for every
 * role (`?mine=1` is still accepted and changes nothing). It used to give an admin every application in the database,
 * unbounded (volume audit: 28.6 MB, 1.7 s and +370 MB RSS at 20 000 applications; two such calls at once starved every
 * other user). No page asks it for that: the student stores and the wizard read their own list, and the admin portal
 * reads the paginated, filtered GET /api/admin/applications. Scoping it (rather than capping it at N) keeps one
 * meaning for every caller — DESIGN §4 "a student only ever sees their own applications" — and gives an admin, who
 * applies for nothing, an empty list; a cap would silently cut a list that claims to be complete.
 */
export function applicationsRouter(deps: AppDeps): Router {
  const r = Router();
  r.get('/', requireUser, async (req, res) => {
    res.json({ applications: await applicationsWithPayments(deps.database.db, currentUser(req).id) });
  });
  r.get('/:id', requireUser, idParam, async (req, res) => {
    res.json(await applicationDetail(deps.database.db, currentUser(req), idParam.data(req).id));
  });
  r.put('/:id/documents', requireUser, idParam, validate(DocumentsUpdateSchema), async (req, res) => {
    const application = await addMissingDocuments(deps.database.db, currentUser(req).id, idParam.data(req).id, req.body, linkOrigin(deps.config, req));
    res.json({ application });
  });
  const expectedFee = validate(ExpectedFeeSchema);
  // requireUser first: the body (up to 28 MB of data URLs, spec §7) is read only for a signed-in caller (large-body.ts).
  r.post('/', requireUser, ...largeSubmitBody(), expectedFee, validate(ApplicationSubmitSchema), async (req, res) => {
    const user = currentUser(req);
    const fee = await feeToCharge(deps.database.db, deps.config, expectedFee.data(req).expectedFee);
    const application = await submitApplication(deps.database.db, user.id, req.body, fee, { store: deps.store, origin: linkOrigin(deps.config, req), applicant: user });
    res.status(201).json({ application });
  });
  return r;
}

/**
 * Admin router at /api/admin/applications: PUT /:id/status {status, notes, expectedStatus?} → {application} (spec §7; 400 bad
 * input, 404 unknown id, 409 when the application no longer has `expectedStatus`: someone changed it meanwhile).
 */
export function adminApplicationsRouter(deps: AppDeps): Router {
  const r = Router();
  r.put('/:id/status', requireAdmin, idParam, validate(StatusUpdateSchema), async (req, res) => {
    const admin = currentUser(req);
    const expected = req.body.expectedStatus as string | undefined;
    const application = await setApplicationStatus(deps.database.db, admin.id, idParam.data(req).id, req.body, { origin: linkOrigin(deps.config, req), onlyFrom: expected ? [expected] : undefined });
    res.json({ application });
  });
  return r;
}
