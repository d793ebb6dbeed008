/**
 * Opaque bearer tokens (DESIGN §4): 32 random bytes, base64url to the client, SHA-256 stored.
 * Each token is one half of a login; the other half is the cookie session (`sessionId`). A token has the
 * role's limits (ASVS 5.0 V7.3.1 idle, V7.3.2 absolute): it expires at `expiresAt` and after `idleMs`
 * without use, and revoking it (logout) also names the session to end (V7.4.1).
 */
import crypto from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { authTokens } from '../db/schema/users.ts';

/** SHA-256 of `s` (UTF-8) as 64 lower-case hex characters: how tokens are stored (ASVS 6.4.x, never the clear token). */
export const sha256 = (s: string): string => crypto.createHash('sha256').update(s).digest('hex');

/** How often a token's last use is written (ms): reads do not write on every request. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Creates a token for `userId` valid for `ttlMs` milliseconds, idle-limited to `link.idleMs`, linked to the
 * cookie session `link.sessionId` of the same login, recording the login generation `link.epoch` (users.session_epoch
 * at login; bearerAuth refuses the token once it is raised). Returns the clear token (shown once).
 */
export async function issueToken(db: DbOrTx, userId: number, ttlMs: number, link: { sessionId?: string; idleMs?: number; epoch?: number } = {}): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = new Date();
  await db.insert(authTokens).values({
    userId, tokenHash: sha256(token), expiresAt: new Date(now.getTime() + ttlMs),
    sessionId: link.sessionId ?? null, idleMs: link.idleMs ?? null, lastUsedAt: now, sessionEpoch: link.epoch ?? null,
  });
  return token;
}

/**
 * The live login a token belongs to — `{ userId, sessionId, epoch }` (epoch: users.session_epoch at issue, null for a
 * token from before migration 0032) — or null when it is unknown, revoked, past its
 * absolute expiry or idle for longer than its `idleMs` (an idle token is revoked on the spot). Touches the
 * token's last use at most once a minute, unless `activity` is false (a background poll, session.ts isBackground).
 */
export async function tokenLogin(db: DbOrTx, token: string, now = Date.now(), activity = true): Promise<{ userId: number; sessionId: string | null; epoch: number | null } | null> {
  const hash = sha256(token);
  const [row] = await db.select().from(authTokens).where(and(eq(authTokens.tokenHash, hash), isNull(authTokens.revokedAt))).limit(1);
  if (!row || row.expiresAt.getTime() <= now) return null;
  const lastUsed = (row.lastUsedAt ?? row.createdAt).getTime();
  if (row.idleMs != null && now - lastUsed > row.idleMs) {
    await revokeTokenHash(db, hash);
    return null;
  }
  if (activity && now - lastUsed > TOUCH_EVERY_MS) await db.update(authTokens).set({ lastUsedAt: new Date(now) }).where(eq(authTokens.id, row.id));
  return { userId: row.userId, sessionId: row.sessionId, epoch: row.sessionEpoch };
}

/** The user id a live token belongs to, or null (see tokenLogin). */
export async function userIdForToken(db: DbOrTx, token: string): Promise<number | null> {
  return (await tokenLogin(db, token))?.userId ?? null;
}

/** Revokes one token; returns the cookie session id of the same login (to end it too), if any. */
export async function revokeToken(db: DbOrTx, token: string): Promise<string | null> {
  const rows = await db.update(authTokens).set({ revokedAt: new Date() }).where(eq(authTokens.tokenHash, sha256(token))).returning({ sessionId: authTokens.sessionId });
  return rows[0]?.sessionId ?? null;
}

/** Revokes the token whose SHA-256 is `hash` (the cookie half of a login keeps only the hash). */
export async function revokeTokenHash(db: DbOrTx, hash: string): Promise<void> {
  await db.update(authTokens).set({ revokedAt: new Date() }).where(and(eq(authTokens.tokenHash, hash), isNull(authTokens.revokedAt)));
}

/** Revokes every live bearer token of `userId` (password change, reset, log out everywhere; ASVS 5.0 V7.4.3). */
export async function revokeAllTokens(db: DbOrTx, userId: number): Promise<void> {
  await db.update(authTokens).set({ revokedAt: new Date() }).where(and(eq(authTokens.userId, userId), isNull(authTokens.revokedAt)));
}
