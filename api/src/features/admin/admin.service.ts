/**
 * Admin portal story (spec §2 Admin portal; issue #6):
 * - applications list/detail/CSV; bulk decisions go one by one through setApplicationStatus (row lock,
 *   history, notification, e-mail), each item succeeding or failing on its own;
 * - dashboard stats: acceptance rate = accepted / all, completion rate = (accepted + rejected) / all, as
 *   percentages with one decimal; fees = sum of paymentAmount of completed payments, 'NNN.NN';
 * - reports, students (real users), settings (defaults from config and content/site.json).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { stringify } from 'csv-stringify/sync';
import type { Db } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { notFound } from '../../http/errors.ts';
import { APPLICATION_STATUSES, statusLabel } from '#contracts/common.ts';
import { DOCUMENT_SLOTS } from '#contracts/applications.ts';
import type { AdminApplicationsQuerySchema, AdminStats, BulkDecisionSchema, BulkResult, StudentsQuerySchema } from '#contracts/admin.ts';
import { SettingsSchema, type Settings } from '#contracts/settings.ts';
import { findApplication } from '../applications/applications.repo.ts';
import { setApplicationStatus } from '../applications/applications.service.ts';
import {
  applicationExtras, applicationStatus, courseSummary, exportAdminApplications, listAdminApplications, listStudents,
  readSettings, recentApplications, reportRows, statusTotals, studentCount, writeSettings,
} from './admin.repo.ts';

type ListQuery = z.output<typeof AdminApplicationsQuerySchema>;

const pct = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : 0);

export async function applicationsPage(db: Db, q: ListQuery) {
  const { rows, total } = await listAdminApplications(db, q);
  return { applications: rows, total, page: q.page, pageSize: q.pageSize, pages: Math.max(1, Math.ceil(total / q.pageSize)) };
}

/** Full application for the detail panel. Throws 404 'Application not found'. */
export async function applicationDetail(db: Db, id: number) {
  const application = await findApplication(db, id, { forAdmin: true });
  if (!application) throw notFound('Application not found');
  const docs = application.documents ?? {};
  const extras = await applicationExtras(db, id, application.userId, Object.values(docs).filter(Boolean));
  const documents = DOCUMENT_SLOTS.filter((s) => docs[s.key]).map((s) => {
    const f = extras.files.find((x) => x.id === docs[s.key]);
    return { slot: s.key, label: s.label, id: docs[s.key], name: f?.originalName ?? null, mime: f?.mime ?? null, size: f?.size ?? null, url: `/api/uploads/${encodeURIComponent(docs[s.key])}` };
  });
  return { application, applicant: extras.applicant, history: extras.history, payment: extras.payment, documents };
}

const BULK_ONLY_PENDING = 'Only pending applications can be approved or rejected from the list';

/** Applies one decision to many applications; never throws for a single item (per-item results). */
export async function bulkDecision(db: Db, adminId: number, input: z.output<typeof BulkDecisionSchema>): Promise<BulkResult[]> {
  const results: BulkResult[] = [];
  for (const id of [...new Set(input.ids)]) {
    try {
      const current = await applicationStatus(db, id);
      if (!current) { results.push({ id, ok: false, error: 'Application not found' }); continue; }
      if (current !== 'pending') { results.push({ id, ok: false, status: current, error: BULK_ONLY_PENDING }); continue; }
      const app = await setApplicationStatus(db, adminId, id, { status: input.status, notes: input.notes });
      results.push({ id, ok: true, status: app.status });
    } catch (err: any) {
      results.push({ id, ok: false, error: err?.status === 404 ? 'Application not found' : 'Update failed' });
    }
  }
  return results;
}

/** A cell that a spreadsheet would run as a formula is prefixed with ' (OWASP CSV injection). */
const safeCell = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

export async function applicationsCsv(db: Db, q: ListQuery): Promise<string> {
  const rows = await exportAdminApplications(db, q);
  return stringify([
    ['Application ID', 'Applicant', 'Email', 'Course', 'Department', 'Status', 'Payment status', 'Payment amount', 'Submitted', 'Updated'],
    ...rows.map((r) => [`APP-${r.id}`, r.applicant.name, r.applicant.email, r.course?.title ?? 'Unknown Course', r.course?.department ?? '',
      statusLabel(r.status), r.paymentStatus, r.paymentAmount, r.createdAt, r.updatedAt].map((v) => safeCell(String(v)))),
  ]);
}

export async function dashboardStats(db: Db): Promise<AdminStats> {
  const [totals, recent, courses, students] = await Promise.all([statusTotals(db), recentApplications(db, 5), courseSummary(db), studentCount(db)]);
  const byStatus = Object.fromEntries(APPLICATION_STATUSES.map((s) => [s, totals.byStatus[s] ?? 0]));
  const accepted = byStatus.accepted ?? 0;
  const rejected = byStatus.rejected ?? 0;
  return {
    totals: { applications: totals.total, students, courses: courses.all, activeCourses: courses.active, byStatus },
    acceptanceRate: pct(accepted, totals.total),
    completionRate: pct(accepted + rejected, totals.total),
    feesCollected: totals.fees,
    recentApplications: recent,
    courses: courses.first,
    departments: courses.departments,
  };
}

export async function reports(db: Db) {
  const [totals, rows] = await Promise.all([statusTotals(db), reportRows(db)]);
  const byDepartment = new Map<string, number>();
  for (const c of rows.byCourse) byDepartment.set(c.department, (byDepartment.get(c.department) ?? 0) + c.count);
  return {
    byStatus: APPLICATION_STATUSES.map((s) => ({ status: s, label: statusLabel(s), count: totals.byStatus[s] ?? 0 })),
    byCourse: rows.byCourse,
    byDepartment: [...byDepartment].map(([department, count]) => ({ department, count })).sort((a, b) => b.count - a.count),
    perWeek: rows.weekly.map((w) => ({ week: w.week, count: w.total })),
    acceptanceOverTime: rows.weekly.map((w) => ({ week: w.week, accepted: w.accepted, total: w.total, rate: pct(w.accepted, w.total) })),
    feesPerWeek: rows.weekly.map((w) => ({ week: w.week, fees: w.fees })),
    feesCollected: totals.fees,
  };
}

export function students(db: Db, q: z.output<typeof StudentsQuerySchema>) {
  return listStudents(db, q);
}

const siteJson = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../content/site.json');

function defaults(config: Config): Settings {
  let accreditationNumber = '';
  try { accreditationNumber = JSON.parse(fs.readFileSync(siteJson, 'utf8')).accreditationNumber ?? ''; } catch { /* no content file */ }
  return { applicationFee: config.APPLICATION_FEE, officeEmail: config.OFFICE_EMAIL, accreditationNumber, portalAccessUrl: config.PORTAL_ACCESS_URL };
}

/** Stored settings over the defaults (config, content/site.json). */
export async function getSettings(db: Db, config: Config): Promise<Settings> {
  const stored = await readSettings(db);
  const merged: Record<string, unknown> = { ...defaults(config) };
  for (const key of Object.keys(merged)) if (typeof stored[key] === 'string') merged[key] = stored[key];
  const parsed = SettingsSchema.safeParse(merged);
  return parsed.success ? parsed.data : defaults(config);
}

export async function saveSettings(db: Db, config: Config, input: Settings): Promise<Settings> {
  await writeSettings(db, input);
  return getSettings(db, config);
}
