/**
 * Portal notifications (spec §3 Notification; DESIGN §4): each one is also queued as an e-mail through
 * the outbox, inside the caller's transaction.
 */
import type { Db } from '../../db/client.ts';
import { notifications } from '../../db/schema/messaging.ts';
import { users } from '../../db/schema/users.ts';
import { eq } from 'drizzle-orm';
import { enqueueMail } from '../../mail/outbox.ts';
import { notFound } from '../../http/errors.ts';
import type { Notification } from '#contracts/notifications.ts';
import { listForUser, markAllRead, markRead } from './notifications.repo.ts';

/** Creates a notification for `userId` and queues the same message by e-mail. */
export async function notifyUser(db: Db, userId: number, message: string, opts: { applicationId?: number; subject?: string } = {}): Promise<void> {
  await db.insert(notifications).values({ userId, message, applicationId: opts.applicationId ?? null });
  const [u] = await db.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, userId)).limit(1);
  if (u) await enqueueMail(db, { to: u.email, subject: opts.subject ?? 'An update on your application', text: `Dear ${u.firstName},\n\n${message}\n\nYou can follow your application at /my-applications.\n` });
}

/** The user's notifications, newest first (at most 100). */
export function notificationsFor(db: Db, userId: number): Promise<Notification[]> {
  return listForUser(db, userId);
}

/** Marks one read. Throws 404 when the id is unknown or belongs to someone else. */
export async function markNotificationRead(db: Db, userId: number, id: number): Promise<Notification> {
  const n = await markRead(db, userId, id);
  if (!n) throw notFound('Notification not found');
  return n;
}

/** Marks every unread notification of the user read; returns the count changed. */
export function markAllNotificationsRead(db: Db, userId: number): Promise<number> {
  return markAllRead(db, userId);
}
