/** Notification rows (spec §3 Notification), always scoped to their owner. */
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { notifications } from '../../db/schema/messaging.ts';
import type { Notification } from '#contracts/notifications.ts';

type Row = typeof notifications.$inferSelect;

/** A row in the API shape (spec §3 Notification): applicationId null when unset, createdAt ISO 8601. */
export function toNotification(r: Row): Notification {
  return { id: r.id, userId: r.userId, message: r.message, read: r.read, applicationId: r.applicationId ?? null, createdAt: r.createdAt instanceof Date ? r.createdAt.toISOString() : String(r.createdAt) };
}

/** Inserts notifications, 500 rows per statement (an announcement to every student). */
export async function insertNotifications(db: DbOrTx, rows: { userId: number; message: string; applicationId?: number | null }[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await db.insert(notifications).values(rows.slice(i, i + 500));
}

/**
 * Up to `limit` notifications of `userId`, newest first (created_at, id descending): the newest ones, or with `before`
 * (a notification id of this user) the ones after it in that order. The row comparison `(created_at, id) < (…)` with
 * `user_id = …` is one walk of notifications_user_created_idx (user_id, created_at DESC, id DESC). An unknown `before`
 * (or someone else's id) gives an empty page.
 */
export async function listForUser(db: DbOrTx, userId: number, limit: number, before?: number): Promise<Notification[]> {
  const cursor = before === undefined ? undefined
    : sql`(${notifications.createdAt}, ${notifications.id}) < (select c.created_at, c.id from notifications c where c.id = ${before} and c.user_id = ${userId})`;
  const rows = await db.select().from(notifications).where(and(eq(notifications.userId, userId), cursor))
    .orderBy(desc(notifications.createdAt), desc(notifications.id)).limit(limit);
  return rows.map(toNotification);
}

/** How many notifications of `userId` are unread (all of them, not one page's). */
export async function unreadCount(db: DbOrTx, userId: number): Promise<number> {
  const [r] = await db.select({ n: count() }).from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.read, false)));
  return Number(r?.n ?? 0);
}

/** Marks one of the user's notifications read; returns it, or undefined when it is not theirs. */
export async function markRead(db: DbOrTx, userId: number, id: number): Promise<Notification | undefined> {
  const rows = await db.update(notifications).set({ read: true })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId))).returning();
  return rows[0] ? toNotification(rows[0]) : undefined;
}

/** Marks all the user's unread notifications read; returns how many changed. */
export async function markAllRead(db: DbOrTx, userId: number): Promise<number> {
  const rows = await db.update(notifications).set({ read: true })
    .where(and(eq(notifications.userId, userId), eq(notifications.read, false))).returning({ id: notifications.id });
  return rows.length;
}
