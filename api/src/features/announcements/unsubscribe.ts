/**
 * Announcement e-mail opt-out (POPIA s69 and CPA s11: a student may object to direct marketing at any time;
 * RFC 8058 one-click unsubscribe, required by Gmail and Yahoo from bulk senders since 2024).
 * Each announcement mail carries a per-recipient link `/api/mail/unsubscribe?token=<userId>.<mac>`; the mac is an
 * HMAC-SHA256 of the user id under a key derived from the session secret (like the altcha key, http/pow-gate.ts), so
 * no table is needed and the link does not expire (announcement mail is read days later). Rotating SESSION_SECRET
 * invalidates older links (the profile checkbox still works). The token is not a session and grants nothing else.
 */
import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';
import { absoluteLink } from '../../mail/links.ts';

/** Path of the unsubscribe endpoint (GET: confirmation page, POST: one-click opt-out). */
export const UNSUBSCRIBE_PATH = '/api/mail/unsubscribe';

/** The key for unsubscribe tokens: derived from the session secret, never the secret itself. Throws on an empty secret. */
function tokenKey(secret: string): Buffer {
  if (!secret) throw new Error('unsubscribe tokens need the session secret');
  return crypto.createHmac('sha256', secret).update('announcement-unsubscribe-v1').digest();
}

const mac = (secret: string, userId: number): string => crypto.createHmac('sha256', tokenKey(secret)).update(`user:${userId}`).digest('base64url');

/** The unsubscribe token of user `userId`: '<id>.<43 base64url chars>' (HMAC-SHA256, 256 bits). */
export function unsubscribeToken(secret: string, userId: number): string {
  return `${userId}.${mac(secret, userId)}`;
}

/** The user id a token names, or null when it is malformed or its mac does not match (compared in constant time). */
export function userIdFromToken(secret: string, token: unknown): number | null {
  if (typeof token !== 'string' || token.length > 80) return null;
  const m = /^([1-9]\d{0,9})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const id = Number(m[1]);
  const want = Buffer.from(mac(secret, id));
  const given = Buffer.from(m[2]!);
  return given.length === want.length && crypto.timingSafeEqual(given, want) ? id : null;
}

/** The absolute unsubscribe link of `userId` for mail footers and List-Unsubscribe (`origin`: siteOrigin). */
export function unsubscribeUrl(origin: string, secret: string, userId: number): string {
  return absoluteLink(origin, `${UNSUBSCRIBE_PATH}?token=${unsubscribeToken(secret, userId)}`);
}

/**
 * Turns announcement e-mail off for `userId` (keeps the first opt-out time when repeated). Resolves true when the
 * user exists. Transactional mail (resets, verification, application status, receipts) is not affected.
 */
export async function optOutOfAnnouncements(db: DbOrTx, userId: number): Promise<boolean> {
  const rows = await db.update(users).set({ announcementMailOptOutAt: sql`coalesce(${users.announcementMailOptOutAt}, now())` })
    .where(eq(users.id, userId)).returning({ id: users.id });
  return rows.length > 0;
}
