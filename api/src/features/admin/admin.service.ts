/**
 * Admin portal story (spec §2 Admin portal; issue #6):
 * - applications list/detail/CSV; bulk decisions go one by one through setApplicationStatus (row lock,
 *   history, notification, e-mail), each item succeeding or failing on its own;
 * - dashboard stats: acceptance rate = accepted / all, completion rate = (accepted + rejected) / all, as
 *   percentages with one decimal; fees = sum of paymentAmount of completed payments, 'NNN.NN';
 * - reports, students (real users). Settings are their own feature (features/settings/).
 */
import type { z } from 'zod';
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../http/errors.ts';
import { safeCell } from '../../http/csv.ts';
import { csvDateTime, SAST_SUFFIX } from '../../http/csv-time.ts';
import { readPage } from '../../http/paging.ts';
import { APPLICATION_STATUSES, statusLabel } from '#contracts/common.ts';
import { todayInSouthAfrica } from '#contracts/sa-calendar.ts';
import { DOCUMENT_SLOTS } from '#contracts/applications.ts';
import type { AdminApplicationDetail, AdminApplicationRow, AdminApplicationsPage, AdminApplicationsQuerySchema, AdminStats, BulkDecisionSchema, BulkResult, StudentsQuerySchema } from '#contracts/admin.ts';
import { smsStats } from '../../sms/sms-outbox.ts';
import { applicationForAdmin, setApplicationStatus, StatusChangedError } from '../applications/applications.service.ts';
import type { Reports } from '#contracts/reports.ts';
import type { StudentsPage } from '#contracts/students.ts';
import {
  applicationExtras, courseSummary, exportAdminApplicationPages, listAdminApplications, listStudents,
  recentApplications, reportRows, statusTotals, studentCount,
} from './admin.repo.ts';

type ListQuery = z.output<typeof AdminApplicationsQuerySchema>;

const pct = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : 0);

/**
 * One page of the admin application list (filters, sort and page size of AdminApplicationsQuerySchema; issue #6) with
 * `pages` ≥ 1; a page past the last answers the last page (readPage).
 */
export async function applicationsPage(db: Db, q: ListQuery): Promise<AdminApplicationsPage> {
  const { result, info } = await readPage(q, (page) => listAdminApplications(db, { ...q, page }));
  return { applications: result.rows, ...info };
}

/** Full application for the detail panel. Throws 404 'Application not found'. */
export async function applicationDetail(db: Db, id: number): Promise<AdminApplicationDetail> {
  const application = await applicationForAdmin(db, id);
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

/** Applies one decision to many applications; never throws for a single item (per-item results). `origin`: see linkOrigin. */
export async function bulkDecision(db: Db, adminId: number, input: z.output<typeof BulkDecisionSchema>, origin: string): Promise<BulkResult[]> {
  const results: BulkResult[] = [];
  for (const id of [...new Set(input.ids)]) {
    try {
      // "Only pending" is checked by setApplicationStatus under the row lock, not here (issue #12 finding 12).
      const app = await setApplicationStatus(db, adminId, id, { status: input.status, notes: input.notes }, { onlyFrom: ['pending'], origin });
      results.push({ id, ok: true, status: app.status });
    } catch (err: any) {
      if (err instanceof StatusChangedError) results.push({ id, ok: false, status: err.current, error: BULK_ONLY_PENDING });
      else results.push({ id, ok: false, error: err?.status === 404 ? 'Application not found' : 'Update failed' });
    }
  }
  return results;
}

/** 'Yes' / 'No' / 'No NSC results' (none given), issue #18: the words EligibilityBadge and Reports show (admin-day audit item 4). */
export const eligibilityLabel = (e: boolean | null): 'Yes' | 'No' | 'No NSC results' => (e === true ? 'Yes' : e === false ? 'No' : 'No NSC results');

const CSV_HEADER = ['Application ID', 'Applicant', 'Email', 'Course', 'Department', 'Status', 'Payment status', 'Payment amount', `Submitted${SAST_SUFFIX}`, `Updated${SAST_SUFFIX}`, 'APS', 'Eligible', 'Eligibility notes'];

/** One CSV record of the export: every cell through safeCell. */
const csvRecord = (r: AdminApplicationRow): string[] => [`APP-${r.id}`, r.applicant.name, r.applicant.email, r.course?.title ?? 'Unknown Course', r.course?.department ?? '',
  statusLabel(r.status), statusLabel(r.paymentStatus), r.paymentAmount, csvDateTime(r.createdAt), csvDateTime(r.updatedAt),
  r.aps ?? '', eligibilityLabel(r.eligible), r.eligibilityReasons.join('; ')].map((v) => safeCell(String(v)));

/**
 * The filtered list as a CSV byte stream (issue #6 export; volume audit: every matching row, never the whole list in
 * memory): a header row, then one row per application in the list's order ('APP-<id>', statuses and payment statuses as the screens label them ('Under Review', 'Pending', statusLabel), amounts 'NNN.NN', dates and
 * times 'YYYY-MM-DD HH:mm' in South African time under 'Submitted (SAST)' / 'Updated (SAST)', csvDateTime); cells starting with = + - @ tab or CR are prefixed with ' (OWASP CSV injection). Rows are read
 * `pageSize` at a time by keyset (exportAdminApplicationPages) and written through csv-stringify's stream API, so a
 * slow download holds back the next query (back-pressure). The first page is read before this resolves, so a
 * database error becomes the usual error answer; a later one ends the stream with an error (the download breaks).
 */
export async function applicationsCsvStream(db: Db, q: ListQuery, pageSize = 1000): Promise<Readable> {
  const pages = exportAdminApplicationPages(db, q, pageSize);
  const first = await pages.next();
  async function* records(): AsyncGenerator<string[]> {
    yield CSV_HEADER;
    if (first.done) return;
    for (const r of first.value) yield csvRecord(r);
    for await (const page of pages) for (const r of page) yield csvRecord(r);
  }
  const source = Readable.from(records());
  const csv = stringify({ bom: true }); // UTF-8 BOM: Excel reads the file as UTF-8, not as its ANSI code page (Ṱ was "á¹°")
  source.on('error', (err) => csv.destroy(err));
  csv.on('close', () => source.destroy()); // a download stopped half-way stops the queries too
  return source.pipe(csv);
}

/**
 * Dashboard figures (spec §2 Admin portal): totals per status, students and courses; acceptance and completion
 * rates in percent with one decimal; completed fees 'NNN.NN'; the 5 newest applications; SMS counts (issue #17).
 */
export async function dashboardStats(db: Db): Promise<AdminStats> {
  const [totals, recent, courses, students, sms] = await Promise.all([statusTotals(db), recentApplications(db, 5), courseSummary(db), studentCount(db), smsStats(db)]);
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
    sms,
  };
}

type WeekRow = Awaited<ReturnType<typeof reportRows>>['weekly'][number];

/** The Monday 'YYYY-MM-DD' of the South African week holding `now` (todayInSouthAfrica; weeks start on Monday). */
function currentSaWeek(now: Date): string {
  const day = new Date(`${todayInSouthAfrica(now)}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString().slice(0, 10);
}

/**
 * `weekly` (Mondays 'YYYY-MM-DD', ascending, only weeks with applications) with every missing week in between filled
 * with zeros (total, accepted, decided 0, fees '0.00'), from the first week with an application through the current
 * South African week of `now` (or the last week with data, if later): the charts show the quiet weeks instead of
 * joining the busy ones across them. Empty input stays empty.
 */
export function fillWeeks(weekly: WeekRow[], now: Date = new Date()): WeekRow[] {
  if (!weekly.length) return [];
  const byWeek = new Map(weekly.map((w) => [w.week, w]));
  const last = [weekly[weekly.length - 1].week, currentSaWeek(now)].sort()[1];
  const out: WeekRow[] = [];
  for (let d = new Date(`${weekly[0].week}T00:00:00Z`); ; d.setUTCDate(d.getUTCDate() + 7)) {
    const week = d.toISOString().slice(0, 10);
    if (week > last) break;
    out.push(byWeek.get(week) ?? { week, total: 0, accepted: 0, decided: 0, fees: '0.00' });
  }
  return out;
}

/**
 * The Reports tab (issue #6): counts per status (every status, zeros included), course, department and week, acceptance
 * rate per week, fees. The weekly series have no gaps: weeks without applications are there with zeros (fillWeeks).
 */
export async function reports(db: Db): Promise<Reports> {
  const [totals, found] = await Promise.all([statusTotals(db), reportRows(db)]);
  const rows = { ...found, weekly: fillWeeks(found.weekly) };
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

/**
 * One page of the students list (issue #6; StudentsQuerySchema: q, page from 1, pageSize ≤ 100); a page past the last
 * answers the last page's students (readPage).
 */
export async function students(db: Db, q: z.output<typeof StudentsQuerySchema>): Promise<StudentsPage> {
  return (await readPage(q, (page) => listStudents(db, { ...q, page }))).result;
}
