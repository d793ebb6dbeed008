/**
 * Announcement writes (spec §2 Announcements, §5 Announcement form, §7; issue #6):
 * - create/update store the row; with `sendEmail` every student with a verified address (not erased, not opted out of
 *   announcement mail, not bounced) gets an e-mail through the outbox and with
 *   `sendNotification` a portal notification — in the same transaction as the change, so a crash never
 *   leaves a half-announced announcement.
 * - notify (POST /api/announcements/:id/notify) e-mails every student with a verified address, in one transaction.
 * Each mail ends with the college footer linking `links.origin` (siteOrigin) and the student's unsubscribe link. Throws 404 'Announcement not found'.
 */
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { countMailableStudents, lockUserRow, mailableStudents, studentContacts } from '../../auth/users-repo.ts';
import { notifyMany } from '../notifications/notifications.service.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { announcementMailText, COLLEGE } from '../../mail/messages.ts';
import { unsubscribeUrl } from './unsubscribe.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { ANNOUNCEMENT_EDIT_CONFLICT, INACTIVE_EMAIL_MESSAGE, INACTIVE_NOTIFICATION_MESSAGE, type AnnouncementInputSchema, type AnnouncementUpdateSchema } from '#contracts/announcements.ts';
import { deleteAnnouncement, findAnnouncement, hasRecentTwin, insertAnnouncement, listAnnouncements, updateAnnouncement, type Announcement } from './announcements.repo.ts';

type Input = z.output<typeof AnnouncementInputSchema>;
type EditInput = z.output<typeof AnnouncementUpdateSchema>;
export interface AnnouncementResult { announcement: Announcement; emailed: number; notified: number }
/** What an edit did: saved and fanned out, or refused because it changed since the form opened (`current`: as it is now). */
export type AnnouncementEditResult = AnnouncementResult | { conflict: { message: string; current: Announcement } };

const NOT_FOUND = 'Announcement not found';
/** 409 when the same admin creates the same title and content again within REPEAT_WINDOW_S (a retry, a second tab). */
export const JUST_PUBLISHED = 'This announcement was just published.';
/** Seconds during which an identical create by the same admin counts as a repeat. */
export const REPEAT_WINDOW_S = 60;

/** Where to link and how to sign links in announcement mail: `origin` (siteOrigin) and the session secret (unsubscribe tokens). */
export interface MailLinks { origin: string; secret: string }

/**
 * Queues the announcement for every mailable student (verified, not erased, not opted out, not bounced). Each mail
 * carries the student's own unsubscribe link in the footer and in its list headers (List-Unsubscribe, RFC 8058
 * one-click; List-Id; Precedence: bulk), bulk priority. Returns how many mails were queued.
 */
async function emailStudents(db: Db, a: Announcement, links: MailLinks): Promise<number> {
  const list = await mailableStudents(db);
  const listId = announcementListId(links.origin);
  // Bulk: behind every reset link, verification and status mail already queued or queued later (mail/outbox.ts).
  await enqueueMail(db, list.map((s) => {
    const url = unsubscribeUrl(links.origin, links.secret, s.id);
    return { to: s.email, subject: `Announcement: ${a.title}`, text: announcementMailText(s.firstName, a.title, a.content, links.origin, url),
      list: { unsubscribeUrl: url, listId, listName: `${COLLEGE.name} announcements` } };
  }), { bulk: true });
  return list.length;
}

/** RFC 2919 List-Id of announcement mail: 'announcements.' + the site's host name ('announcements.apply.college.example'). */
export function announcementListId(origin: string): string {
  return `announcements.${new URL(origin).hostname}`;
}

async function notifyStudents(db: Db, a: Announcement): Promise<number> {
  const list = await studentContacts(db);
  await notifyMany(db, list.map((s) => ({ userId: s.id, message: `New announcement: ${a.title}` })));
  return list.length;
}

async function fanOut(db: Db, a: Announcement, input: Pick<Input, 'sendEmail' | 'sendNotification'>, links: MailLinks): Promise<AnnouncementResult> {
  const emailed = input.sendEmail ? await emailStudents(db, a, links) : 0;
  const notified = input.sendNotification ? await notifyStudents(db, a) : 0;
  return { announcement: a, emailed, notified };
}

/** Every announcement, inactive included, newest first (admin table). */
export function allAnnouncements(db: Db): Promise<Announcement[]> {
  return listAnnouncements(db, { includeInactive: true });
}

/**
 * Creates an announcement by `adminId` (spec §5 Announcement form) and, in the same transaction, queues an e-mail
 * (`sendEmail`) and/or a notification (`sendNotification`) for every student; returns it with both counts.
 * Throws 409 JUST_PUBLISHED when the same admin created the same title and content in the last REPEAT_WINDOW_S
 * seconds: a retried or doubled submit must not notify every student twice (audit finding). The check runs under a
 * lock on the admin's row, so parallel repeats publish once. (No Idempotency-Key: the external payments' keys are a
 * column of their own table, and announcements would need a migration for one.)
 */
export function createAnnouncement(db: Db, adminId: number, input: Input, links: MailLinks): Promise<AnnouncementResult> {
  return db.transaction(async (t) => {
    await lockUserRow(t, adminId);
    if (await hasRecentTwin(t, adminId, input.title, input.content, REPEAT_WINDOW_S)) throw conflict(JUST_PUBLISHED);
    const a = await insertAnnouncement(t, { title: input.title, content: input.content, imageUrl: input.imageUrl, active: input.active, createdBy: adminId });
    return fanOut(t, a, input, links);
  });
}

/**
 * Updates announcement `id` and fans out like createAnnouncement, in one transaction. With `expectedUpdatedAt` (the
 * `updatedAt` the form was opened on) an announcement changed since is left as it is, nothing is sent, and the answer
 * is `{conflict: {message: ANNOUNCEMENT_EDIT_CONFLICT, current}}` (lost update, audit finding). `active` left out
 * keeps the saved flag; e-mail or notification of an announcement that is then inactive throws 400 with
 * INACTIVE_EMAIL_MESSAGE / INACTIVE_NOTIFICATION_MESSAGE and saves nothing (security audit: a PUT without `active`
 * published a draft to every student). Throws 404 'Announcement not found'.
 */
export function editAnnouncement(db: Db, id: number, input: EditInput, links: MailLinks): Promise<AnnouncementEditResult> {
  return db.transaction(async (t): Promise<AnnouncementEditResult> => {
    const a = await updateAnnouncement(t, id, { title: input.title, content: input.content, imageUrl: input.imageUrl, active: input.active }, input.expectedUpdatedAt);
    if (!a) {
      const current = await findAnnouncement(t, id);
      if (!current) throw notFound(NOT_FOUND);
      return { conflict: { message: ANNOUNCEMENT_EDIT_CONFLICT, current } };
    }
    // `active` may have been left out (kept as it was): the rule of the contract's noMailWhenInactive, on the saved flag.
    if (!a.active && input.sendEmail) throw badRequest(INACTIVE_EMAIL_MESSAGE, { sendEmail: INACTIVE_EMAIL_MESSAGE });
    if (!a.active && input.sendNotification) throw badRequest(INACTIVE_NOTIFICATION_MESSAGE, { sendNotification: INACTIVE_NOTIFICATION_MESSAGE });
    return fanOut(t, a, input, links);
  });
}

/** Deletes announcement `id`. Throws 404 'Announcement not found'. */
export async function removeAnnouncement(db: Db, id: number): Promise<void> {
  if (!(await deleteAnnouncement(db, id))) throw notFound(NOT_FOUND);
}

/**
 * E-mails every student with a verified, not erased, not opted-out, not bounced address (mailableStudents) about
 * announcement `id`; returns how many mails were queued. Throws 404 'Announcement not found', and 400 with
 * INACTIVE_EMAIL_MESSAGE on `sendEmail` when the announcement is inactive (a draft is never mailed).
 */
export function emailAnnouncement(db: Db, id: number, links: MailLinks): Promise<number> {
  return db.transaction(async (t) => {
    const a = await findAnnouncement(t, id, { lock: true });
    if (!a) throw notFound(NOT_FOUND);
    if (!a.active) throw badRequest(INACTIVE_EMAIL_MESSAGE, { sendEmail: INACTIVE_EMAIL_MESSAGE });
    return emailStudents(t, a, links);
  });
}

/** How many students an announcement e-mail would be queued for right now (the same rule as the send: mailableStudents). */
export async function announcementRecipients(db: Db): Promise<number> {
  return countMailableStudents(db);
}
