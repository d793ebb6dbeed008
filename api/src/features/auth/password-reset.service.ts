/**
 * Forgotten passwords (issue #4; ASVS 6.4.x): `requestPasswordReset` answers nothing about whether the e-mail
 * exists; for a real account it stores the SHA-256 of a 32-byte random token (valid 1 hour, single use) and
 * queues the link by e-mail in the same transaction, which also counts the account's live links under a lock on
 * its users row, so parallel requests cannot pass the cap together. `confirmPasswordReset` spends the token atomically, sets the
 * new password, revokes every bearer token and deletes every session of that user.
 */
import crypto from 'node:crypto';
import type { Db } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { findUserByEmail, lockUserRow, setPasswordHash } from '../../auth/users-repo.ts';
import { countLiveResets, findLiveReset, insertReset, spendAllResets, spendReset } from './password-resets.repo.ts';
import { hashPassword } from '../../auth/password.ts';
import { sha256 } from '../../auth/tokens.ts';
import { endAllSessions } from '../../auth/session.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { siteOrigin } from '../../mail/links.ts';
import { greeting, withFooter } from '../../mail/messages.ts';
import { badRequest } from '../../http/errors.ts';

/** Link lifetime: 1 hour (issue #4). */
export const RESET_TTL_MS = 60 * 60_000;
/** At most this many live links per account, so the endpoint cannot be used to flood a mailbox. */
const MAX_LIVE_LINKS = 3;
export const INVALID_RESET_LINK = 'This reset link is invalid or has expired';

/**
 * The site origin used in e-mailed links (links.ts siteOrigin). Never taken from the request's Host header
 * (reset-link poisoning): PUBLIC_URL when set, else the address the server listens on.
 */
export { siteOrigin };

/**
 * Queues a reset link for `email` if an account exists and has fewer than MAX_LIVE_LINKS live links; otherwise does
 * nothing. Count, insert and mail are one transaction under the account's row lock: 15 parallel requests send 3 mails.
 * Never throws for unknown e-mails.
 */
export async function requestPasswordReset(db: Db, config: Config, email: string, now = new Date()): Promise<void> {
  const user = await findUserByEmail(db, email);
  if (!user) return;
  const token = crypto.randomBytes(32).toString('base64url');
  // The token travels in the fragment, which browsers never send to a server or put in a Referer.
  const link = `${siteOrigin(config)}/reset-password#token=${token}`;
  await db.transaction(async (tx) => {
    await lockUserRow(tx, user.id);
    if ((await countLiveResets(tx, user.id, now)) >= MAX_LIVE_LINKS) return;
    await insertReset(tx, { userId: user.id, tokenHash: sha256(token), expiresAt: new Date(now.getTime() + RESET_TTL_MS) });
    await enqueueMail(tx, {
      to: user.email,
      subject: 'Reset your password',
      text: withFooter(`${greeting(user.firstName)}\n\nSomeone asked to reset the password of your account. To choose a new password, open this link within 1 hour:\n\n${link}\n\nThe link works once. If you did not ask for this, ignore this e-mail: your password stays as it is.\n`, siteOrigin(config)),
    });
  });
}

/**
 * A staff-created account's first password (issue #18 point 6): the same single-use token as a reset, valid
 * `ttlMs` (default 7 days), e-mailed in the caller's transaction `tx` so account and mail commit together.
 * Returns the link so the caller can also send it by SMS in the same transaction; it must never reach a response
 * or a log.
 */
export async function queueSetPasswordLink(tx: Db, config: Config, user: { id: number; email: string; firstName: string }, ttlMs: number, now = new Date()): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  const link = `${siteOrigin(config)}/reset-password#token=${token}`;
  await insertReset(tx, { userId: user.id, tokenHash: sha256(token), expiresAt: new Date(now.getTime() + ttlMs) });
  const days = Math.round(ttlMs / (24 * 3600_000));
  await enqueueMail(tx, {
    to: user.email,
    subject: 'Set your password',
    text: withFooter(`${greeting(user.firstName)}

Our admissions office has created an account for you to follow your application online. To choose your password, open this link within ${days} days:

${link}

The link works once. Then log in with this e-mail address to see your application.
`, siteOrigin(config)),
  });
  return link;
}

/**
 * Spends every live reset and set-password link of `userId` (e-mailed and SMS) in the caller's transaction `tx`: a
 * password changed while signed in must not leave an older link able to change it again (security audit F5;
 * ASVS 5.0 V6.4). Used by profile.service.ts changePassword.
 */
export async function spendResetLinks(tx: Db, userId: number): Promise<void> {
  await spendAllResets(tx, userId);
}

/** Sets a new password with a reset token. Throws 400 {token: INVALID_RESET_LINK} for unknown, used or expired tokens. */
export async function confirmPasswordReset(db: Db, token: string, password: string): Promise<number> {
  const hash = sha256(token);
  const found = await findLiveReset(db, hash);
  if (found === undefined) throw badRequest(INVALID_RESET_LINK, { token: INVALID_RESET_LINK });
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const spent = await spendReset(tx, found);
    if (spent === undefined) throw badRequest(INVALID_RESET_LINK, { token: INVALID_RESET_LINK });
    const { userId } = spent;
    // An e-mailed link reached the account's mailbox, which proves the address (issue #12): a walk-in applicant's
    // e-mailed set-password link or a reset verifies the e-mail too. The walk-in SMS link proves only the phone
    // (security audit F3), so it sets the password and leaves the address unverified.
    await setPasswordHash(tx, userId, passwordHash, { emailProven: spent.channel === 'email' });
    await spendAllResets(tx, userId);
    await endAllSessions(tx, userId);
    return userId;
  });
}
