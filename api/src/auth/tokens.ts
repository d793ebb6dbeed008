/**
 * Opaque bearer tokens (DESIGN §4): 32 random bytes, base64url to the client, SHA-256 stored.
 * Revoked at logout; expire with the session's absolute lifetime.
 */
import crypto from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { authTokens } from '../db/schema/users.ts';

export const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

/** Creates a token for `userId` valid for `ttlMs` milliseconds. Returns the clear token (shown once). */
export async function issueToken(db: Db, userId: number, ttlMs: number): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  await db.insert(authTokens).values({ userId, tokenHash: sha256(token), expiresAt: new Date(Date.now() + ttlMs) });
  return token;
}

/** The user id a live token belongs to, or null. */
export async function userIdForToken(db: Db, token: string): Promise<number | null> {
  const rows = await db.select({ userId: authTokens.userId }).from(authTokens)
    .where(and(eq(authTokens.tokenHash, sha256(token)), isNull(authTokens.revokedAt), gt(authTokens.expiresAt, new Date())))
    .limit(1);
  return rows[0]?.userId ?? null;
}

export async function revokeToken(db: Db, token: string): Promise<void> {
  await db.update(authTokens).set({ revokedAt: new Date() }).where(eq(authTokens.tokenHash, sha256(token)));
}

export async function revokeAllTokens(db: Db, userId: number): Promise<void> {
  await db.update(authTokens).set({ revokedAt: new Date() }).where(and(eq(authTokens.userId, userId), isNull(authTokens.revokedAt)));
}
