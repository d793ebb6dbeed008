/**
 * Reads and writes for the profile slice. The export reads every table that holds data on one person
 * (POPIA access right, issue #4); it only reads other features' tables, never writes them.
 */
import { mailboxKey } from '../../http/public-forms.ts';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { and, eq, inArray, desc, like, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { users, erasureRequests, authTokens } from '../../db/schema/users.ts';
import { registrationDetails } from '../../db/schema/accounts.ts';
import { applications, applicationStatusHistory, applicationDrafts, uploads, payments } from '../../db/schema/applications.ts';
import { notifications, contactMessages, assessmentBookings, mailOutbox, smsOutbox } from '../../db/schema/messaging.ts';
import { rateLimits } from '../../db/schema/rate-limits.ts';

/** A full `users` row (includes the password hash). */
export type UserRow = typeof users.$inferSelect;

/** Sets the given columns of user `id` (updatedAt now) and returns the row. */
export async function updateUserRow(db: DbOrTx, id: number, values: PgUpdateSetSource<typeof users>): Promise<UserRow> {
  const [row] = await db.update(users).set({ ...values, updatedAt: new Date() }).where(eq(users.id, id)).returning();
  return row as UserRow;
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

/**
 * Deletes the form messages filed under the person's address (contact messages, assessment bookings) and the office's
 * copies of them in mail_outbox — only when the account proved that address. An unverified account owns nothing that
 * someone else sent under the address it typed (issue #12 finding 1, ASVS 5.0 V8.2.2). The office mail of a form is
 * found by the subject contact.service / assessment.service give it (it names the sender and survives delivery) and
 * its created_at, which equals the form row's (one transaction, now()). Used by account deletion and admin erasure.
 */
export async function deleteFormSubmissions(db: DbOrTx, user: { email: string; emailVerifiedAt: Date | null }): Promise<void> {
  if (!user.emailVerifiedAt) return;
  // Compared in SQL: timestamps keep microseconds there, a JS Date only milliseconds.
  await db.execute(sql`DELETE FROM mail_outbox m USING contact_messages c WHERE c.email = ${user.email}
    AND m.subject = 'Website message from ' || c.first_name || ' ' || c.last_name AND m.created_at = c.created_at`);
  await db.execute(sql`DELETE FROM mail_outbox m USING assessment_bookings b WHERE b.email = ${user.email}
    AND m.subject = 'New assessment booking ASC-' || b.id || ': ' || (b.data->>'firstName') || ' ' || (b.data->>'lastName') AND m.created_at = b.created_at`);
  await db.delete(contactMessages).where(eq(contactMessages.email, user.email));
  await db.delete(assessmentBookings).where(eq(assessmentBookings.email, user.email));
}

/**
 * Deletes the mail queued or sent to the person's address (any status; compared case-insensitively) and the SMS rows
 * of the account (sms_outbox.user_id), so the messages do not outlive the person (POPIA §24; audit LOW). Run it
 * before queueing a last mail to the same address in the same transaction, or that mail goes too.
 */
export async function deleteMessagesTo(db: DbOrTx, user: { id: number; email: string }): Promise<void> {
  await db.delete(mailOutbox).where(sql`lower(${mailOutbox.to}) = lower(${user.email})`);
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
  const e = email.trim().toLowerCase();
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
}

/**
 * Every row held on `user`, grouped by kind (POPIA §23 access request, issue #4). Internal admin notes are left out
 * (DESIGN §4); form messages filed under the address only once the account verified it (issue #12 finding 1).
 */
export async function collectPersonalData(db: DbOrTx, user: UserRow): Promise<PersonalData> {
  const apps = await db.select().from(applications).where(eq(applications.userId, user.id)).orderBy(applications.id);
  const appIds = apps.map((a) => a.id);
  const history = appIds.length
    ? await db.select({ applicationId: applicationStatusHistory.applicationId, fromStatus: applicationStatusHistory.fromStatus, toStatus: applicationStatusHistory.toStatus, createdAt: applicationStatusHistory.createdAt })
      .from(applicationStatusHistory).where(inArray(applicationStatusHistory.applicationId, appIds)).orderBy(applicationStatusHistory.id)
    : [];
  const [registration] = await db.select().from(registrationDetails).where(eq(registrationDetails.userId, user.id));
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
    // Form submissions are matched by e-mail only once the account proved that address (issue #12 finding 1).
    contactMessages: user.emailVerifiedAt ? await db.select().from(contactMessages).where(eq(contactMessages.email, user.email)) : [],
    assessmentBookings: user.emailVerifiedAt ? await db.select().from(assessmentBookings).where(eq(assessmentBookings.email, user.email)) : [],
    erasureRequests: await db.select().from(erasureRequests).where(eq(erasureRequests.userId, user.id)),
    signIns: await db.select({ createdAt: authTokens.createdAt, expiresAt: authTokens.expiresAt, revokedAt: authTokens.revokedAt })
      .from(authTokens).where(eq(authTokens.userId, user.id)),
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
