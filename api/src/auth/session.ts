/**
 * Sessions (DESIGN §4): express-session stored in PostgreSQL by connect-pg-simple, passport on top,
 * plus bearer-token auth. Cookie HttpOnly, SameSite=Lax, Secure behind HTTPS (ASVS 3.3.x).
 * Idle timeout: 30 min for admins, 2 h for students; absolute lifetime 12 h (30 days with rememberMe
 * for students). Exposes `sessionMiddleware()` and `endAllSessions()`.
 *
 * Ended logins stay ended (security audit HIGH, 2026-11-28): a session loaded from the store is only ever UPDATEd
 * back, never re-inserted (UpdateOnlyStore), the once-a-minute lastSeen touch is an UPDATE of the row rather than a
 * change to the in-memory session (so a read neither saves the session nor sends Set-Cookie), and every login records
 * users.session_epoch, which endAllSessions and role changes raise: an older cookie session or bearer token is refused.
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
import { findUserByEmail, findUserById, toPublicUser, type UserRow } from './users-repo.ts';
import { verifyPassword, verifyDummy } from './password.ts';
import { revokeAllTokens, revokeTokenHash, sha256, tokenLogin } from './tokens.ts';
import { users } from '../db/schema/users.ts';
import { eq } from 'drizzle-orm';
import { BACKGROUND_HEADER, IDLE_LIMIT_MS, idleServerTiming } from '#contracts/session-idle.ts';

export const SESSION_COOKIE = 'college.sid';
/** Idle limits by role in ms (one definition: api/contracts/session-idle.ts, which the admin pages' warning reads too). */
export const IDLE_MS = IDLE_LIMIT_MS;
export const ABSOLUTE_MS = 12 * 3600_000;
export const REMEMBER_MS = 30 * 24 * 3600_000;

declare module 'express-session' {
  interface SessionData { createdAt?: number; lastSeen?: number; remember?: boolean; role?: string; tokenHash?: string; epoch?: number }
}

/** users.session_epoch of each user the local strategy just authenticated, read with the password hash it checked. */
const epochAtAuth = new WeakMap<object, number>();

/**
 * The login generation (users.session_epoch) to record on a new login of `user`: the value read together with the
 * password hash the local strategy verified (so a password change or promotion committed between that check and the
 * login still ends it), else the row's current value (registration, a password change's fresh session). 0 for a
 * missing row. One SELECT when not known.
 */
export async function sessionEpochFor(db: DbOrTx, user: { id: number }): Promise<number> {
  const known = epochAtAuth.get(user);
  if (known !== undefined) return known;
  const [row] = await db.select({ epoch: users.sessionEpoch }).from(users).where(eq(users.id, user.id)).limit(1);
  return row?.epoch ?? 0;
}

/**
 * Whether a login that recorded generation `epoch` (undefined or null: made before migration 0032, counts as 0) and,
 * for a cookie session, role `role` may still act as `user`: its epoch must equal users.session_epoch (raised by
 * endAllSessions and promoteToAdmin), and a recorded role must be the row's current one (a role changed any other way
 * ends the login too, so the idle limits sessionTimeouts picks by role are the current role's).
 */
export function loginStillValid(user: Pick<UserRow, 'sessionEpoch' | 'role'>, epoch: number | null | undefined, role?: string): boolean {
  return (epoch ?? 0) === user.sessionEpoch && (role === undefined || role === user.role);
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
      if (!ok) return done(null, false);
      const publicUser = toPublicUser(user);
      epochAtAuth.set(publicUser, user.sessionEpoch);
      return done(null, publicUser);
    } catch (err) { return done(err); }
  }));
  p.serializeUser((user: any, done) => done(null, user.id));
  // The row is read once per request anyway (the PublicUser, with the current role); the epoch and role checks are
  // comparisons on it. A refused session is treated as signed out (passport drops its user).
  p.deserializeUser(async (req: Request, id: number, done: (err: unknown, user?: Express.User | false) => void) => {
    try {
      const user = await findUserById(database.db, id);
      const s = req.session as Partial<{ epoch: number; role: string }> | undefined;
      done(null, user && loginStillValid(user, s?.epoch, s?.role) ? toPublicUser(user) : false);
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
  const PgStore = updateOnlyStore(connectPgSimple(session));
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

/**
 * connect-pg-simple's store, except that a session loaded from the table (express-session builds it with
 * `createSession`) or already inserted by this request is saved with `UPDATE … WHERE sid = $1` only: its set is an
 * upsert, so a request in flight across a logout, "log out everywhere" or a password change wrote the deleted row
 * back (security audit HIGH, 2026-11-28). Only a new session (login's regenerate: `generate`, not `createSession`)
 * is inserted. The UPDATE keeps the later of the stored and the saved lastSeen (sessionTimeouts touches the row
 * directly). Errors reach express-session's callback as before.
 */
export function updateOnlyStore<S extends new (...args: any[]) => session.Store>(PgStore: S): S {
  const Base = PgStore as unknown as new (...args: any[]) => {
    createSession(req: any, sess: session.SessionData): session.Session & Partial<session.SessionData>;
    set(sid: string, sess: session.SessionData, fn?: (err?: unknown) => void): void;
    query(q: string, params: unknown[], fn: (err: Error | null) => void): void; quotedTable(): string;
  };
  class UpdateOnlyStore extends Base {
    /** Session objects whose row exists (loaded, or inserted once): their saves must not insert. */
    readonly #stored = new WeakSet<object>();

    override createSession(req: any, sess: session.SessionData): session.Session & Partial<session.SessionData> {
      const loaded = super.createSession(req, sess);
      this.#stored.add(loaded);
      return loaded;
    }

    override set(sid: string, sess: session.SessionData, fn?: (err?: unknown) => void): void {
      if (!this.#stored.has(sess)) {
        super.set(sid, sess, (err?: unknown) => { if (!err) this.#stored.add(sess); fn?.(err); });
        return;
      }
      const expires = sess.cookie?.expires ? new Date(sess.cookie.expires).getTime() : Date.now() + 86_400_000;
      this.query(
        `UPDATE ${this.quotedTable()} SET sess = ($1::jsonb || jsonb_strip_nulls(jsonb_build_object('lastSeen', ` +
        `greatest(($1::jsonb->>'lastSeen')::bigint, (sess::jsonb->>'lastSeen')::bigint))))::json, expire = to_timestamp($2) WHERE sid = $3`,
        [JSON.stringify(sess), Math.ceil(expires / 1000), sid],
        (err) => fn?.(err ?? undefined));
    }
  }
  return UpdateOnlyStore as unknown as S;
}

/** Idle limit of a login in ms: the role's (30 min admin, 2 h student), or the whole lifetime for a remembered student. */
export function idleFor(role: string, remember: boolean): number {
  return remember && role !== 'admin' ? lifetimeFor(role, true) : IDLE_MS[role === 'admin' ? 'admin' : 'student'];
}

/**
 * Ends sessions past their idle or absolute limit, before passport reads them (ASVS 5.0 V7.3.1, V7.3.2), and
 * revokes the bearer token of the same login with them, so the token the browser also sends cannot carry on.
 * Every /api request of a signed-in cookie session counts as activity, written at most once a minute, except one that
 * carries BACKGROUND_HEADER (a poll of a tab nobody has touched for a minute, api/contracts/session-idle.ts): before,
 * the admin dashboard's 10 s site-build poll kept a visible, unattended tab signed in until the 12 h absolute limit. A live session's answer carries `Server-Timing: idle;dur=<ms left>, idle-limit;dur=<limit ms>`
 * (idleServerTiming, api/contracts/session-idle.ts), from the lastSeen this request leaves: the admin pages warn
 * before the limit from it (WCAG 2.2.1 Timing Adjustable) without a copy of the limit or a request of their own.
 */
export function sessionTimeouts(database: Database): RequestHandler {
  return (req, res, next) => {
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
    // Touch at most once a minute so reads do not write on every request. The row is updated, not the session in
    // memory: a changed session is saved (and its cookie sent again) when the request ends, however long that takes.
    const touch = !s.lastSeen || (!isBackground(req) && now - s.lastSeen > 60_000);
    res.append('Server-Timing', idleServerTiming((touch ? now : s.lastSeen) + idle - now, idle));
    if (touch) {
      touchLastSeen(database.db, req.sessionID, now).then(() => next(), next);
      return;
    }
    next();
  };
}

/** True when the request says it is a poll of an unattended tab (BACKGROUND_HEADER: '1'), which is not activity. */
export const isBackground = (req: Request): boolean => req.get(BACKGROUND_HEADER) === '1';

/**
 * Sets lastSeen (ms since the epoch) in stored session `sid`, if it still exists (an UPDATE: an ended session stays
 * ended). One statement, at most once a minute per session (sessionTimeouts).
 */
export async function touchLastSeen(db: Db, sid: string, now: number): Promise<void> {
  await db.execute(sql`UPDATE "session" SET sess = jsonb_set(sess::jsonb, '{lastSeen}', to_jsonb(${now}::bigint))::json WHERE sid = ${sid}`);
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
      const login = await tokenLogin(database.db, token, Date.now(), !isBackground(req));
      if (login && !req.user) {
        const user = await findUserById(database.db, login.userId);
        // A token from before the user's sessions were last ended (or role changed) grants nothing, and is revoked.
        if (user && !loginStillValid(user, login.epoch)) await revokeTokenHash(database.db, sha256(token));
        else if (user) { (req as any).user = toPublicUser(user); (req as any).authVia = 'bearer'; }
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
 * Ends every way `userId` is signed in: raises users.session_epoch (so a session or token recorded before it is
 * refused, even if a request in flight writes its row back), deletes each stored session and revokes each bearer
 * token (password reset, password change, "log out everywhere", erasure, promotion). Takes a drizzle handle so it can
 * run inside the caller's transaction.
 */
export async function endAllSessions(db: DbOrTx, userId: number): Promise<void> {
  await db.update(users).set({ sessionEpoch: sql`${users.sessionEpoch} + 1` }).where(eq(users.id, userId));
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
