/**
 * Forgotten passwords (issue #4; ASVS 6.4.x): `requestPasswordReset` answers nothing about whether the e-mail
 * exists; for a real account it stores the SHA-256 of a 32-byte random token (valid 1 hour, single use) and
 * queues the link by e-mail in the same transaction. `confirmPasswordReset` spends the token atomically, sets the
 * new password, revokes every bearer token and deletes every session of that user.
 */
import crypto from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { passwordResets, users } from '../../db/schema/users.ts';
import { findUserByEmail } from '../../auth/users-repo.ts';
import { hashPassword } from '../../auth/password.ts';
import { sha256 } from '../../auth/tokens.ts';
import { endAllSessions } from '../../auth/session.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { badRequest } from '../../http/errors.ts';

/** Link lifetime: 1 hour (issue #4). */
export const RESET_TTL_MS = 60 * 60_000;
/** At most this many live links per account, so the endpoint cannot be used to flood a mailbox. */
const MAX_LIVE_LINKS = 3;
export const INVALID_RESET_LINK = 'This reset link is invalid or has expired';

/**
 * The site origin used in e-mailed links. Never taken from the request's Host header (reset-link poisoning):
 * PUBLIC_URL when set, else the address the server listens on.
 */
export function siteOrigin(config: Config): string {
  if (config.PUBLIC_URL) return new URL(config.PUBLIC_URL).origin;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  return `http://${host}:${config.PORT}`;
}

/** Queues a reset link for `email` if an account exists; otherwise does nothing. Never throws for unknown e-mails. */
export async function requestPasswordReset(db: Db, config: Config, email: string, now = new Date()): Promise<void> {
  const user = await findUserByEmail(db, email);
  if (!user) return;
  const live = await db.select({ n: sql<number>`count(*)::int` }).from(passwordResets)
    .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)));
  if ((live[0]?.n ?? 0) >= MAX_LIVE_LINKS) return;
  const token = crypto.randomBytes(32).toString('base64url');
  // The token travels in the fragment, which browsers never send to a server or put in a Referer.
  const link = `${siteOrigin(config)}/reset-password#token=${token}`;
  await db.transaction(async (tx) => {
    await tx.insert(passwordResets).values({ userId: user.id, tokenHash: sha256(token), expiresAt: new Date(now.getTime() + RESET_TTL_MS) });
    await enqueueMail(tx as unknown as Db, {
      to: user.email,
      subject: 'Reset your password',
      text: `Dear ${user.firstName},\n\nSomeone asked to reset the password of your account. To choose a new password, open this link within 1 hour:\n\n${link}\n\nThe link works once. If you did not ask for this, ignore this e-mail: your password stays as it is.\n`,
    });
  });
}

/** Sets a new password with a reset token. Throws 400 {token: INVALID_RESET_LINK} for unknown, used or expired tokens. */
export async function confirmPasswordReset(db: Db, token: string, password: string): Promise<number> {
  const hash = sha256(token);
  const [found] = await db.select({ id: passwordResets.id }).from(passwordResets)
    .where(and(eq(passwordResets.tokenHash, hash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date()))).limit(1);
  if (!found) throw badRequest(INVALID_RESET_LINK, { token: INVALID_RESET_LINK });
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    // The conditional update makes the token single-use even when two requests race.
    const [spent] = await tx.update(passwordResets).set({ usedAt: new Date() })
      .where(and(eq(passwordResets.id, found.id), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date())))
      .returning({ userId: passwordResets.userId });
    if (!spent) throw badRequest(INVALID_RESET_LINK, { token: INVALID_RESET_LINK });
    const userId = spent.userId;
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
    await tx.update(passwordResets).set({ usedAt: new Date() }).where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
    await endAllSessions(tx as unknown as Db, userId);
    return userId;
  });
}
