/**
 * Writes of an admin's erasure decision (POPIA §24, features/erasure). Everything here runs inside the caller's
 * transaction; the request row is locked first (lockErasureRequest) so two admins cannot both decide one request.
 */
import crypto from 'node:crypto';
import { and, eq, inArray, isNotNull, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { users, erasureRequests, authTokens, passwordResets, emailVerifications } from '../../db/schema/users.ts';
import { registrationDetails } from '../../db/schema/accounts.ts';
import { applications, applicationDrafts, applicationStatusHistory, documentReviews, uploads, payments } from '../../db/schema/applications.ts';
import { notifications } from '../../db/schema/messaging.ts';

/** The request row, locked FOR UPDATE until the transaction ends; undefined when there is no such request. */
export async function lockErasureRequest(tx: DbOrTx, id: number): Promise<typeof erasureRequests.$inferSelect | undefined> {
  const [row] = await tx.select().from(erasureRequests).where(eq(erasureRequests.id, id)).for('update').limit(1);
  return row;
}

/**
 * Closes request `id` as done or declined (resolvedAt now; `decisionReason`, the admin's reason for declining, stored
 * beside the request's own `reason`, which this leaves as it is: a declined request keeps the person's words while
 * the account lives, and an erasure clears them with the rest of the person's data, eraseOwnRows) and returns it.
 */
export async function resolveErasureRequest(tx: DbOrTx, id: number, status: 'done' | 'declined', decisionReason?: string): Promise<typeof erasureRequests.$inferSelect> {
  const [row] = await tx.update(erasureRequests).set({ status, resolvedAt: new Date(), ...(decisionReason ? { decisionReason } : {}) })
    .where(eq(erasureRequests.id, id)).returning();
  return row!;
}

/** What an erased application keeps of the applicant's answers: a stub the admin view shows as "Erased applicant". */
export const ERASED_PERSONAL = { firstName: 'Erased', lastName: 'applicant' } as const;

/**
 * What a document review of an erased person's application keeps instead of its reason: the reason was admin free
 * text about the person ("Blurry scan of <name>'s ID <number>"; privacy audit F6), and the applicant has already
 * seen it. The decision (verified / rejected), slot, reviewer and time stay.
 */
export const ERASED_REVIEW_REASON = '(reason removed when the applicant\'s data was erased)';

/**
 * Deletes the person's own rows that the college need not keep — registration details (ID number, date of birth, NSC
 * results), drafts, notifications, uploads rows, bearer tokens, password-reset and e-mail-verification links — and
 * redacts their applications (redactApplications: answers → ERASED_PERSONAL, academic history {}, document references
 * {}, APS and eligibility cleared, admin notes null), the notes of their status history (null), the reasons of their document reviews
 * (ERASED_REVIEW_REASON) and payments (card last4 removed), and clears the person's own reason on each of their
 * erasure requests (null; done, declined or open alike): free text they wrote, which may name them or their
 * circumstances; an admin's reason for declining one of them is cleared too (null: staff free text about the
 * person, like a review reason; the students list then shows the request as declined, without a quoted reason). Course, status, dates, history, review decisions, payment amounts, methods, references
 * and statuses stay, and so do the erasure requests' existence, dates and statuses. Admin notes and
 * review reasons are free text that named and described the person (privacy audit F6), so the erasure mail's
 * "without your name or details" holds only once they are gone.
 */
export async function eraseOwnRows(tx: DbOrTx, userId: number): Promise<void> {
  await tx.delete(registrationDetails).where(eq(registrationDetails.userId, userId));
  await tx.delete(applicationDrafts).where(eq(applicationDrafts.userId, userId));
  await tx.delete(notifications).where(eq(notifications.userId, userId));
  await tx.delete(uploads).where(eq(uploads.userId, userId));
  await tx.delete(authTokens).where(eq(authTokens.userId, userId));
  await tx.delete(passwordResets).where(eq(passwordResets.userId, userId));
  await tx.delete(emailVerifications).where(eq(emailVerifications.userId, userId));
  const apps = await tx.select({ id: applications.id }).from(applications).where(eq(applications.userId, userId));
  await redactApplications(tx, apps.map((a) => a.id));
  await tx.update(payments).set({ last4: null }).where(eq(payments.userId, userId));
  await tx.update(erasureRequests).set({ reason: null }).where(and(eq(erasureRequests.userId, userId), isNotNull(erasureRequests.reason)));
  await tx.update(erasureRequests).set({ decisionReason: null }).where(and(eq(erasureRequests.userId, userId), isNotNull(erasureRequests.decisionReason)));
}

/**
 * Redacts applications `ids` as an erasure does (eraseOwnRows; also the retention of unsuccessful applications,
 * features/retention): answers → ERASED_PERSONAL, academic history {}, document references {} (the orphan-upload purge
 * then removes the files no other application or draft cites), APS, eligible and eligibility reasons (derived from
 * the NSC results in the academic history) null / null / [], admin notes null, updatedAt now; their status-history
 * notes null, their document-review reasons ERASED_REVIEW_REASON, their payments' card last4 null. Course, status,
 * dates, status history, review decisions (verified / rejected) and the payments' amount, method, reference and status
 * stay: what content/legal/privacy.md "How long we keep it" lists. Nothing for [].
 */
export async function redactApplications(tx: DbOrTx, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await tx.update(applications).set({ personal: { ...ERASED_PERSONAL }, academicHistory: {}, documents: {}, aps: null, eligible: null, eligibilityReasons: [], notes: null, updatedAt: new Date() })
    .where(inArray(applications.id, ids));
  await tx.update(applicationStatusHistory).set({ notes: null }).where(and(inArray(applicationStatusHistory.applicationId, ids), isNotNull(applicationStatusHistory.notes)));
  await tx.update(documentReviews).set({ reason: ERASED_REVIEW_REASON }).where(and(inArray(documentReviews.applicationId, ids), isNotNull(documentReviews.reason)));
  await tx.update(payments).set({ last4: null }).where(inArray(payments.applicationId, ids));
}

/** An argon2 verify of this never succeeds (not a PHC string: verifyPassword answers false), so nobody can sign in. */
export const UNUSABLE_PASSWORD_HASH = '!erased';

/**
 * SQL condition, over a users row in scope, true for a row an erasure anonymised before users.erased_at existed, or
 * that a node of an older release anonymised since (it does not set erased_at; migration 0029 is additive): its
 * address for that very id AND UNUSABLE_PASSWORD_HASH AND the erased name. An account that registered such an address
 * (possible before the address rule, #contracts/mailbox.ts reservedEmailProblem) has an argon2 hash, so never matches.
 * Migration 0029 backfills erased_at with the same rule.
 */
export const LEGACY_ERASED_SQL = `(email = 'erased-' || id || '@erased.invalid' and password_hash = '${UNUSABLE_PASSWORD_HASH}' and first_name = 'Erased' and last_name = 'applicant')`;

/**
 * Whether users row `u` is erased, as ERASED_SQL (erasure.service) tells it in SQL: erased_at set, or the exact row
 * LEGACY_ERASED_SQL describes (an erasure by a release before migration 0029). Used to send an erased account nothing.
 */
export function isErasedUser(u: { id: number; email: string; passwordHash: string; firstName: string; lastName: string; erasedAt: Date | null }): boolean {
  return u.erasedAt != null || (u.email === `erased-${u.id}@erased.invalid` && u.passwordHash === UNUSABLE_PASSWORD_HASH
    && u.firstName === 'Erased' && u.lastName === 'applicant');
}

/**
 * The address an erased account gets: erased-<id>@erased.invalid (RFC 6761 .invalid: never delivered, and no form
 * accepts it since the address rule), or, when another account already holds that address (registered before the
 * rule refused .invalid; the unique index would fail the whole erasure), erased-<id>-<12 hex random>@erased.invalid.
 */
export async function anonymisedEmail(tx: DbOrTx, userId: number): Promise<string> {
  const plain = `erased-${userId}@erased.invalid`;
  const [holder] = await tx.select({ id: users.id }).from(users).where(and(eq(users.email, plain), ne(users.id, userId))).limit(1);
  return holder ? `erased-${userId}-${crypto.randomBytes(6).toString('hex')}@erased.invalid` : plain;
}

/**
 * Replaces the person in the users row, which stays because applications and payments reference it (ON DELETE
 * CASCADE would take them along): name 'Erased applicant', e-mail anonymisedEmail (erased-<id>@erased.invalid, RFC
 * 6761), every other personal column null, an unusable password hash, erased_at now (the record that the account is
 * erased: restore --erasures-from reads it, never the address). The privacy-notice consent (time, version) stays as
 * the record of lawful processing until the erasure.
 */
export async function anonymiseUserRow(tx: DbOrTx, userId: number): Promise<void> {
  const now = new Date();
  await tx.update(users).set({
    email: await anonymisedEmail(tx, userId), passwordHash: UNUSABLE_PASSWORD_HASH, firstName: 'Erased', lastName: 'applicant',
    phone: null, dateOfBirth: null, nationality: null, idNumber: null, addressLine1: null, addressLine2: null, city: null, state: null,
    postalCode: null, country: null, emergencyContactName: null, emergencyContactPhone: null, emergencyContactRelation: null,
    emailVerifiedAt: null, smsOptOutAt: null, announcementMailOptOutAt: null, emailBouncedAt: null, updatedAt: now, erasedAt: now,
  }).where(eq(users.id, userId));
}
