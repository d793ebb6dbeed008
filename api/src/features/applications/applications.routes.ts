/**
 * Applications (spec §7): GET /api/applications (a student's own; admins all) and POST /api/applications;
 * mounted also at /api/colfront/applications. Admin: PUT /api/admin/applications/:id/status {status, notes}.
 */
import { Router } from 'express';
import type { AppDeps } from '../../app.ts';
import { validate } from '../../http/validate.ts';
import { requireAdmin, requireUser, currentUser } from '../../http/guards.ts';
import { IdParamSchema } from '#contracts/common.ts';
import { ApplicationSubmitSchema, StatusUpdateSchema } from '#contracts/applications.ts';
import { listApplications, findApplication } from './applications.repo.ts';
import { setApplicationStatus, submitApplication } from './applications.service.ts';
import { notFound } from '../../http/errors.ts';

export function applicationsRouter(deps: AppDeps): Router {
  const r = Router();
  r.get('/', requireUser, async (req, res) => {
    const user = currentUser(req);
    const isAdmin = user.role === 'admin' && req.query.mine !== '1';
    res.json({ applications: await listApplications(deps.database.db, { userId: isAdmin ? undefined : user.id, forAdmin: isAdmin }) });
  });
  r.get('/:id', requireUser, validate(IdParamSchema, 'params'), async (req, res) => {
    const user = currentUser(req);
    const isAdmin = user.role === 'admin';
    const app = await findApplication(deps.database.db, (req.params as any).id, { userId: isAdmin ? undefined : user.id, forAdmin: isAdmin });
    if (!app) throw notFound('Application not found');
    res.json({ application: app });
  });
  r.post('/', requireUser, validate(ApplicationSubmitSchema), async (req, res) => {
    const user = currentUser(req);
    const application = await submitApplication(deps.database.db, user.id, req.body, deps.config.APPLICATION_FEE);
    res.status(201).json({ application });
  });
  return r;
}

export function adminApplicationsRouter(deps: AppDeps): Router {
  const r = Router();
  r.put('/:id/status', requireAdmin, validate(IdParamSchema, 'params'), validate(StatusUpdateSchema), async (req, res) => {
    const admin = currentUser(req);
    const application = await setApplicationStatus(deps.database.db, admin.id, (req.params as any).id, req.body);
    res.json({ application });
  });
  return r;
}
