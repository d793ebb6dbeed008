/**
 * SQL of the local external driver: branches are the campuses (table campuses) with live counts of
 * active students, students are rows of external_students (campus stored as the campus slug), payments
 * rows of external_payments (amount numeric(12,2), currency units).
 */
import { and, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { unaccentContains } from '../../db/text-search.ts';
import { campuses, courses } from '../../db/schema/catalogue.ts';
import { applications } from '../../db/schema/applications.ts';
import { users } from '../../db/schema/users.ts';
import { externalPayments, externalStudents } from '../../db/schema/system.ts';
import type { CurrencyTotal, EnrolableApplicationsPage, ExternalBranch, ExternalPayment, ExternalStudent } from '#contracts/external.ts';

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

/** All campuses as branches, oldest first, with the number of active students of each. */
export async function selectBranches(db: DbOrTx, id?: number): Promise<ExternalBranch[]> {
  const rows = await db.select({
    id: campuses.id, name: campuses.name, location: campuses.address, established: campuses.established,
    studentCount: sql<number>`count(${externalStudents.id}) filter (where ${externalStudents.status} = 'active')`,
  }).from(campuses)
    .leftJoin(externalStudents, eq(externalStudents.campus, campuses.slug))
    .where(id != null ? eq(campuses.id, id) : undefined)
    .groupBy(campuses.id)
    .orderBy(campuses.established, campuses.id);
  return rows.map((r) => ({ ...r, id: String(r.id), studentCount: Number(r.studentCount) }));
}

/** Campus `id` (a branch of the external system), or undefined. */
export async function findCampus(db: DbOrTx, id: number): Promise<typeof campuses.$inferSelect | undefined> {
  const rows = await db.select().from(campuses).where(eq(campuses.id, id)).limit(1);
  return rows[0];
}

/** The main campus (oldest): where a student goes when no branch is chosen. */
export async function firstCampus(db: DbOrTx): Promise<typeof campuses.$inferSelect | undefined> {
  const rows = await db.select().from(campuses).orderBy(campuses.established, campuses.id).limit(1);
  return rows[0];
}

type StudentRow = typeof externalStudents.$inferSelect;
function toStudent(r: StudentRow, campusName: string | null): ExternalStudent {
  return {
    id: String(r.id), name: r.name, email: r.email, phone: r.phone, address: r.address,
    campus: campusName ?? r.campus, course: r.course, status: r.status, enrollmentDate: r.enrollmentDate,
  };
}

/** `%`, `_` and `\` in user text match themselves, not as wildcards. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

type StudentFilter = { search?: string; status?: string; campusSlug?: string; id?: number; applicationId?: number; email?: string };

function studentsWhere(f: StudentFilter): SQL | undefined {
  const where: (SQL | undefined)[] = [];
  if (f.search) {
    const p = `%${likeEscape(f.search)}%`;
    where.push(or(unaccentContains(externalStudents.name, f.search), ilike(externalStudents.email, p), ilike(externalStudents.course, p), ilike(campuses.name, p)));
  }
  if (f.status) where.push(eq(externalStudents.status, f.status as StudentRow['status']));
  if (f.campusSlug) where.push(eq(externalStudents.campus, f.campusSlug));
  if (f.id != null) where.push(eq(externalStudents.id, f.id));
  if (f.applicationId != null) where.push(eq(externalStudents.applicationId, f.applicationId));
  if (f.email) where.push(eq(externalStudents.email, f.email));
  return and(...where);
}

/**
 * External students matching every given filter (search in name — accents and ’ ignored — e-mail, course or campus, `%`/`_` literal; status;
 * campus slug; id; application id; e-mail), by name then id: rows `offset` to `offset + limit` (default the first 100).
 */
export async function selectStudents(db: DbOrTx, f: StudentFilter, page: { limit?: number; offset?: number } = {}): Promise<ExternalStudent[]> {
  const rows = await db.select({ s: externalStudents, campusName: campuses.name }).from(externalStudents)
    .leftJoin(campuses, eq(campuses.slug, externalStudents.campus))
    .where(studentsWhere(f))
    .orderBy(externalStudents.name, externalStudents.id)
    .limit(page.limit ?? 100).offset(page.offset ?? 0);
  return rows.map((r) => toStudent(r.s, r.campusName));
}

/** How many external students match the filter of selectStudents. */
export async function countStudents(db: DbOrTx, f: StudentFilter): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(externalStudents)
    .leftJoin(campuses, eq(campuses.slug, externalStudents.campus))
    .where(studentsWhere(f));
  return Number(n);
}

/** Inserts an external student; returns its id. Throws 23505 when the application id is already linked. */
export async function insertStudent(db: DbOrTx, row: typeof externalStudents.$inferInsert): Promise<number> {
  const [r] = await db.insert(externalStudents).values(row).returning({ id: externalStudents.id });
  return r.id;
}

type PaymentRow = typeof externalPayments.$inferSelect;
function toPayment(p: PaymentRow, studentName: string | null): ExternalPayment {
  return {
    id: String(p.id), reference: p.reference, studentName: studentName ?? '', studentId: String(p.studentId),
    amount: Number(p.amount).toFixed(2), currency: p.currency, method: p.method, date: iso(p.date), status: p.status,
    branchName: p.branchName, description: p.description,
  };
}

const paymentFields = { p: externalPayments, studentName: externalStudents.name };
const newestFirst = [desc(externalPayments.date), desc(externalPayments.id)];

/** The payment with `id` / `idempotencyKey` (a list of at most one). */
export async function selectPayments(db: DbOrTx, f: { id?: number; idempotencyKey?: string }): Promise<ExternalPayment[]> {
  const rows = await db.select(paymentFields).from(externalPayments)
    .leftJoin(externalStudents, eq(externalStudents.id, externalPayments.studentId))
    .where(f.id != null ? eq(externalPayments.id, f.id) : eq(externalPayments.idempotencyKey, f.idempotencyKey ?? ''))
    .limit(1);
  return rows.map((r) => toPayment(r.p, r.studentName));
}

/** Payments newest first (date, then id), rows `offset` to `offset + limit`. */
export async function selectPaymentPage(db: DbOrTx, page: { limit: number; offset: number }): Promise<ExternalPayment[]> {
  const rows = await db.select(paymentFields).from(externalPayments)
    .leftJoin(externalStudents, eq(externalStudents.id, externalPayments.studentId))
    .orderBy(...newestFirst).limit(page.limit).offset(page.offset);
  return rows.map((r) => toPayment(r.p, r.studentName));
}

/**
 * Every payment newest first, `pageSize` rows per query (CSV export): keyset on (date, id), each query starting after
 * the previous page's last row (its date cast back from text, so microseconds survive); nothing held open between pages.
 */
export async function* paymentPagesNewestFirst(db: DbOrTx, pageSize = 1000): AsyncGenerator<ExternalPayment[], void, undefined> {
  let last: { date: string; id: number } | null = null;
  for (;;) {
    const rows: { p: PaymentRow; studentName: string | null; dateText: string }[] = await db.select({ ...paymentFields, dateText: sql<string>`${externalPayments.date}::text` })
      .from(externalPayments)
      .leftJoin(externalStudents, eq(externalStudents.id, externalPayments.studentId))
      .where(last ? sql`(${externalPayments.date}, ${externalPayments.id}) < (cast(${last.date} as timestamptz), ${last.id})` : undefined)
      .orderBy(...newestFirst).limit(pageSize);
    if (rows.length) yield rows.map((r) => toPayment(r.p, r.studentName));
    if (rows.length < pageSize) return;
    const end = rows[rows.length - 1];
    last = { date: end.dateText, id: end.p.id };
  }
}

/** Number of payments and their sums per currency, computed by the database over every payment (amount 'NNN.NN'). */
export async function paymentTotals(db: DbOrTx): Promise<{ count: number; totals: CurrencyTotal[] }> {
  const rows = await db.select({
    currency: externalPayments.currency, amount: sql<string>`sum(${externalPayments.amount})::text`, count: count(),
  }).from(externalPayments).groupBy(externalPayments.currency);
  const totals = rows.map((r) => ({ currency: r.currency, amount: r.amount, count: Number(r.count) }));
  return { count: totals.reduce((n, t) => n + t.count, 0), totals };
}

/** Inserts an external payment; returns its id. Throws 23505 on a repeated idempotency key. */
export async function insertPayment(db: DbOrTx, row: typeof externalPayments.$inferInsert): Promise<number> {
  const [r] = await db.insert(externalPayments).values(row).returning({ id: externalPayments.id });
  return r.id;
}

/**
 * Accepted applications for the "Enrol accepted applicant" picker (volume audit: it offered the 100 newest of 5 010):
 * those matching `search` (APP-{id} or a bare id: that application; otherwise part of the applicant's name, accents ignored, or e-mail, `%`/`_` literal), without
 * the ones already linked to an external student when `excludeEnrolled` (the local driver knows; a remote system does
 * not tell), newest first, at most `limit`, with how many match in all.
 */
export async function selectEnrolableApplications(db: DbOrTx, f: { search: string; excludeEnrolled: boolean; limit: number }): Promise<EnrolableApplicationsPage> {
  const conds: (SQL | undefined)[] = [eq(applications.status, 'accepted')];
  if (f.excludeEnrolled) conds.push(sql`not exists (select 1 from ${externalStudents} where ${externalStudents.applicationId} = ${applications.id})`);
  const term = f.search.trim();
  if (term) {
    const appId = /^(?:app-?)?(\d{1,9})$/i.exec(term);
    const like = `%${likeEscape(term)}%`;
    // 'APP-12' or '12' is an application id (digits inside e-mail addresses would match almost everyone).
    conds.push(appId ? eq(applications.id, Number(appId[1]))
      : or(unaccentContains(sql`${users.firstName} || ' ' || ${users.lastName}`, term), ilike(users.email, like)));
  }
  const where = and(...conds);
  const [rows, [{ n }]] = await Promise.all([
    db.select({ id: applications.id, first: users.firstName, last: users.lastName, email: users.email, course: courses.title, createdAt: applications.createdAt })
      .from(applications).innerJoin(users, eq(users.id, applications.userId)).leftJoin(courses, eq(courses.id, applications.courseId))
      .where(where).orderBy(desc(applications.createdAt), desc(applications.id)).limit(f.limit),
    db.select({ n: count() }).from(applications).innerJoin(users, eq(users.id, applications.userId)).where(where),
  ]);
  return {
    applications: rows.map((r) => ({ id: r.id, name: `${r.first} ${r.last}`.trim(), email: r.email, course: r.course, createdAt: iso(r.createdAt) })),
    total: Number(n),
  };
}
