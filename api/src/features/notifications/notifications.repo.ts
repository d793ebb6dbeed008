/** Notification rows (spec §3 Notification), always scoped to their owner. */
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notifications } from '../../db/schema/messaging.ts';
import type { Notification } from '#contracts/notifications.ts';

type Row = typeof notifications.$inferSelect;

export function toNotification(r: Row): Notification {
  return { id: r.id, userId: r.userId, message: r.message, read: r.read, applicationId: r.applicationId ?? null, createdAt: r.createdAt instanceof Date ? r.createdAt.toISOString() : String(r.createdAt) };
}

export async function listForUser(db: Db, userId: number, limit = 100): Promise<Notification[]> {
  const rows = await db.select().from(notifications).where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id)).limit(limit);
  return rows.map(toNotification);
}

/** Marks one of the user's notifications read; returns it, or undefined when it is not theirs. */
export async function markRead(db: Db, userId: number, id: number): Promise<Notification | undefined> {
  const rows = await db.update(notifications).set({ read: true })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId))).returning();
  return rows[0] ? toNotification(rows[0]) : undefined;
}

/** Marks all the user's unread notifications read; returns how many changed. */
export async function markAllRead(db: Db, userId: number): Promise<number> {
  const rows = await db.update(notifications).set({ read: true })
    .where(and(eq(notifications.userId, userId), eq(notifications.read, false))).returning({ id: notifications.id });
  return rows.length;
}
