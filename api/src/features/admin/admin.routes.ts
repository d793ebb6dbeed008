/**
 * Admin portal API (issue #6), mounted at /api/admin; every route needs the admin role (401 anonymous,
 * 403 student):
 * - GET  /applications?q&status&courseId&sort&dir&page&pageSize → {applications, total, page, pageSize, pages}
 * - GET  /applications/export.csv?(same filter) → text/csv of every matching application, in the list's order, streamed
 * - POST /applications/bulk {ids, status: accepted|rejected, notes} → {results: [{id, ok, status?, error?}]}
 * - GET  /applications/:id → {application, applicant, history, payment, documents}; 404 unknown
 * - GET  /stats → AdminStats; GET /reports → chart data; GET /students?q&page&pageSize → {students, total}
 * - GET  /site-build → {build: {status, startedAt, finishedAt, durationMs, error} | null, building}
 * Status changes themselves: PUT /api/admin/applications/:id/status (applications feature); settings: features/settings.
 */
import { Router } from 'express';
import type { AppDeps } from '../../deps.ts';
import { validate } from '../../http/validate.ts';
import { sendCsvStream } from '../../http/api-compression.ts';
import { linkOrigin } from '../../mail/links.ts';
import { currentUser, requireAdmin } from '../../http/guards.ts';
import { IdParamSchema } from '#contracts/common.ts';
import { AdminApplicationsQuerySchema, BulkDecisionSchema, StudentsQuerySchema } from '#contracts/admin.ts';
import { todayInSouthAfrica } from '#contracts/sa-calendar.ts';
import {
  applicationDetail, applicationsCsvStream, applicationsPage, bulkDecision, dashboardStats, reports, students,
} from './admin.service.ts';

/**
 * Router for /api/admin (issue #6): the routes listed above, each behind requireAdmin (401/403); 400 on bad query, 404 unknown id.
 */
export function adminRouter(deps: AppDeps): Router {
  const r = Router();
  const db = deps.database.db;
  const listQuery = validate(AdminApplicationsQuerySchema, 'query');
  const studentsQuery = validate(StudentsQuerySchema, 'query');
  const idParam = validate(IdParamSchema, 'params');
  r.get('/applications', requireAdmin, listQuery, async (req, res) => {
    res.json(await applicationsPage(db, listQuery.data(req)));
  });
  r.get('/applications/export.csv', requireAdmin, listQuery, async (req, res) => {
    const csv = await applicationsCsvStream(db, listQuery.data(req));
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="applications-${todayInSouthAfrica()}.csv"`);
    // Streamed page by page (no cap, volume audit); once rows are sent an error can only cut the download short.
    // Headers at once and a flush after each page (sendCsvStream): brotli held everything back for seconds.
    await sendCsvStream(res, csv, '[admin] applications');
  });
  r.post('/applications/bulk', requireAdmin, validate(BulkDecisionSchema), async (req, res) => {
    res.json({ results: await bulkDecision(db, currentUser(req).id, req.body, linkOrigin(deps.config, req)) });
  });
  r.get('/applications/:id', requireAdmin, idParam, async (req, res) => {
    res.json(await applicationDetail(db, idParam.data(req).id));
  });
  r.get('/stats', requireAdmin, async (_req, res) => { res.json(await dashboardStats(db)); });
  r.get('/reports', requireAdmin, async (_req, res) => { res.json(await reports(db)); });
  r.get('/students', requireAdmin, studentsQuery, async (req, res) => {
    res.json(await students(db, studentsQuery.data(req)));
  });
  r.get('/site-build', requireAdmin, async (_req, res) => {
    const build = (await deps.builder?.lastBuild()) ?? null;
    res.json({ build, building: deps.builder?.isBuilding() ?? false });
  });
  return r;
}
