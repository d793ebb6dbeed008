/** SQL for assessment bookings (table assessment_bookings, api/src/db/schema/messaging.ts). */
import { count, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { assessmentBookings } from '../../db/schema/messaging.ts';
import type { AssessmentBooking } from '#contracts/assessment.ts';

export type BookingDetails = Omit<AssessmentBooking, 'idempotencyKey'>;
export interface StoredBooking extends BookingDetails { id: number; createdAt: string }

type Row = typeof assessmentBookings.$inferSelect;
const toPublic = (r: Row): StoredBooking => ({ ...(r.data as BookingDetails), id: r.id, createdAt: r.createdAt.toISOString() });

/** Inserts a booking; returns null when a row with the same idempotency key already exists. */
export async function insertBooking(db: DbOrTx, b: AssessmentBooking): Promise<StoredBooking | null> {
  const { idempotencyKey, ...data } = b;
  const rows = await db.insert(assessmentBookings).values({
    data, email: data.email, preferredDate: data.preferredDate, idempotencyKey: idempotencyKey ?? null,
  }).onConflictDoNothing({ target: assessmentBookings.idempotencyKey }).returning();
  return rows[0] ? toPublic(rows[0]) : null;
}

/** The booking stored under idempotency key `key` (a repeated submit), or null. */
export async function bookingByKey(db: DbOrTx, key: string): Promise<StoredBooking | null> {
  const rows = await db.select().from(assessmentBookings).where(eq(assessmentBookings.idempotencyKey, key)).limit(1);
  return rows[0] ? toPublic(rows[0]) : null;
}

/** Bookings newest first (created_at, then id), rows `offset` to `offset + limit`, and how many there are in all. */
export async function listBookings(db: DbOrTx, page: { limit: number; offset: number }): Promise<{ bookings: StoredBooking[]; total: number }> {
  const [rows, [{ n }]] = await Promise.all([
    db.select().from(assessmentBookings).orderBy(desc(assessmentBookings.createdAt), desc(assessmentBookings.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(assessmentBookings),
  ]);
  return { bookings: rows.map(toPublic), total: Number(n) };
}
