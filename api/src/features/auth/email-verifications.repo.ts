/**
 * email_verifications rows (issue #12 finding 1; ASVS 5.0 V8.2.2, V6.4.x): only the SHA-256 (hex) of a token is
 * stored, with the address it was sent to; a row is live while unused and unexpired. Times are Dates; the
 * lifetime is decided by email-verification.service.ts.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { emailVerifications, users } from '../../db/schema/users.ts';

/** How many live verification links `userId` has at `now`. */
export async function countLiveVerifications(db: DbOrTx, userId: number, now: Date): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(emailVerifications)
    .where(and(eq(emailVerifications.userId, userId), isNull(emailVerifications.usedAt), gt(emailVerifications.expiresAt, now)));
  return row?.n ?? 0;
}

/** Stores a link: the address it goes to, the token's SHA-256 (hex) and its expiry. */
export async function insertVerification(db: DbOrTx, row: { userId: number; email: string; tokenHash: string; expiresAt: Date }): Promise<void> {
  await db.insert(emailVerifications).values(row);
}

/**
 * Marks the live link with this token hash used at `now` and returns its {userId, email}, else undefined. The
 * conditional UPDATE … RETURNING spends the token atomically: two clicks cannot both succeed.
 */
export async function spendVerification(db: DbOrTx, tokenHash: string, now: Date): Promise<{ userId: number; email: string } | undefined> {
  const [spent] = await db.update(emailVerifications).set({ usedAt: now })
    .where(and(eq(emailVerifications.tokenHash, tokenHash), isNull(emailVerifications.usedAt), gt(emailVerifications.expiresAt, now)))
    .returning({ userId: emailVerifications.userId, email: emailVerifications.email });
  return spent;
}

/**
 * Sets `email_verified_at = now` on user `userId` if the account still has address `email`; returns true when it
 * did (false: the address changed since the link was sent). A mailbox that received the link takes mail, so an
 * earlier hard bounce (email_bounced_at) is cleared and announcements reach it again.
 */
export async function markEmailVerified(db: DbOrTx, userId: number, email: string, now: Date): Promise<boolean> {
  const rows = await db.update(users).set({ emailVerifiedAt: now, emailBouncedAt: null, updatedAt: now })
    .where(and(eq(users.id, userId), eq(users.email, email))).returning({ id: users.id });
  return rows.length > 0;
}

/** Marks every still-unused link of `userId` used at `now` (after one of them succeeded). */
export async function spendAllVerifications(db: DbOrTx, userId: number, now: Date): Promise<void> {
  await db.update(emailVerifications).set({ usedAt: now }).where(and(eq(emailVerifications.userId, userId), isNull(emailVerifications.usedAt)));
}
