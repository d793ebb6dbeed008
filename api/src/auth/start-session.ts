/**
 * startSession: signs a user in on this request, for login, registration and a password change.
 */
import type { Request } from 'express';
import type { PublicUser } from '#contracts/auth.ts';
import type { AppDeps } from '../deps.ts';
import { idleFor, lifetimeFor, sessionEpochFor, setSignedInHint } from './session.ts';
import { issueToken, revokeTokenHash, sha256 } from './tokens.ts';

/** What a session stores besides passport's user id (read by sessionTimeouts in session.ts). */
interface SessionTimes { createdAt: number; lastSeen: number; remember: boolean; role: string; tokenHash: string; epoch: number }

/**
 * Logs `user` into a fresh session (passport regenerates the id: ASVS 7.2.4), stamps its creation time, role and
 * lifetime (ms; lifetimeFor: role and "remember me"), sets the readable signed-in hint cookie and returns a new
 * bearer token valid as long and linked to this session (a logout or timeout of either half ends both). A session
 * this browser already had is replaced whole: passport destroys its cookie half, and its bearer token is revoked here
 * (ASVS 5.0 V7.2.4; otherwise the replaced session's token lived on for up to 30 days). Both halves record the
 * user's login generation (sessionEpochFor: users.session_epoch), so a later endAllSessions or role change ends them
 * even if a request in flight writes the session back. Rejects when the session store fails.
 */
export async function startSession(req: Request, deps: Pick<AppDeps, 'database'>, user: PublicUser, remember: boolean): Promise<string> {
  const epoch = await sessionEpochFor(deps.database.db, user);
  const replaced = (req.session as Partial<SessionTimes> | undefined)?.tokenHash;
  if (replaced) await revokeTokenHash(deps.database.db, replaced);
  await new Promise<void>((resolve, reject) => req.logIn(user as Express.User, (err) => (err ? reject(err) : resolve())));
  const lifetime = lifetimeFor(user.role, remember);
  const token = await issueToken(deps.database.db, user.id, lifetime, { sessionId: req.sessionID, idleMs: idleFor(user.role, remember), epoch });
  // The cookie half remembers its token (by hash) so a logout or timeout of either half ends both.
  Object.assign(req.session, { createdAt: Date.now(), lastSeen: Date.now(), remember, role: user.role, tokenHash: sha256(token), epoch } satisfies SessionTimes);
  req.session.cookie.maxAge = lifetime;
  if (req.res) setSignedInHint(req.res, lifetime);
  return token;
}
