/**
 * E-mail verification (issue #12 finding 1; ASVS 5.0 V8.2.2, V6.4.x token rules): a new account is sent a
 * single-use link, valid 24 h, whose 32-byte random token is stored only as SHA-256 together with the
 * address it was sent to. Until the owner opens it, `users.email_verified_at` stays null and nothing anyone
 * filed under that address (contact messages, assessment bookings) is linked to the account. Links are built
 * from PUBLIC_URL (never the request's Host header, which would let an attacker point the link at their
 * own site) and carry the token in the fragment, which browsers never send to a server or a Referer.
 */
import crypto from 'node:crypto';
import type { Db } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { countLiveVerifications, insertVerification, markEmailVerified, spendAllVerifications, spendVerification } from './email-verifications.repo.ts';
import { sha256 } from '../../auth/tokens.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { badRequest } from '../../http/errors.ts';
import { INVALID_VERIFICATION_LINK } from '#contracts/auth.ts';
import { siteOrigin } from '../../mail/links.ts';
import { withFooter } from '../../mail/messages.ts';
import { lockUserRow } from '../../auth/users-repo.ts';

/** Link lifetime: 24 hours (issue #12). */
export const VERIFY_TTL_MS = 24 * 3600_000;
/** At most this many live links per account: resending cannot flood a mailbox. */
export const MAX_LIVE_VERIFY_LINKS = 3;

/**
 * Queues a verification link for `user`'s current address. Returns false (and sends nothing) when the account is
 * already verified or already has MAX_LIVE_VERIFY_LINKS unexpired, unused links. Count, insert and mail are one
 * transaction under the account's row lock (lockUserRow), so parallel resends cannot pass the cap together.
 */
export async function sendEmailVerification(db: Db, config: Config, user: { id: number; email: string; emailVerifiedAt?: Date | null }, now = new Date()): Promise<boolean> {
  if (user.emailVerifiedAt) return false;
  return db.transaction(async (tx) => {
    await lockUserRow(tx, user.id);
    if (await countLiveVerifications(tx, user.id, now) >= MAX_LIVE_VERIFY_LINKS) return false;
    await queueVerificationLink(tx, config, user, now);
    return true;
  });
}

/**
 * Stores a new verification token for `user` and queues its link, in the caller's transaction `tx`: registration
 * passes the transaction that creates the account, so the account never exists without its mail (audit L finding F).
 * A brand-new account has no links yet, so no cap is checked. Rejects on database errors.
 */
export async function queueVerificationLink(tx: Db, config: Config, user: { id: number; email: string }, now = new Date()): Promise<void> {
  const token = crypto.randomBytes(32).toString('base64url');
  const link = `${siteOrigin(config)}/verify-email#token=${token}`;
  await insertVerification(tx, { userId: user.id, email: user.email, tokenHash: sha256(token), expiresAt: new Date(now.getTime() + VERIFY_TTL_MS) });
  await enqueueMail(tx, {
    to: user.email,
    subject: 'Please confirm your e-mail address',
    text: withFooter(`Hello,\n\nAn account was created at our student portal with this e-mail address. To confirm that the address is yours, open this link within 24 hours:\n\n${link}\n\nThe link works once. If you did not create this account, you can ignore this e-mail.\n`, siteOrigin(config)),
  });
}

/**
 * Spends a verification token: marks the account verified when the token is live and the account still has
 * the address the link was sent to. Returns the user id. Throws 400 {token: INVALID_VERIFICATION_LINK} otherwise.
 */
export async function confirmEmailVerification(db: Db, token: string, now = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    const spent = await spendVerification(tx, sha256(token), now); // single-use even when two clicks race
    if (!spent) throw badRequest(INVALID_VERIFICATION_LINK, { token: INVALID_VERIFICATION_LINK });
    if (!await markEmailVerified(tx, spent.userId, spent.email, now)) throw badRequest(INVALID_VERIFICATION_LINK, { token: INVALID_VERIFICATION_LINK });
    // The other links of this account are no longer needed.
    await spendAllVerifications(tx, spent.userId, now);
    return spent.userId;
  });
}
