/**
 * Sessions (DESIGN §4): express-session stored in PostgreSQL by connect-pg-simple, passport on top,
 * plus bearer-token auth. Cookie HttpOnly, SameSite=Lax, Secure behind HTTPS (ASVS 3.3.x).
 * Idle timeout: 30 min for admins, 2 h for students; absolute lifetime 12 h (30 days with rememberMe
 * for students). Exposes `sessionMiddleware()` and `endAllSessions()`.
 */
import session from 'express-session';
import connectPgSimple from 'connect-pg-simple';
import passport from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';
import type { RequestHandler, Request } from 'express';
import { sql } from 'drizzle-orm';
import type { Database, Db, DbOrTx } from '../db/client.ts';
import type { Config } from '../config.ts';
import { publicUrlIsHttps } from '../http/public-https.ts';
import { findUserByEmail, findUserById, toPublicUser } from './users-repo.ts';
import { verifyPassword, verifyDummy } from './password.ts';
import { revokeAllTokens, revokeTokenHash, tokenLogin } from './tokens.ts';

export const SESSION_COOKIE = 'college.sid';
export const IDLE_MS = { admin: 30 * 60_000, student: 2 * 3600_000 } as const;
export const ABSOLUTE_MS = 12 * 3600_000;
export const REMEMBER_MS = 30 * 24 * 3600_000;

declare module 'express-session' {
  interface SessionData { createdAt?: number; lastSeen?: number; remember?: boolean; role?: string; tokenHash?: string }
}

/** Absolute session lifetime for a login, in ms. Admins never get the remember-me extension. */
export function lifetimeFor(role: string, remember: boolean): number {
  return remember && role !== 'admin' ? REMEMBER_MS : ABSOLUTE_MS;
}

/**
 * A passport instance with the local strategy (e-mail + password; an unknown e-mail still spends one argon2
 * verify, ASVS 6.3.8) that stores only the user id in the session and loads the PublicUser from it per request.
 */
export function configurePassport(database: Database): passport.PassportStatic {
  const p = new passport.Passport() as unknown as passport.PassportStatic;
  p.use(new LocalStrategy({ usernameField: 'email', passwordField: 'password' }, async (email, password, done) => {
    try {
      const user = await findUserByEmail(database.db, email);
      if (!user) { await verifyDummy(password); return done(null, false); }
      const ok = await verifyPassword(user.passwordHash, password);
      return ok ? done(null, toPublicUser(user)) : done(null, false);
    } catch (err) { return done(err); }
  }));
  p.serializeUser((user: any, done) => done(null, user.id));
  p.deserializeUser(async (id: number, done) => {
    try {
      const user = await findUserById(database.db, id);
      done(null, user ? toPublicUser(user) : false);
    } catch (err) { done(err); }
  });
  return p;
}

/**
 * express-session with the PostgreSQL store (table `session`, pruned every 15 min): cookie SESSION_COOKIE, HttpOnly,
 * SameSite=Lax, Secure on https (always in production with an https: PUBLIC_URL, else when req.secure: http/public-https.ts), max age ABSOLUTE_MS (ms); not rolling (DESIGN §4 Identity, ASVS 5.0 V7.3), so a
 * read that changes nothing in the session writes nothing (no touch).
 */
export function sessionMiddleware(database: Database, config: Config): RequestHandler {
  if (!config.sessionSecret) throw new Error('No session secret: startServer resolves one (session-secret.ts) before the app is built');
  const PgStore = connectPgSimple(session);
  return session({
    name: SESSION_COOKIE,
    secret: config.sessionSecret,
    // disableTouch: the cookie is not rolling, so the store's touch only rewrote the same expiry on every request (one
    // write and commit per read); the idle limit is sessionTimeouts' lastSeen, saved at most once a minute.
    store: new PgStore({ pool: database.pool as any, tableName: 'session', createTableIfMissing: false, pruneSessionInterval: 15 * 60, disableTouch: true }),
    resave: false,
    saveUninitialized: false,
    rolling: false,
    // proxy left undefined: express-session then reads req.secure, which follows Express's trust proxy (TRUST_PROXY)
    // and httpsFromPublicUrl. `proxy: true` read X-Forwarded-Proto whoever sent it, and with secure: true it would not
    // set the cookie at all behind a proxy that sends none.
    cookie: { httpOnly: true, sameSite: 'lax', secure: publicUrlIsHttps(config) ? true : 'auto', maxAge: ABSOLUTE_MS },
  });
}

/** Idle limit of a login in ms: the role's (30 min admin, 2 h student), or the whole lifetime for a remembered student. */
export function idleFor(role: string, remember: boolean): number {
  return remember && role !== 'admin' ? lifetimeFor(role, true) : IDLE_MS[role === 'admin' ? 'admin' : 'student'];
}

/**
 * Ends sessions past their idle or absolute limit, before passport reads them (ASVS 5.0 V7.3.1, V7.3.2), and
 * revokes the bearer token of the same login with them, so the token the browser also sends cannot carry on.
 */
export function sessionTimeouts(database: Database): RequestHandler {
  return (req, _res, next) => {
    const s = req.session as any;
    if (!s || !s.passport?.user) return next();
    const now = Date.now();
    const role = s.role === 'admin' ? 'admin' : 'student';
    const absolute = lifetimeFor(role, Boolean(s.remember));
    const idle = idleFor(role, Boolean(s.remember));
    if ((s.createdAt && now - s.createdAt > absolute) || (s.lastSeen && now - s.lastSeen > idle)) {
      const linked: string | undefined = s.tokenHash;
      (linked ? revokeTokenHash(database.db, linked) : Promise.resolve())
        .then(() => req.session.regenerate((err) => next(err)), next);
      return;
    }
    // Touch at most once a minute so reads do not write on every request.
    if (!s.lastSeen || now - s.lastSeen > 60_000) s.lastSeen = now;
    next();
  };
}

/**
 * Bearer authorization (`Authorization: Bearer <token>`): sets req.user from a live token when no session user
 * exists. A token sent next to a session cookie (as the site's api-client does) is still checked and touched,
 * so its own idle clock runs while the person is active; an idle or expired token grants nothing.
 */
export function bearerAuth(database: Database): RequestHandler {
  return async (req, _res, next) => {
    const token = bearerToken(req);
    if (!token || token.length > 200) return next();
    try {
      const login = await tokenLogin(database.db, token);
      if (login && !req.user) {
        const user = await findUserById(database.db, login.userId);
        if (user) { (req as any).user = toPublicUser(user); (req as any).authVia = 'bearer'; }
      }
      next();
    } catch (err) { next(err); }
  };
}

/** Deletes one stored cookie session by id (the other half of a login ended through its token). */
export async function endSession(db: Db, sid: string): Promise<void> {
  await db.execute(sql`DELETE FROM "session" WHERE sid = ${sid}`);
}

/**
 * Ends every way `userId` is signed in: deletes each stored session and revokes each bearer token
 * (password reset, password change, "log out everywhere", erasure). Takes a drizzle handle so it can run
 * inside the caller's transaction.
 */
export async function endAllSessions(db: DbOrTx, userId: number): Promise<void> {
  await db.execute(sql`DELETE FROM "session" WHERE (sess->'passport'->>'user')::int = ${userId}`);
  await revokeAllTokens(db, userId);
}

/**
 * The token of an `Authorization: Bearer <token>` header (trimmed), or undefined when there is none (DESIGN §4). The
 * scheme name is matched in any case (RFC 9110 §11.1: `bearer` is the same scheme; a client sending it got a 401).
 */
export function bearerToken(req: Request): string | undefined {
  return /^bearer +(.*)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
}

/**
 * A readable, non-secret hint cookie ('1') that a signed-in session exists, so pages can skip the
 * current-user request for anonymous visitors (no round trip, no 401 in the console). It grants
 * nothing: the HttpOnly session cookie or a bearer token is still what authenticates.
 */
export const SIGNED_IN_COOKIE = 'college.signed_in';

/**
 * Sets SIGNED_IN_COOKIE='1' (readable by scripts, not HttpOnly) for `maxAgeMs` ms, the login's lifetime; Secure when
 * the request is HTTPS (req.secure, always true when PUBLIC_URL is https: — http/public-https.ts), like the session cookie.
 */
export function setSignedInHint(res: import('express').Response, maxAgeMs: number): void {
  res.cookie(SIGNED_IN_COOKIE, '1', { path: '/', sameSite: 'lax', secure: res.req.secure, maxAge: maxAgeMs, httpOnly: false });
}

/** Clears the session cookie and the signed-in hint (logout, password change, erasure). */
export function clearSessionCookies(res: import('express').Response): void {
  res.clearCookie(SESSION_COOKIE, { path: '/' });
  res.clearCookie(SIGNED_IN_COOKIE, { path: '/' });
}
