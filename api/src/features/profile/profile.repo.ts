/**
 * Reads and writes for the profile slice. The export reads every table that holds data on one person
 * (POPIA access right, issue #4); it only reads other features' tables, never writes them.
 */
import { hasSubaddress, mailboxKey, mailboxLikePatterns, normalizeEmail } from '#contracts/mailbox.ts';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { and, eq, inArray, desc, like, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { users, erasureRequests, authTokens } from '../../db/schema/users.ts';
import { registrationDetails } from '../../db/schema/accounts.ts';
import { applications, applicationStatusHistory, applicationDrafts, uploads, payments, documentReviews } from '../../db/schema/applications.ts';
import { notifications, contactMessages, assessmentBookings, mailOutbox, smsOutbox, smsOptOuts } from '../../db/schema/messaging.ts';
import { externalStudents, externalPayments } from '../../db/schema/system.ts';
import { rateLimits } from '../../db/schema/rate-limits.ts';
import { toE164 } from '../../sms/sms-outbox.ts';

/** A full `users` row (includes the password hash). */
export type UserRow = typeof users.$inferSelect;

/**
 * Sets the given columns of user `id` (updatedAt now) and returns the row. With `expectedUpdatedAt` (ISO 8601) the
 * row is changed only while its updated_at is still that instant, else nothing is written and the answer is
 * undefined (as for a missing user): the check is in the UPDATE's WHERE, so of two saves made from the same version
 * exactly one succeeds. updated_at is compared truncated to milliseconds, as courses.repo.ts updateCourse does (the
 * column keeps microseconds, the API's ISO strings milliseconds).
 */
export async function updateUserRow(db: DbOrTx, id: number, values: PgUpdateSetSource<typeof users>, expectedUpdatedAt?: string): Promise<UserRow | undefined> {
  const sameVersion = expectedUpdatedAt === undefined ? undefined : sql`date_trunc('milliseconds', ${users.updatedAt}) = ${expectedUpdatedAt}::timestamptz`;
  const [row] = await db.update(users).set({ ...values, updatedAt: new Date() }).where(and(eq(users.id, id), sameVersion)).returning();
  return row as UserRow | undefined;
}

/** Number of applications of `userId` (any status): none means the account can be erased at once (POPIA §24). */
export async function countApplications(db: DbOrTx, userId: number): Promise<number> {
  const rows = await db.select({ id: applications.id }).from(applications).where(eq(applications.userId, userId));
  return rows.length;
}

/** Document-store keys of every upload of `userId` (deleted from the store before the rows, on erasure). */
export async function storedUploadNames(db: DbOrTx, userId: number): Promise<string[]> {
  const rows = await db.select({ storedName: uploads.storedName }).from(uploads).where(eq(uploads.userId, userId));
  return rows.map((r) => r.storedName);
}

/** Who an e-mail address belongs to for matching: the account, its address and whether the account proved it. */
type MailOwner = { id: number; email: string; emailVerifiedAt: Date | null };

/**
 * Ids of the rows of `table` (its address column: `email`, or `to` for mail_outbox) whose address reaches the same
 * mailbox as `owner.email` (mailboxKey: case, a '+tag', Gmail's dots; privacy audit F3: booking 2 under
 * name+booking@example.com was neither exported nor erased), except rows whose address is, compared trimmed and
 * case-insensitively, the own login address of another account that verified it: that address is that account's,
 * and so are its forms and mail (parentX@ and parentX+b@ are two accounts of one parent; a domain may not treat '+'
 * as a tag). An account that never proved its address takes nothing away (security review MEDIUM: registering
 * vic+c@example.com, unverified, hid verified vic@example.com's contact message sent as vic+c@ from vic's export and
 * erasure); the callers ask only for an owner that proved its own address. The owner's own address always counts.
 * An owner whose own address has a '+tag' (hasSubaddress) gets only rows under that exact address: proving
 * vic+x@corp.test proves nothing about vic@corp.test, so it must not export or erase vic@'s messages (security audit
 * 2026-11-28 F1: verified vic+x@ downloaded, then deleted, a contact message with an ID number sent as vic@).
 * A database pre-filter (mailboxLikePatterns), then the exact rule in code.
 */
async function idsInMailbox(db: DbOrTx, table: 'contact_messages' | 'assessment_bookings' | 'mail_outbox', owner: MailOwner): Promise<number[]> {
  const key = mailboxKey(owner.email);
  const patterns = mailboxLikePatterns(key);
  if (!patterns.length) return [];
  const inMailbox = (column: ReturnType<typeof sql.raw>) => sql.join(patterns.map((p) => sql`lower(trim(${column})) LIKE ${p}`), sql` OR `);
  const others = await db.execute(sql`SELECT email FROM users WHERE id <> ${owner.id} AND email_verified_at IS NOT NULL AND (${inMailbox(sql.raw('email'))})`);
  const own = normalizeEmail(owner.email);
  const taken = new Set((others as unknown as { rows: { email: string }[] }).rows.map((r) => normalizeEmail(r.email)).filter((e) => e !== own));
  const column = sql.raw(table === 'mail_outbox' ? '"to"' : 'email');
  const res = await db.execute(sql`SELECT id, ${column} AS address FROM ${sql.raw(table)} WHERE ${inMailbox(column)}`);
  const { rows } = res as unknown as { rows: { id: number; address: string }[] };
  const exactOnly = hasSubaddress(own);
  return rows.filter((r) => (exactOnly ? normalizeEmail(r.address) === own : mailboxKey(r.address) === key && !taken.has(normalizeEmail(r.address))))
    .map((r) => Number(r.id));
}

/**
 * Ids of the contact messages and assessment bookings filed under any address of the person's mailbox that no other
 * account owns (idsInMailbox) — none unless the account proved its address: an unverified account owns nothing that
 * someone else sent under the address it typed (issue #12 finding 1, ASVS 5.0 V8.2.2).
 */
async function formSubmissionIds(db: DbOrTx, user: MailOwner): Promise<{ contact: number[]; booking: number[] }> {
  if (!user.emailVerifiedAt) return { contact: [], booking: [] };
  return {
    contact: await idsInMailbox(db, 'contact_messages', user),
    booking: await idsInMailbox(db, 'assessment_bookings', user),
  };
}

/**
 * Ids of the mail_outbox rows addressed to the person: to the account's address (compared case-insensitively), and,
 * once the account proved that address, to any other address of the same mailbox that no other account owns (the
 * acknowledgement of a booking sent as name+booking@…; idsInMailbox). Mail to another account's address, sent or
 * pending, is never the person's.
 */
async function mailIdsTo(db: DbOrTx, user: MailOwner): Promise<number[]> {
  const exact = await db.select({ id: mailOutbox.id }).from(mailOutbox).where(sql`lower(${mailOutbox.to}) = lower(${user.email})`);
  const ids = new Set(exact.map((r) => r.id));
  if (user.emailVerifiedAt) for (const id of await idsInMailbox(db, 'mail_outbox', user)) ids.add(id);
  return [...ids].sort((a, b) => a - b);
}

/**
 * Deletes the form messages filed under the person's mailbox (contact messages, assessment bookings; formSubmissionIds:
 * a '+tag' or dotted-Gmail copy of the address too, and only when the account proved that address) and the office's
 * copies of them in mail_outbox. The office mail of a form is found by the subject contact.service /
 * assessment.service give it (it names the sender and survives delivery) and its created_at, which equals the form
 * row's (one transaction, now()). Used by account deletion and admin erasure.
 */
export async function deleteFormSubmissions(db: DbOrTx, user: MailOwner): Promise<void> {
  const { contact, booking } = await formSubmissionIds(db, user);
  // Compared in SQL: timestamps keep microseconds there, a JS Date only milliseconds.
  if (contact.length) {
    await db.execute(sql`DELETE FROM mail_outbox m USING contact_messages c WHERE c.id IN ${contact}
      AND m.subject = 'Website message from ' || c.first_name || ' ' || c.last_name AND m.created_at = c.created_at`);
    await db.delete(contactMessages).where(inArray(contactMessages.id, contact));
  }
  if (booking.length) {
    await db.execute(sql`DELETE FROM mail_outbox m USING assessment_bookings b WHERE b.id IN ${booking}
      AND m.subject = 'New assessment booking ASC-' || b.id || ': ' || (b.data->>'firstName') || ' ' || (b.data->>'lastName') AND m.created_at = b.created_at`);
    await db.delete(assessmentBookings).where(inArray(assessmentBookings.id, booking));
  }
}

/**
 * The numbers the person was texted on (sms_outbox rows of the account) and their profile number, as E.164, for
 * removing the file SMS driver's copies after an erasure or account deletion (removeOutboxFilesOf; privacy audit F8).
 */
export async function textedNumbers(db: DbOrTx, user: { id: number; phone: string | null }): Promise<string[]> {
  const texted = await db.selectDistinct({ to: smsOutbox.to }).from(smsOutbox).where(eq(smsOutbox.userId, user.id));
  return [...new Set([...texted.map((r) => r.to), toE164(user.phone)].filter((p): p is string => Boolean(p)))];
}

/**
 * Deletes the mail queued or sent to the person (any status; mailIdsTo: the account's address, and the other
 * addresses of its mailbox once the account proved it) and the SMS rows of the account (sms_outbox.user_id), so the
 * messages do not outlive the person (POPIA §24; audit LOW). Run it before queueing a last mail to the same address
 * in the same transaction, or that mail goes too.
 */
export async function deleteMessagesTo(db: DbOrTx, user: MailOwner & { id: number }): Promise<void> {
  const mail = await mailIdsTo(db, user);
  if (mail.length) await db.delete(mailOutbox).where(inArray(mailOutbox.id, mail));
  await db.delete(smsOutbox).where(eq(smsOutbox.userId, user.id));
}

/**
 * Deletes every rate-limit counter that names the address, which would otherwise outlive the person until pruned:
 * failed logins for the account and for the account from each IP (login-throttle.ts 'login-fail:acct:<e-mail>',
 * 'login-fail:acct-ip:<e-mail>|<ip>'), reset requests ('password-reset-email:email:<e-mail>', auth.routes.ts), the
 * contact form and assessment bookings ('contact:email:<mailbox>', 'assessment:email:<mailbox>', keyed by the mailbox
 * the address reaches, mailboxKey in public-forms.ts, and the older form under the address itself), and
 * the older 'login-account:acct:<e-mail>'.
 */
export async function deleteLoginCounters(db: DbOrTx, email: string): Promise<void> {
  const e = normalizeEmail(email);
  const literal = e.replace(/[\\%_]/g, (c) => `\\${c}`); // LIKE's own characters in an address match themselves
  const mailbox = mailboxKey(e);
  const exact = [`login-account:acct:${e}`, `login-fail:acct:${e}`, `password-reset-email:email:${e}`, `contact:email:${e}`, `assessment:email:${e}`, `contact:email:${mailbox}`, `assessment:email:${mailbox}`];
  await db.delete(rateLimits).where(or(inArray(rateLimits.key, exact), like(rateLimits.key, `login-fail:acct-ip:${literal}|%`)));
}

/**
 * Deletes the user row (cascading to tokens, resets, drafts, uploads, notifications), the form messages filed under
 * a verified address (deleteFormSubmissions), the mail and SMS sent to the person (deleteMessagesTo) and the
 * address's failed-login counter (deleteLoginCounters).
 */
export async function deleteUserRow(db: DbOrTx, user: { id: number; email: string; emailVerifiedAt: Date | null }): Promise<void> {
  await deleteFormSubmissions(db, user);
  await deleteMessagesTo(db, user);
  await deleteLoginCounters(db, user.email);
  await db.delete(users).where(eq(users.id, user.id));
}

/** The open erasure request of `userId`, if any (a second "Delete my account" does not file another). */
export async function openErasureRequest(db: DbOrTx, userId: number): Promise<{ id: number; createdAt: Date } | undefined> {
  const [row] = await db.select({ id: erasureRequests.id, createdAt: erasureRequests.createdAt }).from(erasureRequests)
    .where(and(eq(erasureRequests.userId, userId), eq(erasureRequests.status, 'open'))).limit(1);
  return row;
}

/**
 * Files an erasure request for `userId` (status open, for an admin to review; POPIA §24) and returns its id and time.
 */
export async function insertErasureRequest(db: DbOrTx, userId: number): Promise<{ id: number; createdAt: Date }> {
  const [row] = await db.insert(erasureRequests).values({ userId, reason: 'Requested by the account holder from the profile page' })
    .returning({ id: erasureRequests.id, createdAt: erasureRequests.createdAt });
  return row!;
}

/** What collectPersonalData returns: the rows held on one person by kind, as stored (dates as Date, amounts 'NNN.NN'). */
export interface PersonalData {
  registration: typeof registrationDetails.$inferSelect | null;
  applications: Omit<typeof applications.$inferSelect, 'notes'>[];
  applicationHistory: Pick<typeof applicationStatusHistory.$inferSelect, 'applicationId' | 'fromStatus' | 'toStatus' | 'createdAt'>[];
  applicationDrafts: (typeof applicationDrafts.$inferSelect)[];
  notifications: (typeof notifications.$inferSelect)[];
  uploads: ({ name: string } & Pick<typeof uploads.$inferSelect, 'id' | 'mime' | 'size' | 'createdAt'>)[];
  payments: Pick<typeof payments.$inferSelect, 'id' | 'applicationId' | 'method' | 'last4' | 'reference' | 'amount' | 'currency' | 'status' | 'createdAt'>[];
  contactMessages: (typeof contactMessages.$inferSelect)[];
  assessmentBookings: (typeof assessmentBookings.$inferSelect)[];
  erasureRequests: (typeof erasureRequests.$inferSelect)[];
  signIns: Pick<typeof authTokens.$inferSelect, 'createdAt' | 'expiresAt' | 'revokedAt'>[];
  /** Reviews of the documents of the person's applications, as their checklist history shows them (no reviewer). */
  documentReviews: Pick<typeof documentReviews.$inferSelect, 'applicationId' | 'slot' | 'status' | 'reason' | 'createdAt'>[];
  /** Mail queued or sent to the person (mailIdsTo): recipient, subject, status and times; never the body. */
  emails: Pick<typeof mailOutbox.$inferSelect, 'to' | 'subject' | 'status' | 'createdAt' | 'sentAt'>[];
  /** SMS queued or sent to the account: number (E.164), kind, text as kept, status and times. */
  smsMessages: Pick<typeof smsOutbox.$inferSelect, 'to' | 'kind' | 'body' | 'status' | 'createdAt' | 'sentAt'>[];
  /**
   * SMS opt-out state: `optedOutAt` users.sms_opt_out_at (turned off in the profile), `stoppedByReply` the
   * sms_opt_outs row of the account's number (it replied STOP; E.164 number, keyword, time) or null.
   */
  smsOptOut: { optedOutAt: Date | null; stoppedByReply: (typeof smsOptOuts.$inferSelect) | null };
  /** The student-administration system's record of the person once enrolled (external_students.user_id). */
  externalStudents: Omit<typeof externalStudents.$inferSelect, 'userId'>[];
  /** Payments recorded against those student records (no idempotency key, no admin id). */
  externalPayments: Omit<typeof externalPayments.$inferSelect, 'idempotencyKey' | 'createdBy'>[];
}

/**
 * Every row held on `user`, grouped by kind (POPIA §23 access request, issue #4): also the mail and SMS sent to them,
 * their document reviews, SMS opt-out state and the student-administration records (privacy audit F4). Internal
 * admin notes are left out (DESIGN §4); form messages (and mail to other addresses of the mailbox) are matched by the
 * mailbox the address reaches (mailboxKey), only once the account verified it (issue #12 finding 1).
 */
export async function collectPersonalData(db: DbOrTx, user: UserRow): Promise<PersonalData> {
  const apps = await db.select().from(applications).where(eq(applications.userId, user.id)).orderBy(applications.id);
  const appIds = apps.map((a) => a.id);
  const history = appIds.length
    ? await db.select({ applicationId: applicationStatusHistory.applicationId, fromStatus: applicationStatusHistory.fromStatus, toStatus: applicationStatusHistory.toStatus, createdAt: applicationStatusHistory.createdAt })
      .from(applicationStatusHistory).where(inArray(applicationStatusHistory.applicationId, appIds)).orderBy(applicationStatusHistory.id)
    : [];
  const [registration] = await db.select().from(registrationDetails).where(eq(registrationDetails.userId, user.id));
  const forms = await formSubmissionIds(db, user);
  const mailIds = await mailIdsTo(db, user);
  const phone = toE164(user.phone);
  const [stopped] = phone ? await db.select().from(smsOptOuts).where(eq(smsOptOuts.phone, phone)).limit(1) : [];
  const students = await db.select().from(externalStudents).where(eq(externalStudents.userId, user.id)).orderBy(externalStudents.id);
  const studentIds = students.map((r) => r.id);
  return {
    registration: registration ?? null,
    applications: apps.map(({ notes: _internal, ...a }) => a),
    applicationHistory: history,
    applicationDrafts: await db.select().from(applicationDrafts).where(eq(applicationDrafts.userId, user.id)),
    notifications: await db.select().from(notifications).where(eq(notifications.userId, user.id)).orderBy(desc(notifications.id)),
    uploads: await db.select({ id: uploads.id, name: uploads.originalName, mime: uploads.mime, size: uploads.size, createdAt: uploads.createdAt })
      .from(uploads).where(eq(uploads.userId, user.id)),
    payments: await db.select({ id: payments.id, applicationId: payments.applicationId, method: payments.method, last4: payments.last4, reference: payments.reference, amount: payments.amount, currency: payments.currency, status: payments.status, createdAt: payments.createdAt })
      .from(payments).where(eq(payments.userId, user.id)),
    contactMessages: forms.contact.length ? await db.select().from(contactMessages).where(inArray(contactMessages.id, forms.contact)).orderBy(contactMessages.id) : [],
    assessmentBookings: forms.booking.length ? await db.select().from(assessmentBookings).where(inArray(assessmentBookings.id, forms.booking)).orderBy(assessmentBookings.id) : [],
    erasureRequests: await db.select().from(erasureRequests).where(eq(erasureRequests.userId, user.id)),
    signIns: await db.select({ createdAt: authTokens.createdAt, expiresAt: authTokens.expiresAt, revokedAt: authTokens.revokedAt })
      .from(authTokens).where(eq(authTokens.userId, user.id)),
    documentReviews: appIds.length
      ? await db.select({ applicationId: documentReviews.applicationId, slot: documentReviews.slot, status: documentReviews.status, reason: documentReviews.reason, createdAt: documentReviews.createdAt })
        .from(documentReviews).where(inArray(documentReviews.applicationId, appIds)).orderBy(documentReviews.id)
      : [],
    emails: mailIds.length
      ? await db.select({ to: mailOutbox.to, subject: mailOutbox.subject, status: mailOutbox.status, createdAt: mailOutbox.createdAt, sentAt: mailOutbox.sentAt })
        .from(mailOutbox).where(inArray(mailOutbox.id, mailIds)).orderBy(mailOutbox.id)
      : [],
    smsMessages: await db.select({ to: smsOutbox.to, kind: smsOutbox.kind, body: smsOutbox.body, status: smsOutbox.status, createdAt: smsOutbox.createdAt, sentAt: smsOutbox.sentAt })
      .from(smsOutbox).where(eq(smsOutbox.userId, user.id)).orderBy(smsOutbox.id),
    smsOptOut: { optedOutAt: user.smsOptOutAt, stoppedByReply: stopped ?? null },
    externalStudents: students.map(({ userId: _own, ...r }) => r),
    externalPayments: studentIds.length
      ? (await db.select().from(externalPayments).where(inArray(externalPayments.studentId, studentIds)).orderBy(externalPayments.id))
        .map(({ idempotencyKey: _key, createdBy: _admin, ...r }) => r)
      : [],
  };
}

/** The NSC results kept with the registration details (issue #18); [] when none. */
export async function readNscResults(db: DbOrTx, userId: number): Promise<unknown[]> {
  const [row] = await db.select({ academicHistory: registrationDetails.academicHistory }).from(registrationDetails).where(eq(registrationDetails.userId, userId)).limit(1);
  const list = (row?.academicHistory as { nscResults?: unknown } | undefined)?.nscResults;
  return Array.isArray(list) ? list : [];
}

/** Replaces the NSC results, keeping the rest of the academic history; creates the row for a simple registration. */
export async function writeNscResults(db: DbOrTx, userId: number, nscResults: unknown[]): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select({ academicHistory: registrationDetails.academicHistory }).from(registrationDetails).where(eq(registrationDetails.userId, userId)).for('update').limit(1);
    const academicHistory = { ...((row?.academicHistory as object | undefined) ?? {}), nscResults };
    if (row) await tx.update(registrationDetails).set({ academicHistory }).where(eq(registrationDetails.userId, userId));
    else await tx.insert(registrationDetails).values({ userId, academicHistory });
  });
}
