/**
 * SQL for the admin portal (issue #6): the filtered/sorted/paginated application list, dashboard and report
 * aggregates, the students list. Only admin routes call these.
 */
import { and, asc, count, desc, eq, ilike, inArray, isNull, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { searchMatch, userOfApplication } from './admin-search.repo.ts';
import { applications, applicationStatusHistory, payments, uploads } from '../../db/schema/applications.ts';
import { courses, departments } from '../../db/schema/catalogue.ts';
import { users, erasureRequests } from '../../db/schema/users.ts';
import type { z } from 'zod';
import type { AdminApplicationDetail, AdminApplicationsQuerySchema, AdminApplicationRow, AdminStats } from '#contracts/admin.ts';
import type { Reports } from '#contracts/reports.ts';
import type { StudentsPage } from '#contracts/students.ts';

type ListQuery = z.output<typeof AdminApplicationsQuerySchema>;
const iso = (d: Date | string | null | undefined) => (d == null ? '' : d instanceof Date ? d.toISOString() : new Date(d).toISOString());

function listWhere(q: ListQuery): SQL | undefined {
  const conds: (SQL | undefined)[] = [];
  if (q.status !== 'all') conds.push(eq(applications.status, q.status));
  if (q.courseId) conds.push(eq(applications.courseId, q.courseId));
  if (q.eligibility === 'eligible') conds.push(eq(applications.eligible, true));
  else if (q.eligibility === 'not_eligible') conds.push(eq(applications.eligible, false));
  else if (q.eligibility === 'unknown') conds.push(isNull(applications.eligible));
  const term = q.q.trim();
  if (term) {
    // Name, e-mail and phone tests run on users alone (one subquery per word), not once per joined application row.
    conds.push(searchMatch(term,
      (who) => sql`${applications.userId} in (select ${users.id} from ${users} where ${who})`,
      (id) => eq(applications.id, id),
      (like) => sql`${applications.courseId} in (select ${courses.id} from ${courses} where ${ilike(courses.title, like)})`));
  }
  return conds.length ? and(...conds) : undefined;
}

const SORT_COLUMNS = {
  createdAt: [applications.createdAt],
  id: [applications.id],
  status: [applications.status],
  applicant: [users.lastName, users.firstName],
  course: [courses.title],
  aps: [applications.aps],
} as const;

/** ORDER BY for the list: the sort column(s), then id; applications without an APS come last either way. */
function listOrder(q: ListQuery): SQL[] {
  const dir = q.dir === 'asc' ? asc : desc;
  const cols = q.sort === 'aps'
    ? [sql`${applications.aps} ${sql.raw(q.dir === 'asc' ? 'asc' : 'desc')} nulls last`]
    : SORT_COLUMNS[q.sort].map((c) => dir(c));
  return [...cols, dir(applications.id)];
}

const rowFields = {
  id: applications.id, status: applications.status, paymentStatus: applications.paymentStatus, paymentAmount: applications.paymentAmount,
  createdAt: applications.createdAt, updatedAt: applications.updatedAt,
  aps: applications.aps, eligible: applications.eligible, eligibilityReasons: applications.eligibilityReasons,
  userId: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email, emailVerifiedAt: users.emailVerifiedAt,
  courseId: courses.id, courseTitle: courses.title, department: courses.department,
};

function toRow(r: any): AdminApplicationRow {
  return {
    id: r.id, status: r.status, paymentStatus: r.paymentStatus, paymentAmount: String(r.paymentAmount),
    createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
    aps: r.aps ?? null, eligible: r.eligible ?? null, eligibilityReasons: Array.isArray(r.eligibilityReasons) ? r.eligibilityReasons : [],
    applicant: { id: r.userId, name: `${r.firstName} ${r.lastName}`.trim(), email: r.email, emailVerified: r.emailVerifiedAt != null },
    course: r.courseId != null ? { id: r.courseId, title: r.courseTitle, department: r.department } : null,
  };
}

function baseSelect(db: DbOrTx) {
  return db.select(rowFields).from(applications)
    .innerJoin(users, eq(users.id, applications.userId))
    .leftJoin(courses, eq(courses.id, applications.courseId));
}

/** One page of applications for the admin list and the total matching the filter. */
export async function listAdminApplications(db: DbOrTx, q: ListQuery): Promise<{ rows: AdminApplicationRow[]; total: number }> {
  const where = listWhere(q);
  const order = listOrder(q);
  const [rows, [{ n }]] = await Promise.all([
    baseSelect(db).where(where).orderBy(...order).limit(q.pageSize).offset((q.page - 1) * q.pageSize),
    db.select({ n: count() }).from(applications)
      .innerJoin(users, eq(users.id, applications.userId))
      .leftJoin(courses, eq(courses.id, applications.courseId)).where(where),
  ]);
  return { rows: rows.map(toRow), total: Number(n) };
}

/**
 * One key of the list order for the export's keyset: the expression, its SQL type (the cursor travels as text and is
 * cast back, so a timestamp keeps its microseconds) and where its NULLs sort (PostgreSQL: last ascending, first
 * descending; APS last either way, as listOrder says). `nullable`: the key can be NULL (APS; a course title through the
 * LEFT JOIN), which rules out the row comparison in afterCursor.
 */
export interface OrderKey { expr: SQL | AnyColumn; type: 'timestamptz' | 'text' | 'integer'; nullsLast: boolean; nullable?: boolean }

/** listOrder's keys as keyset keys, id last (the tie-breaker, so every row has one place). */
function exportKeys(q: ListQuery): OrderKey[] {
  const asc = q.dir === 'asc';
  const col = (expr: AnyColumn, type: OrderKey['type']): OrderKey => ({ expr, type, nullsLast: asc });
  const keys: Record<ListQuery['sort'], OrderKey[]> = {
    createdAt: [col(applications.createdAt, 'timestamptz')],
    id: [],
    status: [col(applications.status, 'text')],
    applicant: [col(users.lastName, 'text'), col(users.firstName, 'text')],
    course: [{ ...col(courses.title, 'text'), nullable: true }],
    aps: [{ expr: applications.aps, type: 'integer', nullsLast: true, nullable: true }],
  };
  return [...keys[q.sort], col(applications.id, 'integer')];
}

/**
 * Rows strictly after the cursor `last` (each key's value as text, null for NULL) in the order of `keys` and `dir`.
 * When no key can be NULL (and the cursor holds none), a row comparison `(k1, …, id) < (v1, …, vid)` (`>` ascending):
 * the same rows, and a btree on those columns in that order answers it as an index range (volume audit: the newest-first
 * export's page went from 355 ms to 11.7 ms on applications_created_idx). Otherwise OR over i of (keys before i equal AND
 * key i after), with NULLs placed where ORDER BY puts them. Exported for admin tests.
 */
export function afterCursor(keys: OrderKey[], last: (string | null)[], dir: 'asc' | 'desc'): SQL {
  const value = (i: number) => sql`cast(${last[i]} as ${sql.raw(keys[i].type)})`;
  if (keys.every((k, i) => !k.nullable && last[i] !== null)) {
    const row = (parts: SQL[]) => sql`(${sql.join(parts, sql`, `)})`;
    return sql`${row(keys.map((k) => sql`${k.expr}`))} ${sql.raw(dir === 'asc' ? '>' : '<')} ${row(keys.map((_, i) => value(i)))}`;
  }
  const equal = (i: number) => (last[i] === null ? sql`${keys[i].expr} is null` : sql`${keys[i].expr} = ${value(i)}`);
  const after = (i: number): SQL => {
    const k = keys[i];
    if (last[i] === null) return k.nullsLast ? sql`false` : sql`${k.expr} is not null`;
    const beyond = dir === 'asc' ? sql`${k.expr} > ${value(i)}` : sql`${k.expr} < ${value(i)}`;
    return k.nullsLast ? sql`(${beyond} or ${k.expr} is null)` : beyond;
  };
  return or(...keys.map((_, i) => and(...keys.slice(0, i).map((__, j) => equal(j)), after(i))))!;
}

/**
 * Every application matching the filter, in the list's order (sort, dir, then id), as pages of at most `pageSize`
 * rows (CSV export, issue #6; volume audit: no cap, no whole result in memory). Keyset paging: each query starts
 * after the previous page's last row (its sort keys and id), so a page costs the same at row 1 000 and row 100 000,
 * on PGlite and PostgreSQL alike, and no transaction or cursor stays open while the client downloads. A row whose
 * sort key changes during the export may be missed or repeated, as in any read of a list that is being edited.
 */
export async function* exportAdminApplicationPages(db: DbOrTx, q: ListQuery, pageSize = 1000): AsyncGenerator<AdminApplicationRow[], void, undefined> {
  const where = listWhere(q);
  const order = listOrder(q);
  const keys = exportKeys(q);
  const cursorFields = Object.fromEntries(keys.map((k, i) => [`k${i}`, sql<string | null>`${k.expr}::text`]));
  let last: (string | null)[] | null = null;
  for (;;) {
    const rows: any[] = await db.select({ ...rowFields, ...cursorFields }).from(applications)
      .innerJoin(users, eq(users.id, applications.userId))
      .leftJoin(courses, eq(courses.id, applications.courseId))
      .where(and(where, last ? afterCursor(keys, last, q.dir) : undefined))
      .orderBy(...order).limit(pageSize);
    if (rows.length) yield rows.map(toRow);
    if (rows.length < pageSize) return;
    const end = rows[rows.length - 1];
    last = keys.map((_, i) => end[`k${i}`] ?? null);
  }
}

/**
 * Detail extras for the admin panel (issue #6): applicant `userId`'s contact details, every status change of
 * application `id` in order with who made it (id, display name and e-mail: two admins may share a name; admin-only,
 * the student's timeline, historyFor, names nobody), its latest payment, and the metadata (size in bytes) of the uploads
 * `uploadIds` that still exist. Dates ISO 8601.
 */
export async function applicationExtras(db: DbOrTx, id: number, userId: number, uploadIds: string[]): Promise<ApplicationExtras> {
  const [applicant] = await db.select({
    id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, phone: users.phone,
    addressLine1: users.addressLine1, city: users.city, country: users.country, createdAt: users.createdAt, emailVerifiedAt: users.emailVerifiedAt,
  }).from(users).where(eq(users.id, userId)).limit(1);
  const history = await db.select({
    id: applicationStatusHistory.id, fromStatus: applicationStatusHistory.fromStatus, toStatus: applicationStatusHistory.toStatus,
    notes: applicationStatusHistory.notes, createdAt: applicationStatusHistory.createdAt,
    byId: users.id, byFirst: users.firstName, byLast: users.lastName, byEmail: users.email,
  }).from(applicationStatusHistory).leftJoin(users, eq(users.id, applicationStatusHistory.changedBy))
    .where(eq(applicationStatusHistory.applicationId, id)).orderBy(asc(applicationStatusHistory.id)); // id, not created_at: now() is the transaction start, and status changes serialise on a row lock
  const [payment] = await db.select({
    method: payments.method, last4: payments.last4, reference: payments.reference, amount: payments.amount,
    currency: payments.currency, status: payments.status, createdAt: payments.createdAt,
  }).from(payments).where(eq(payments.applicationId, id)).orderBy(desc(payments.id)).limit(1);
  const files = uploadIds.length
    ? await db.select({ id: uploads.id, originalName: uploads.originalName, mime: uploads.mime, size: uploads.size }).from(uploads).where(inArray(uploads.id, uploadIds))
    : [];
  return {
    applicant: applicant ? (({ emailVerifiedAt, ...a }) => ({ ...a, emailVerified: emailVerifiedAt != null, createdAt: iso(a.createdAt) }))(applicant) : null,
    history: history.map((h) => ({
      id: h.id, fromStatus: h.fromStatus, toStatus: h.toStatus, notes: h.notes, createdAt: iso(h.createdAt),
      changedBy: h.byId != null ? { id: h.byId, name: `${h.byFirst} ${h.byLast}`.trim(), email: h.byEmail! } : null,
    })),
    payment: payment ? { ...payment, amount: String(payment.amount), createdAt: iso(payment.createdAt) } : null,
    files,
  };
}

/** What applicationExtras returns: the detail's applicant, history and payment, and the files' metadata. */
export type ApplicationExtras = Pick<AdminApplicationDetail, 'applicant' | 'history' | 'payment'> & {
  files: { id: string; originalName: string; mime: string; size: number }[];
};

/**
 * Payment rule of a status change to payment_pending (money audit; README "Payment pending"): the application's
 * payment is no longer counted as collected. Sets applications.payment_status = 'pending' and the status of its
 * payment rows that were 'completed' to 'pending' with held_at = now (migration 0030: the rows this change holds), on
 * `tx`, the transaction of the status change (which holds the application's row lock), so "Fees collected" and the
 * weekly fees (sums of payment_status = 'completed') leave it out from the same commit on. Leaving payment_pending
 * gives them back (restoreHeldPayments). No-op for an unknown id.
 */
export async function markPaymentPending(tx: DbOrTx, applicationId: number): Promise<void> {
  await tx.update(applications).set({ paymentStatus: 'pending' }).where(eq(applications.id, applicationId));
  await tx.update(payments).set({ status: 'pending', heldAt: sql`now()` })
    .where(and(eq(payments.applicationId, applicationId), eq(payments.status, 'completed')));
}

/**
 * Undoes markPaymentPending when the application leaves payment_pending (money audit HIGH: the hold was permanent),
 * on `tx`, the status change's transaction under the application's row lock. The payment rows it held (held_at set,
 * still 'pending') become 'completed' again with held_at cleared, and applications.payment_status 'completed', so
 * "Fees collected" counts the fee again from that commit on. When a completed payment was recorded while held
 * (insertPayment clears held_at then, but a row without that is checked too), the held rows are only released
 * (held_at cleared, left 'pending'): restoring them would count the fee twice. Answers whether rows were restored.
 * Rows held before migration 0030 have no held_at and stay pending.
 */
export async function restoreHeldPayments(tx: DbOrTx, applicationId: number): Promise<boolean> {
  const held = and(eq(payments.applicationId, applicationId), sql`${payments.heldAt} is not null`);
  const [paid] = await tx.select({ id: payments.id }).from(payments)
    .where(and(eq(payments.applicationId, applicationId), eq(payments.status, 'completed'))).limit(1);
  if (paid) {
    await tx.update(payments).set({ heldAt: null }).where(held);
    return false;
  }
  const restored = await tx.update(payments).set({ status: 'completed', heldAt: null })
    .where(and(held, eq(payments.status, 'pending'))).returning({ id: payments.id });
  if (restored.length === 0) return false;
  await tx.update(applications).set({ paymentStatus: 'completed' }).where(eq(applications.id, applicationId));
  return true;
}

/**
 * Counts per status, and the fees sum of completed payments as 'NNN.NN' (an application moved to payment_pending has
 * payment_status 'pending', markPaymentPending, so it is not in the sum).
 */
export async function statusTotals(db: DbOrTx): Promise<{ byStatus: Record<string, number>; total: number; fees: string }> {
  const rows = await db.select({ status: applications.status, n: count() }).from(applications).groupBy(applications.status);
  const [{ fees }] = await db.select({ fees: sql<string>`coalesce(sum(${applications.paymentAmount}), 0)::numeric(14,2)::text` })
    .from(applications).where(eq(applications.paymentStatus, 'completed'));
  const byStatus: Record<string, number> = {};
  let total = 0;
  for (const r of rows) { byStatus[r.status] = Number(r.n); total += Number(r.n); }
  return { byStatus, total, fees: Number(fees).toFixed(2) };
}

/** The `limit` newest applications (dashboard "Recent applications", spec §2), newest first. */
export async function recentApplications(db: DbOrTx, limit: number): Promise<AdminApplicationRow[]> {
  const rows = await baseSelect(db).orderBy(desc(applications.createdAt), desc(applications.id)).limit(limit);
  return rows.map(toRow);
}

/** Course counts (all, active), the first four courses by id, and each department with its number of courses (dashboard, spec §2). */
export async function courseSummary(db: DbOrTx): Promise<{ all: number; active: number; first: AdminStats['courses']; departments: AdminStats['departments'] }> {
  const [{ all, active }] = await db.select({ all: count(), active: sql<number>`count(*) filter (where ${courses.isActive})` }).from(courses);
  const first = await db.select({ id: courses.id, title: courses.title, department: courses.department, level: courses.level, isActive: courses.isActive })
    .from(courses).orderBy(asc(courses.id)).limit(4);
  const depts = await db.select({ name: departments.name, courses: sql<number>`(select count(*) from ${courses} where ${courses.department} = ${departments.name})` })
    .from(departments).orderBy(asc(departments.id));
  return { all: Number(all), active: Number(active), first, departments: depts.map((d) => ({ name: d.name, courses: Number(d.courses) })) };
}

/** Number of accounts with role student (dashboard "Total students", spec §2). */
export async function studentCount(db: DbOrTx): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(users).where(eq(users.role, 'student'));
  return Number(n);
}

/**
 * Report aggregates (issue #6 Reports tab): applications per course with eligible / not eligible / unknown counts
 * (issue #18), and per week (Monday, 'YYYY-MM-DD'; date_trunc) the total, accepted, decided and completed fees 'NNN.NN'.
 * Weeks are South African weeks (Monday 00:00 SAST; created_at at time zone 'Africa/Johannesburg'), whatever the
 * database session's time zone: an application at Monday 00:30 SAST (Sunday 22:30 UTC) counts in that Monday's week.
 */
export async function reportRows(db: DbOrTx): Promise<{ byCourse: Reports['byCourse']; weekly: { week: string; total: number; accepted: number; decided: number; fees: string }[] }> {
  const byCourse = await db.select({
    courseId: courses.id, title: courses.title, department: courses.department, n: count(),
    eligible: sql<number>`count(*) filter (where ${applications.eligible})`,
    notEligible: sql<number>`count(*) filter (where ${applications.eligible} = false)`,
  })
    .from(applications).innerJoin(courses, eq(courses.id, applications.courseId))
    .groupBy(courses.id, courses.title, courses.department).orderBy(desc(count()), asc(courses.title));
  const weekly = await db.execute(sql`
    select to_char(date_trunc('week', created_at at time zone 'Africa/Johannesburg'), 'YYYY-MM-DD') as week,
           count(*)::int as total,
           (count(*) filter (where status = 'accepted'))::int as accepted,
           (count(*) filter (where status in ('accepted', 'rejected')))::int as decided,
           coalesce(sum(payment_amount) filter (where payment_status = 'completed'), 0)::numeric(14,2)::text as fees
    from applications group by 1 order by 1`);
  return {
    byCourse: byCourse.map((r) => ({
      courseId: r.courseId, title: r.title, department: r.department, count: Number(r.n),
      eligible: Number(r.eligible), notEligible: Number(r.notEligible), unknown: Number(r.n) - Number(r.eligible) - Number(r.notEligible),
    })),
    weekly: ((weekly as any).rows as any[]).map((r) => ({ week: String(r.week), total: Number(r.total), accepted: Number(r.accepted), decided: Number(r.decided), fees: Number(r.fees).toFixed(2) })),
  };
}

/**
 * Alphabetical order of a name column the way people read a list: case and accents ignored, so "van der Merwe" sits
 * among the V's and "Ṋemudzivhadi" among the N's (PGlite and the C collation put lower case and accented letters after
 * Z); the column itself breaks ties. immutable_unaccent: migration 0021.
 */
function nameOrder(column: AnyColumn): SQL[] {
  return [sql`lower(immutable_unaccent(${column}))`, asc(column)];
}

/**
 * One page (`page` from 1, `pageSize` rows) of students (real users with role student; DESIGN §4), ordered by last and
 * first name, matching `q` (searchMatch: every word in name, e-mail, phone or APP reference; a phone typed 0 / +27 / 0027
 * alike), with their
 * applications and erasure requests.
 */
export async function listStudents(db: DbOrTx, q: { q: string; page: number; pageSize: number }): Promise<StudentsPage> {
  const term = q.q.trim();
  const where = and(eq(users.role, 'student'), term ? searchMatch(term, (who) => who, userOfApplication) : undefined);
  const [rows, [{ n }]] = await Promise.all([
    db.select({
      id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, phone: users.phone,
      addressLine1: users.addressLine1, addressLine2: users.addressLine2, city: users.city, state: users.state,
      postalCode: users.postalCode, country: users.country, createdAt: users.createdAt,
    }).from(users).where(where).orderBy(...nameOrder(users.lastName), ...nameOrder(users.firstName), asc(users.id)).limit(q.pageSize).offset((q.page - 1) * q.pageSize),
    db.select({ n: count() }).from(users).where(where),
  ]);
  const ids = rows.map((r) => r.id);
  const apps = ids.length ? await db.select({ id: applications.id, userId: applications.userId, status: applications.status, createdAt: applications.createdAt, courseTitle: courses.title })
    .from(applications).leftJoin(courses, eq(courses.id, applications.courseId)).where(inArray(applications.userId, ids)).orderBy(desc(applications.createdAt)) : [];
  const erasures = ids.length ? await db.select().from(erasureRequests).where(inArray(erasureRequests.userId, ids)).orderBy(desc(erasureRequests.createdAt)) : [];
  return {
    total: Number(n),
    students: rows.map((s) => ({
      ...s, name: `${s.firstName} ${s.lastName}`.trim(), createdAt: iso(s.createdAt),
      applications: apps.filter((a) => a.userId === s.id).map((a) => ({ id: a.id, status: a.status, course: a.courseTitle ?? 'Unknown Course', createdAt: iso(a.createdAt) })),
      erasureRequests: erasures.filter((e) => e.userId === s.id).map((e) => ({ id: e.id, status: e.status, reason: e.reason, decisionReason: e.decisionReason, createdAt: iso(e.createdAt), resolvedAt: e.resolvedAt ? iso(e.resolvedAt) : null })),
    })),
  };
}
