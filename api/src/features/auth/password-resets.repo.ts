/**
 * password_resets rows (issue #4; ASVS 6.4.x): only the SHA-256 of a token is stored; a row is live while
 * unused and unexpired. Times are Dates; lifetimes are decided by password-reset.service.ts.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { passwordResets } from '../../db/schema/users.ts';

/** How many live links `userId` has at `now`. */
export async function countLiveResets(db: DbOrTx, userId: number, now: Date): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(passwordResets)
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)));
  return row?.n ?? 0;
}

/** Where a link was sent: only 'email' proves the address when the link is used (security audit F3). */
export type ResetChannel = 'email' | 'sms';

/** Stores a link: the token's SHA-256 (hex), its expiry and where it was sent (`channel`, default 'email', always written). */
export async function insertReset(db: DbOrTx, row: { userId: number; tokenHash: string; expiresAt: Date; channel?: ResetChannel }): Promise<void> {
  await db.insert(passwordResets).values({ ...row, channel: row.channel ?? 'email' });
}

/** The id of the live link with this token hash, or undefined. */
export async function findLiveReset(db: DbOrTx, tokenHash: string): Promise<number | undefined> {
  const [found] = await db.select({ id: passwordResets.id }).from(passwordResets)
    .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date()))).limit(1);
  return found?.id;
}

/**
 * Marks link `id` used if it is still live and returns its user id and channel (null: not known), else undefined. The conditional
 * update makes the token single-use even when two requests race.
 */
export async function spendReset(db: DbOrTx, id: number): Promise<{ userId: number; channel: ResetChannel | null } | undefined> {
  const [spent] = await db.update(passwordResets).set({ usedAt: new Date() })
    .where(and(eq(passwordResets.id, id), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date())))
    .returning({ userId: passwordResets.userId, channel: passwordResets.channel });
  return spent;
}

/** Marks every other unused link of the user used (after a successful reset). */
export async function spendAllResets(db: DbOrTx, userId: number): Promise<void> {
  await db.update(passwordResets).set({ usedAt: new Date() }).where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}
