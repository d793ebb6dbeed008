/** Application rows, joined with their course; the projections students and admins see. */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { applications, applicationStatusHistory, payments } from '../../db/schema/applications.ts';
import { courses } from '../../db/schema/catalogue.ts';
import { progressFor } from '#contracts/common.ts';

export type ApplicationRow = typeof applications.$inferSelect;

const iso = (d: Date | string | null) => (d == null ? null : d instanceof Date ? d.toISOString() : String(d));

export interface ApplicationView {
  id: number; userId: number; courseId: number; status: string; progress: number;
  personal: unknown; academicHistory: unknown; documents: Record<string, string>;
  paymentStatus: string; paymentAmount: string; submittedAt: string | null; updatedAt: string | null; createdAt: string | null;
  notes?: string | null;
  course: { id: number; title: string; name: string; department: string; duration: number | null; startDate: string | null } | null;
}

/** `forAdmin` includes internal notes; students never see them (DESIGN §4). */
export function toView(row: ApplicationRow, course: typeof courses.$inferSelect | null, forAdmin: boolean): ApplicationView {
  return {
    id: row.id, userId: row.userId, courseId: row.courseId, status: row.status, progress: progressFor(row.status),
    personal: row.personal, academicHistory: row.academicHistory, documents: row.documents as Record<string, string>,
    paymentStatus: row.paymentStatus, paymentAmount: row.paymentAmount,
    submittedAt: iso(row.submittedAt), updatedAt: iso(row.updatedAt), createdAt: iso(row.createdAt),
    ...(forAdmin ? { notes: row.notes } : {}),
    course: course ? { id: course.id, title: course.title, name: course.title, department: course.department, duration: course.duration, startDate: course.startDate } : null,
  };
}

export async function listApplications(db: Db, opts: { userId?: number; forAdmin: boolean }): Promise<ApplicationView[]> {
  const rows = await db.select({ a: applications, c: courses }).from(applications)
    .leftJoin(courses, eq(courses.id, applications.courseId))
    .where(opts.userId != null ? eq(applications.userId, opts.userId) : undefined)
    .orderBy(desc(applications.createdAt), desc(applications.id));
  return rows.map((r) => toView(r.a, r.c, opts.forAdmin));
}

/** One application; when `userId` is given it must belong to that user (else undefined → 404). */
export async function findApplication(db: Db, id: number, opts: { userId?: number; forAdmin: boolean }): Promise<ApplicationView | undefined> {
  const rows = await db.select({ a: applications, c: courses }).from(applications)
    .leftJoin(courses, eq(courses.id, applications.courseId))
    .where(opts.userId != null ? and(eq(applications.id, id), eq(applications.userId, opts.userId)) : eq(applications.id, id))
    .limit(1);
  return rows[0] ? toView(rows[0].a, rows[0].c, opts.forAdmin) : undefined;
}

/** Locks the row for a status change (SELECT … FOR UPDATE) so concurrent admins serialise. */
export async function lockApplication(tx: Db, id: number): Promise<ApplicationRow | undefined> {
  const rows = await tx.select().from(applications).where(eq(applications.id, id)).for('update').limit(1);
  return rows[0];
}

/** Appends a history row stamped with the wall clock at insert (clock_timestamp), not the transaction start. */
export async function insertHistory(tx: Db, row: typeof applicationStatusHistory.$inferInsert): Promise<void> {
  await tx.insert(applicationStatusHistory).values({ createdAt: sql`clock_timestamp()`, ...row });
}

export async function insertPayment(tx: Db, row: typeof payments.$inferInsert): Promise<void> {
  await tx.insert(payments).values(row);
}

export async function hasActiveApplication(db: Db, userId: number, courseId: number): Promise<boolean> {
  const rows = await db.select({ id: applications.id }).from(applications)
    .where(and(eq(applications.userId, userId), eq(applications.courseId, courseId), sql`${applications.status} <> 'rejected'`)).limit(1);
  return rows.length > 0;
}

/** A status change as shown on the timeline; `notes` only for admins. Dates ISO 8601. */
export interface TimelineEntry { fromStatus: string | null; toStatus: string; createdAt: string | null; notes?: string | null }

export async function historyFor(db: Db, applicationId: number, forAdmin: boolean): Promise<TimelineEntry[]> {
  const rows = await db.select().from(applicationStatusHistory).where(eq(applicationStatusHistory.applicationId, applicationId))
    .orderBy(applicationStatusHistory.id); // insertion order: created_at is the transaction start (now()), ids follow the row lock
  return rows.map((h) => ({ fromStatus: h.fromStatus, toStatus: h.toStatus, createdAt: iso(h.createdAt), ...(forAdmin ? { notes: h.notes } : {}) }));
}

/** The recorded simulated payment: never a card number or CVC, only the last four digits. Amount '50.00'. */
export interface PaymentView { applicationId: number; method: string; last4: string | null; reference: string; amount: string; currency: string; status: string; createdAt: string | null }

export async function paymentsFor(db: Db, applicationIds: number[]): Promise<Map<number, PaymentView>> {
  if (applicationIds.length === 0) return new Map();
  const rows = await db.select().from(payments).where(inArray(payments.applicationId, applicationIds)).orderBy(payments.id);
  return new Map(rows.map((p) => [p.applicationId, {
    applicationId: p.applicationId, method: p.method, last4: p.last4, reference: p.reference, amount: p.amount, currency: p.currency, status: p.status, createdAt: iso(p.createdAt),
  }]));
}

export async function updateDocuments(tx: Db, id: number, documents: Record<string, string>, status: string): Promise<void> {
  await tx.update(applications).set({ documents, status, updatedAt: new Date() }).where(eq(applications.id, id));
}
