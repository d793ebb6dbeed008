/** Application rows, joined with their course; the projections students and admins see. */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { applications, applicationStatusHistory, payments } from '../../db/schema/applications.ts';
import { campuses, courses } from '../../db/schema/catalogue.ts';
import { users } from '../../db/schema/users.ts';
import { alias } from 'drizzle-orm/pg-core';
import { progressFor } from '#contracts/common.ts';
import type { ApplicationView, PaymentView, TimelineEntry } from '#contracts/application-views.ts';

export type ApplicationRow = typeof applications.$inferSelect;

const iso = (d: Date | string | null) => (d == null ? null : d instanceof Date ? d.toISOString() : String(d));


/** The course fields an ApplicationView shows (a courses row or the Course contract both have them). */
type CourseCols = Pick<typeof courses.$inferSelect, 'id' | 'title' | 'department' | 'duration' | 'startDate'>;

/** `forAdmin` includes internal notes; students never see them (DESIGN §4). */
export function toView(row: ApplicationRow, course: CourseCols | null, forAdmin: boolean, entry?: EntryCols): ApplicationView {
  return {
    enteredBy: row.enteredBy != null && entry ? { name: `${entry.enteredFirst ?? ''} ${entry.enteredLast ?? ''}`.trim() || 'College staff', campus: entry.campusName ?? null } : null,
    id: row.id, userId: row.userId, courseId: row.courseId, status: row.status, progress: progressFor(row.status),
    personal: row.personal as ApplicationView['personal'], academicHistory: (row.academicHistory ?? {}) as ApplicationView['academicHistory'], documents: row.documents as Record<string, string>,
    paymentStatus: row.paymentStatus, paymentAmount: row.paymentAmount,
    submittedAt: iso(row.submittedAt), updatedAt: iso(row.updatedAt), createdAt: iso(row.createdAt),
    aps: row.aps ?? null,
    ...(forAdmin ? { notes: row.notes, eligible: row.eligible ?? null, eligibilityReasons: row.eligibilityReasons ?? [] } : {}),
    course: course ? { id: course.id, title: course.title, name: course.title, department: course.department, duration: course.duration, startDate: course.startDate } : null,
  };
}

/** The admin who entered an application and the campus, joined by name. */
interface EntryCols { enteredFirst: string | null; enteredLast: string | null; campusName: string | null }
const enteredByUser = alias(users, 'entered_by_user');
const entryCols = { enteredFirst: enteredByUser.firstName, enteredLast: enteredByUser.lastName, campusName: campuses.name };

/**
 * The applications of user `userId` as ApplicationView (course and "entered by … at …" joined; no admin-only notes),
 * newest first (spec §7 GET /api/applications). Always scoped to one user: there is deliberately no "every
 * application" variant (admins page through GET /api/admin/applications).
 */
export async function listApplications(db: DbOrTx, userId: number): Promise<ApplicationView[]> {
  const rows = await db.select({ a: applications, c: courses, ...entryCols }).from(applications)
    .leftJoin(courses, eq(courses.id, applications.courseId))
    .leftJoin(enteredByUser, eq(enteredByUser.id, applications.enteredBy))
    .leftJoin(campuses, eq(campuses.id, applications.enteredCampusId))
    .where(eq(applications.userId, userId))
    .orderBy(desc(applications.createdAt), desc(applications.id));
  return rows.map((r) => toView(r.a, r.c, false, r));
}

/** One application; when `userId` is given it must belong to that user (else undefined → 404). */
export async function findApplication(db: DbOrTx, id: number, opts: { userId?: number; forAdmin: boolean }): Promise<ApplicationView | undefined> {
  const rows = await db.select({ a: applications, c: courses, ...entryCols }).from(applications)
    .leftJoin(courses, eq(courses.id, applications.courseId))
    .leftJoin(enteredByUser, eq(enteredByUser.id, applications.enteredBy))
    .leftJoin(campuses, eq(campuses.id, applications.enteredCampusId))
    .where(opts.userId != null ? and(eq(applications.id, id), eq(applications.userId, opts.userId)) : eq(applications.id, id))
    .limit(1);
  return rows[0] ? toView(rows[0].a, rows[0].c, opts.forAdmin, rows[0]) : undefined;
}

/**
 * Inserts an application row; returns it as stored (id, defaults and timestamps: RETURNING *, so the submit's answer
 * needs no second read). Throws 23505 when the user already applied for the course.
 */
export async function insertApplication(db: DbOrTx, row: typeof applications.$inferInsert): Promise<ApplicationRow> {
  const [inserted] = await db.insert(applications).values(row).returning();
  return inserted!;
}

/** Sets status and notes (and updatedAt) of application `id`. */
export async function updateStatus(db: DbOrTx, id: number, status: string, notes: string | null): Promise<void> {
  await db.update(applications).set({ status, notes, updatedAt: new Date() }).where(eq(applications.id, id));
}

/** Locks the row for a status change (SELECT … FOR UPDATE) so concurrent admins serialise. */
export async function lockApplication(tx: DbOrTx, id: number): Promise<ApplicationRow | undefined> {
  const rows = await tx.select().from(applications).where(eq(applications.id, id)).for('update').limit(1);
  return rows[0];
}

/** Appends a history row stamped with the wall clock at insert (clock_timestamp), not the transaction start. */
export async function insertHistory(tx: DbOrTx, row: typeof applicationStatusHistory.$inferInsert): Promise<void> {
  await tx.insert(applicationStatusHistory).values({ createdAt: sql`clock_timestamp()`, ...row });
}

/**
 * Records a payment row (spec §9 simulated card payment: method, last 4 digits, reference, amount 'NNN.NN', currency).
 * A completed one ends any hold on the application's earlier payments (held_at cleared; they stay pending), so
 * leaving payment_pending does not restore them on top of it (restoreHeldPayments, admin.repo.ts). `firstPayment`:
 * the application was inserted in this same transaction (the submit), so it has no earlier payment and no hold to
 * end (holds come only from a status change to payment_pending, markPaymentPending) and that UPDATE is not run.
 */
export async function insertPayment(tx: DbOrTx, row: typeof payments.$inferInsert, opts: { firstPayment?: boolean } = {}): Promise<void> {
  if (row.status === 'completed' && !opts.firstPayment) {
    await tx.update(payments).set({ heldAt: null }).where(and(eq(payments.applicationId, row.applicationId), sql`${payments.heldAt} is not null`));
  }
  await tx.insert(payments).values(row);
}

/**
 * Whether `userId` has an application for `courseId` that is not rejected (spec §8: one active application per course).
 */
export async function hasActiveApplication(db: DbOrTx, userId: number, courseId: number): Promise<boolean> {
  const rows = await db.select({ id: applications.id }).from(applications)
    .where(and(eq(applications.userId, userId), eq(applications.courseId, courseId), sql`${applications.status} <> 'rejected'`)).limit(1);
  return rows.length > 0;
}


/**
 * The status timeline of an application in insertion order (ISO 8601 dates); `forAdmin` adds each change's notes and
 * keeps the note-only rows (same status before and after, an admin's note saved without a change), which the
 * applicant's timeline leaves out (admin day audit: they read as a "Pending → Pending" step).
 */
export async function historyFor(db: DbOrTx, applicationId: number, forAdmin: boolean): Promise<TimelineEntry[]> {
  const rows = await db.select().from(applicationStatusHistory).where(eq(applicationStatusHistory.applicationId, applicationId))
    .orderBy(applicationStatusHistory.id); // insertion order: created_at is the transaction start (now()), ids follow the row lock
  // A row whose status did not change only carries an admin's internal note: not a step of the applicant's timeline.
  const shown = forAdmin ? rows : rows.filter((h) => h.fromStatus !== h.toStatus);
  return shown.map((h) => ({ fromStatus: h.fromStatus, toStatus: h.toStatus, createdAt: iso(h.createdAt), ...(forAdmin ? { notes: h.notes } : {}) }));
}


/** The latest payment of each of `applicationIds` (amount 'NNN.NN', ISO createdAt), keyed by application id. */
export async function paymentsFor(db: DbOrTx, applicationIds: number[]): Promise<Map<number, PaymentView>> {
  if (applicationIds.length === 0) return new Map();
  const rows = await db.select().from(payments).where(inArray(payments.applicationId, applicationIds)).orderBy(payments.id);
  return new Map(rows.map((p) => [p.applicationId, {
    applicationId: p.applicationId, method: p.method, last4: p.last4, reference: p.reference, amount: p.amount, currency: p.currency, status: p.status, createdAt: iso(p.createdAt),
  }]));
}

/**
 * Replaces the slot → upload id map of application `id` and sets its status (documents re-submitted, spec §7 PUT /:id/documents).
 */
export async function updateDocuments(tx: DbOrTx, id: number, documents: Record<string, string>, status: string): Promise<void> {
  await tx.update(applications).set({ documents, status, updatedAt: new Date() }).where(eq(applications.id, id));
}
