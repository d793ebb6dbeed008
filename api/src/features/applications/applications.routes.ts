/**
 * Applications (spec §7): GET /api/applications (a student's own; admins all) and POST /api/applications;
 * mounted also at /api/colfront/applications. GET /:id → {application, timeline, documents, payment} (own only,
 * else 404); PUT /:id/documents {documents} while documents_required (owner only). Admin: PUT /api/admin/applications/:id/status {status, notes}.
 */
import { Router } from 'express';
import { applicationFee } from '../settings/settings.service.ts';
import type { AppDeps } from '../../deps.ts';
import { validate } from '../../http/validate.ts';
import { linkOrigin } from '../../mail/links.ts';
import { requireAdmin, requireUser, currentUser } from '../../http/guards.ts';
import { IdParamSchema } from '#contracts/common.ts';
import { ApplicationSubmitSchema, DocumentsUpdateSchema, StatusUpdateSchema } from '#contracts/applications.ts';
import { addMissingDocuments, applicationDetail, applicationsWithPayments, setApplicationStatus, submitApplication } from './applications.service.ts';

const idParam = validate(IdParamSchema, 'params');

/**
 * Router at /api/applications and /api/colfront/applications (spec §7): list, detail, documents update and submit as above; 401 anonymous, 404 others' ids.
 */
export function applicationsRouter(deps: AppDeps): Router {
  const r = Router();
  r.get('/', requireUser, async (req, res) => {
    const user = currentUser(req);
    const isAdmin = user.role === 'admin' && req.query.mine !== '1';
    res.json({ applications: await applicationsWithPayments(deps.database.db, { userId: isAdmin ? undefined : user.id, forAdmin: isAdmin }) });
  });
  r.get('/:id', requireUser, idParam, async (req, res) => {
    res.json(await applicationDetail(deps.database.db, currentUser(req), idParam.data(req).id));
  });
  r.put('/:id/documents', requireUser, idParam, validate(DocumentsUpdateSchema), async (req, res) => {
    const application = await addMissingDocuments(deps.database.db, currentUser(req).id, idParam.data(req).id, req.body, linkOrigin(deps.config, req));
    res.json({ application });
  });
  r.post('/', requireUser, validate(ApplicationSubmitSchema), async (req, res) => {
    const user = currentUser(req);
    const fee = await applicationFee(deps.database.db, deps.config);
    const application = await submitApplication(deps.database.db, user.id, req.body, fee, { store: deps.store, origin: linkOrigin(deps.config, req) });
    res.status(201).json({ application });
  });
  return r;
}

/**
 * Admin router at /api/admin/applications: PUT /:id/status {status, notes} → {application} (spec §7; 400 bad transition, 404 unknown id).
 */
export function adminApplicationsRouter(deps: AppDeps): Router {
  const r = Router();
  r.put('/:id/status', requireAdmin, idParam, validate(StatusUpdateSchema), async (req, res) => {
    const admin = currentUser(req);
    const application = await setApplicationStatus(deps.database.db, admin.id, idParam.data(req).id, req.body, { origin: linkOrigin(deps.config, req) });
    res.json({ application });
  });
  return r;
}
