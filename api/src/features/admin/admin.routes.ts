/**
 * Admin portal API (issue #6), mounted at /api/admin; every route needs the admin role (401 anonymous,
 * 403 student):
 * - GET  /applications?q&status&courseId&sort&dir&page&pageSize → {applications, total, page, pageSize, pages}
 * - GET  /applications/export.csv?(same filter) → text/csv of every matching application
 * - POST /applications/bulk {ids, status: accepted|rejected, notes} → {results: [{id, ok, status?, error?}]}
 * - GET  /applications/:id → {application, applicant, history, payment, documents}; 404 unknown
 * - GET  /stats → AdminStats; GET /reports → chart data; GET /students?q&page&pageSize → {students, total}
 * - GET  /settings → {settings}; PUT /settings {applicationFee, officeEmail, accreditationNumber, portalAccessUrl}
 * - GET  /site-build → {build: {status, startedAt, finishedAt, durationMs, error} | null, building}
 * Status changes themselves: PUT /api/admin/applications/:id/status (applications feature).
 */
import { Router } from 'express';
import type { AppDeps } from '../../app.ts';
import { validate } from '../../http/validate.ts';
import { currentUser, requireAdmin } from '../../http/guards.ts';
import { IdParamSchema } from '#contracts/common.ts';
import { AdminApplicationsQuerySchema, BulkDecisionSchema, StudentsQuerySchema } from '#contracts/admin.ts';
import { SettingsSchema } from '#contracts/settings.ts';
import {
  applicationDetail, applicationsCsv, applicationsPage, bulkDecision, dashboardStats, getSettings, reports, saveSettings, students,
} from './admin.service.ts';

export function adminRouter(deps: AppDeps): Router {
  const r = Router();
  const db = deps.database.db;
  r.get('/applications', requireAdmin, validate(AdminApplicationsQuerySchema, 'query'), async (req, res) => {
    res.json(await applicationsPage(db, req.query as any));
  });
  r.get('/applications/export.csv', requireAdmin, validate(AdminApplicationsQuerySchema, 'query'), async (req, res) => {
    const csv = await applicationsCsv(db, req.query as any);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="applications-${new Date().toISOString().slice(0, 10)}.csv"`);
    res.send(csv);
  });
  r.post('/applications/bulk', requireAdmin, validate(BulkDecisionSchema), async (req, res) => {
    res.json({ results: await bulkDecision(db, currentUser(req).id, req.body) });
  });
  r.get('/applications/:id', requireAdmin, validate(IdParamSchema, 'params'), async (req, res) => {
    res.json(await applicationDetail(db, (req.params as any).id));
  });
  r.get('/stats', requireAdmin, async (_req, res) => { res.json(await dashboardStats(db)); });
  r.get('/reports', requireAdmin, async (_req, res) => { res.json(await reports(db)); });
  r.get('/students', requireAdmin, validate(StudentsQuerySchema, 'query'), async (req, res) => {
    res.json(await students(db, req.query as any));
  });
  r.get('/settings', requireAdmin, async (_req, res) => { res.json({ settings: await getSettings(db, deps.config) }); });
  r.put('/settings', requireAdmin, validate(SettingsSchema), async (req, res) => {
    const settings = await saveSettings(db, deps.config, req.body);
    deps.onContentChanged?.('settings updated');
    res.json({ settings });
  });
  r.get('/site-build', requireAdmin, async (_req, res) => {
    const build = (await deps.builder?.lastBuild()) ?? null;
    res.json({ build, building: deps.builder?.isBuilding() ?? false });
  });
  return r;
}
