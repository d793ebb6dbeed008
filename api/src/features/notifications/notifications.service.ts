/**
 * Portal notifications (spec §3 Notification; DESIGN §4): each one is also queued as an e-mail through
 * the outbox, inside the caller's transaction.
 */
import type { DbOrTx } from '../../db/client.ts';
import { findUserById } from '../../auth/users-repo.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { absoluteLink } from '../../mail/links.ts';
import { applicantMail, type ApplicantNotice } from '../../mail/messages.ts';
import { notFound } from '../../http/errors.ts';
import { isErasedUser } from '../erasure/erasure.repo.ts';
import type { Notification, NotificationList } from '#contracts/notifications.ts';
import { insertNotifications, listForUser, markAllRead, markRead, unreadCount } from './notifications.repo.ts';

/**
 * Tells `userId` about an event: the notice's line as a portal notification, and its subject and body by e-mail
 * (greeting, body, a link to the application or to My Applications, the college footer; api/src/mail/messages.ts), on
 * `db` (the caller's transaction). `origin` ('https://host', from linkOrigin) makes the e-mail's link absolute (issue
 * #14 point 9). Nothing for an unknown or erased account (isErasedUser: erased_at, or an older release's erasure).
 */
export async function notifyUser(db: DbOrTx, userId: number, notice: ApplicantNotice, opts: { applicationId?: number; origin: string }): Promise<void> {
  const u = await findUserById(db, userId);
  // An erased account (its applications stay and admins may still move them) can never read either.
  if (!u || isErasedUser(u)) return;
  await insertNotifications(db, [{ userId, message: notice.notification, applicationId: opts.applicationId ?? null }]);
  const link = absoluteLink(opts.origin, opts.applicationId ? `/applications/${opts.applicationId}` : '/my-applications');
  await enqueueMail(db, applicantMail(u.email, notice.subject, `${notice.body}\n\nYou can follow your application at ${link}`, opts.origin, u.firstName));
}

/** Portal notifications only (no e-mail) for many users at once, e.g. a new announcement for every student. */
export async function notifyMany(db: DbOrTx, rows: { userId: number; message: string }[]): Promise<void> {
  await insertNotifications(db, rows);
}

/**
 * One page of the user's notifications, newest first (NotificationList): `limit` of them (1–100), older than
 * notification `before` when given; `unreadCount` over all of the user's notifications; `hasMore` when older ones remain
 * (one row more is read to know).
 */
export async function notificationsFor(db: DbOrTx, userId: number, page: { limit: number; before?: number }): Promise<NotificationList> {
  const [rows, unread] = await Promise.all([listForUser(db, userId, page.limit + 1, page.before), unreadCount(db, userId)]);
  return { notifications: rows.slice(0, page.limit), unreadCount: unread, hasMore: rows.length > page.limit };
}

/** Marks one read. Throws 404 when the id is unknown or belongs to someone else. */
export async function markNotificationRead(db: DbOrTx, userId: number, id: number): Promise<Notification> {
  const n = await markRead(db, userId, id);
  if (!n) throw notFound('Notification not found');
  return n;
}

/** Marks every unread notification of the user read; returns the count changed. */
export function markAllNotificationsRead(db: DbOrTx, userId: number): Promise<number> {
  return markAllRead(db, userId);
}
