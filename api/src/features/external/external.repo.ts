/**
 * SQL of the local external driver: branches are the campuses (table campuses) with live counts of
 * active students, students are rows of external_students (campus stored as the campus slug), payments
 * rows of external_payments (amount numeric(12,2), currency units).
 */
import { and, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { campuses } from '../../db/schema/catalogue.ts';
import { externalPayments, externalStudents } from '../../db/schema/system.ts';
import type { ExternalBranch, ExternalPayment, ExternalStudent } from '#contracts/external.ts';

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

/**
 * External students matching every given filter (search in name, e-mail, course or campus, `%`/`_` literal; status;
 * campus slug; id; application id; e-mail), by name, at most 1000.
 */
export async function selectStudents(db: DbOrTx, f: { search?: string; status?: string; campusSlug?: string; id?: number; applicationId?: number; email?: string }): Promise<ExternalStudent[]> {
  const where: (SQL | undefined)[] = [];
  if (f.search) {
    const p = `%${likeEscape(f.search)}%`;
    where.push(or(ilike(externalStudents.name, p), ilike(externalStudents.email, p), ilike(externalStudents.course, p), ilike(campuses.name, p)));
  }
  if (f.status) where.push(eq(externalStudents.status, f.status as StudentRow['status']));
  if (f.campusSlug) where.push(eq(externalStudents.campus, f.campusSlug));
  if (f.id != null) where.push(eq(externalStudents.id, f.id));
  if (f.applicationId != null) where.push(eq(externalStudents.applicationId, f.applicationId));
  if (f.email) where.push(eq(externalStudents.email, f.email));
  const rows = await db.select({ s: externalStudents, campusName: campuses.name }).from(externalStudents)
    .leftJoin(campuses, eq(campuses.slug, externalStudents.campus))
    .where(and(...where))
    .orderBy(externalStudents.name, externalStudents.id)
    .limit(1000);
  return rows.map((r) => toStudent(r.s, r.campusName));
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

/** Payments newest first, or the one with `id` / `idempotencyKey`. */
export async function selectPayments(db: DbOrTx, f: { id?: number; idempotencyKey?: string } = {}): Promise<ExternalPayment[]> {
  const rows = await db.select({ p: externalPayments, studentName: externalStudents.name }).from(externalPayments)
    .leftJoin(externalStudents, eq(externalStudents.id, externalPayments.studentId))
    .where(f.id != null ? eq(externalPayments.id, f.id) : f.idempotencyKey != null ? eq(externalPayments.idempotencyKey, f.idempotencyKey) : undefined)
    .orderBy(desc(externalPayments.date), desc(externalPayments.id))
    .limit(5000);
  return rows.map((r) => toPayment(r.p, r.studentName));
}

/** Inserts an external payment; returns its id. Throws 23505 on a repeated idempotency key. */
export async function insertPayment(db: DbOrTx, row: typeof externalPayments.$inferInsert): Promise<number> {
  const [r] = await db.insert(externalPayments).values(row).returning({ id: externalPayments.id });
  return r.id;
}
