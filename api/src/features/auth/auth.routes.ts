/**
 * Auth routes, mounted at both /api/auth and /api/colfront/auth (spec §7, DESIGN §4):
 * POST /login {email,password,rememberMe?} → {user, token}; POST /logout; GET /me → {user};
 * POST /register (simple form) and POST /comprehensive-register (wizard) → 201 {user, token, courseId}, signed in;
 * POST /reset-password {email} → 200, the same answer, at once, whether or not the e-mail exists (the link is queued
 *   after the answer: after-answer.ts);
 * POST /reset-password/confirm {token,password,confirmPassword} → 200, every session of that user ended.
 * Login failures: generic 401 'Invalid email or password'; past the soft limits on failures (per IP, per account, per
 * account and IP) a login needs a proof-of-work (429 challenge_required), never a lock-out (login-throttle.ts; ASVS 6.3.1).
 */
import { Router, type Request, type Response, type NextFunction } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type passport from 'passport';
import type { AppDeps } from '../../deps.ts';
import { validate } from '../../http/validate.ts';
import { failureRateLimit, sharedRateLimit } from '../../http/rate-limit-store.ts';
import { HttpError, unauthorized } from '../../http/errors.ts';
import { LoginSchema, SimpleRegisterSchema, ComprehensiveRegisterSchema, ForgotPasswordSchema, ResetPasswordConfirmSchema, VerifyEmailSchema, type PublicUser } from '#contracts/auth.ts';
import { requireUser } from '../../http/guards.ts';
import { registrationGate, registrationTakenGate } from '../../http/pow-gate.ts';
import { loginThrottle, LOGIN_TOO_MANY } from './login-throttle.ts';
import { findUserById } from '../../auth/users-repo.ts';
import { sendEmailVerification, confirmEmailVerification, queueVerificationLink } from './email-verification.service.ts';
import { issueToken, revokeToken, revokeTokenHash, sha256 } from '../../auth/tokens.ts';
import { bearerToken, lifetimeFor, idleFor, endSession, setSignedInHint, clearSessionCookies } from '../../auth/session.ts';
import { startSession } from '../../auth/start-session.ts';
import { registerStudent, registerComprehensive } from './auth.service.ts';
import { requestPasswordReset, confirmPasswordReset } from './password-reset.service.ts';
import { afterAnswer } from './after-answer.ts';
import { endExternalLogin } from '../external/external.service.ts';
import { normalizeEmail } from '#contracts/mailbox.ts';

/** The options express-rate-limit passes to its handler that tooMany reads: the window (ms) and the key generator. */
interface RateLimitOptionsSeen { windowMs?: number; keyGenerator?: (req: Request, res: Response) => string | Promise<string> }

/** Rate-limit keys already logged, with the time (ms) their window ends: one log line per key per window. */
const limitLogged = new Map<string, number>();

/**
 * express-rate-limit `handler`: answers 429 `rate_limited` with `message`, and logs the first hit of each key in each
 * window (`options.windowMs`, default 15 min) as "[auth] rate limit: …" with the limiter's key, e-mail addresses in it
 * masked (maskEmail; ASVS 16.2.5), the route and the client IP (operations audit: hits were not logged at all).
 */
export function tooMany(message: string): (req: Request, res: Response, next: NextFunction, options?: RateLimitOptionsSeen) => Promise<void> {
  return async (req, res, next, options) => {
    try {
      const key = options?.keyGenerator ? String(await options.keyGenerator(req, res)) : String(req.ip ?? '');
      logLimitHit(req, key, message, options?.windowMs ?? 15 * 60_000);
    } catch { /* the log line is best effort; the 429 is what matters */ }
    next(new HttpError(429, 'rate_limited', message));
  };
}

/**
 * Logs the first hit of limiter key `key` in each window of `windowMs` ms as "[auth] rate limit: …", e-mail addresses
 * in the key masked (maskEmail; ASVS 16.2.5), with the route, the client IP and `what` (the refusal or what was done).
 */
export function logLimitHit(req: Request, key: string, what: string, windowMs: number): void {
  const now = Date.now();
  if ((limitLogged.get(key) ?? 0) > now) return;
  if (limitLogged.size >= 10_000) for (const [k, until] of limitLogged) if (until <= now) limitLogged.delete(k);
  limitLogged.set(key, now + windowMs);
  const shown = key.replace(/[^\s:]+@[^\s:]+/g, (email) => maskEmail(email));
  console.warn(`[auth] rate limit: ${req.method} ${req.baseUrl}${req.path} reached for ${shown} from ${req.ip} (${what}); further hits in this window are not logged`);
}

/**
 * Router at /api/auth and /api/colfront/auth (spec §7, DESIGN §4) with the routes listed above, using passport instance `pp` for the login.
 */
export function authRouter(deps: AppDeps, pp: passport.PassportStatic): Router {
  const r = Router();
  const db = deps.database.db;
  // Failed logins only; above the soft limits a proof-of-work instead of a lock-out (login-throttle.ts, audit L finding B).
  const throttle = loginThrottle(db, deps.config, tooMany(LOGIN_TOO_MANY));
  // Above a soft per-IP threshold registration asks for a proof-of-work instead of refusing (issue #12 finding 13).
  const registerLimit = registrationGate(db, deps.config);
  // Addresses that already have an account (409) are counted per IP too: past a few, the same proof (audit F5).
  const takenLimit = registrationTakenGate(db, deps.config);
  const withVerificationMail = (tx: typeof db, user: PublicUser) => queueVerificationLink(tx, deps.config, user);

  r.post('/login', throttle.gate, validate(LoginSchema), (req, res, next) => {
    pp.authenticate('local', { session: false }, async (err: unknown, user: PublicUser | false) => {
      try {
        if (err) return next(err);
        if (!user) {
          console.warn(`[auth] login failed for ${maskEmail(req.body.email)} from ${req.ip}`);
          await throttle.failed(req);
          return next(unauthorized('Invalid email or password'));
        }
        const token = await startSession(req, deps, user, Boolean(req.body.rememberMe));
        console.info(`[auth] login ok user ${user.id} (${user.role})`);
        res.json({ user, token });
      } catch (e) { next(e); }
    })(req, res, next);
  });

  r.post('/logout', async (req, res, next) => {
    try {
      // A logout through either half of a login (cookie or bearer token) ends both halves (ASVS 5.0 V7.4.1).
      const token = bearerToken(req);
      if (token) {
        const linkedSession = await revokeToken(deps.database.db, token);
        if (linkedSession && linkedSession !== req.sessionID) await endSession(deps.database.db, linkedSession);
      }
      const linkedToken = (req.session as any)?.tokenHash;
      if (linkedToken) await revokeTokenHash(deps.database.db, linkedToken);
      const hadUser = Boolean(req.user);
      // The external system's login lives in this session (spec §4 External login): end its remote token too.
      const external = req.session?.external;
      if (external) void endExternalLogin(deps.config, deps.database.db, external);
      if (req.session) {
        await new Promise<void>((resolve) => req.logout(() => resolve()));
        await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
      }
      clearSessionCookies(res);
      if (hadUser) console.info('[auth] logout');
      res.json({ ok: true });
    } catch (e) { next(e); }
  });

  r.get('/me', (req, res) => {
    if (!req.user) return res.status(401).json({ error: { code: 'unauthorized', message: 'Not signed in' } });
    res.json({ user: req.user });
  });

  r.post('/register', takenLimit.check, registerLimit, validate(SimpleRegisterSchema), async (req: Request, res: Response) => {
    const b = req.body;
    // The account and its verification mail commit together (audit L finding F).
    const user = await registerStudent(deps.database.db, { email: b.email, password: b.password, firstName: b.firstName, lastName: b.lastName, phone: b.phone }, withVerificationMail);
    const token = await startSession(req, deps, user, false);
    res.status(201).json({ user, token, courseId: b.courseId ?? null });
  }, takenLimit.count);

  r.post('/comprehensive-register', takenLimit.check, registerLimit, validate(ComprehensiveRegisterSchema), async (req: Request, res: Response) => {
    const b = req.body;
    const user = await registerComprehensive(deps.database.db, {
      email: b.email, password: b.password, firstName: b.firstName, lastName: b.lastName, phone: b.phone,
      dateOfBirth: b.dateOfBirth, nationality: b.nationality, idNumber: b.idNumber,
      addressLine1: b.addressLine1, addressLine2: b.addressLine2 || null, city: b.city, state: b.state, postalCode: b.postalCode, country: b.country,
      emergencyContactName: b.emergencyContactName, emergencyContactPhone: b.emergencyContactPhone, emergencyContactRelation: b.emergencyContactRelation,
      courseId: b.courseId, academicHistory: b.academicHistory,
    }, withVerificationMail);
    const token = await startSession(req, deps, user, false);
    console.info(`[auth] registered user ${user.id} (wizard)`);
    res.status(201).json({ user, token, courseId: b.courseId });
  }, takenLimit.count);

  // E-mail verification (issue #12 finding 1): confirming needs no sign-in (the link may be opened on another
  // device); resending is for the signed-in owner, at most 5 an hour, and at most 3 live links at a time.
  // Only rejected links count per IP (audit L finding A): a lab of 30 verifying from one address all pass.
  const verifyLimit = badTokenLimit(db, 'verify-email-fail:', VERIFY_FAILURES_PER_IP);
  r.post('/verify-email', verifyLimit.check, validate(VerifyEmailSchema), async (req: Request, res: Response) => {
    const userId = await confirmEmailVerification(deps.database.db, req.body.token);
    console.info(`[auth] e-mail verified for user ${userId}`);
    res.json({ ok: true, message: EMAIL_VERIFIED_MESSAGE });
  }, verifyLimit.count);

  const resendLimit = sharedRateLimit(db, 'verify-resend:', { windowMs: 60 * 60_000, limit: 5, standardHeaders: 'draft-8', legacyHeaders: false,
    keyGenerator: (req) => `user:${(req.user as PublicUser | undefined)?.id ?? ipKeyGenerator(req.ip ?? '')}`, handler: tooMany('Too many verification e-mails. Please try again later.') });
  r.post('/verify-email/resend', requireUser, resendLimit, async (req, res) => {
    const user = await findUserById(deps.database.db, (req.user as PublicUser).id);
    if (!user) throw unauthorized('Not signed in');
    if (user.emailVerifiedAt) return void res.json({ ok: true, sent: false, message: 'Your e-mail address is already verified.' });
    const sent = await sendEmailVerification(deps.database.db, deps.config, user);
    res.json({ ok: true, sent, message: sent ? `We sent a new verification link to ${user.email}.` : 'We already sent you several links. Please use the newest one in your inbox.' });
  });

  // Request and confirm have separate counters (audit L finding C). Requests are counted per e-mail address (the
  // mailbox is what needs protecting; MAX_LIVE_LINKS caps the mails) under a high per-IP flood ceiling.
  const resetTooMany = tooMany('Too many password reset requests. Please try again later.');
  const resetPerIp = sharedRateLimit(db, 'password-reset-ip:', { windowMs: RESET_REQUESTS_PER_IP.windowMs, limit: RESET_REQUESTS_PER_IP.limit, standardHeaders: 'draft-8', legacyHeaders: false,
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? ''), handler: resetTooMany });
  // Over the per-address limit the answer is the usual one and nothing is mailed (security audit F2): a 429 here would
  // let anyone, from any address, stop the owner asking for a link.
  const resetPerEmail = sharedRateLimit(db, 'password-reset-email:', { windowMs: RESET_REQUESTS_PER_EMAIL.windowMs, limit: RESET_REQUESTS_PER_EMAIL.limit, standardHeaders: false, legacyHeaders: false,
    keyGenerator: (req) => `email:${normalizeEmail(req.body?.email)}`,
    handler: (req, res) => {
      logLimitHit(req, `password-reset-email:${normalizeEmail(req.body?.email)}`, 'answered as usual, nothing mailed', RESET_REQUESTS_PER_EMAIL.windowMs);
      res.json({ ok: true, message: RESET_SENT_MESSAGE });
    } });
  // Only rejected links count per IP: 30 learners completing a reset from one address all pass.
  const confirmLimit = badTokenLimit(db, 'password-reset-fail:', RESET_CONFIRM_FAILURES_PER_IP);

  // The answer goes first, the same for every address; the lookup, token and outbox row follow (after-answer.ts):
  // waiting for them told which addresses have an account by the time taken (security audit F3).
  r.post('/reset-password', resetPerIp, validate(ForgotPasswordSchema), resetPerEmail, (req, res) => {
    const email: string = req.body.email;
    res.json({ ok: true, message: RESET_SENT_MESSAGE });
    afterAnswer(`password reset request for ${maskEmail(email)}`, () => requestPasswordReset(deps.database.db, deps.config, email));
  });

  r.post('/reset-password/confirm', confirmLimit.check, validate(ResetPasswordConfirmSchema), async (req: Request, res: Response) => {
    const userId = await confirmPasswordReset(deps.database.db, req.body.token, req.body.password);
    console.info(`[auth] password reset for user ${userId}; all sessions ended`);
    // The owner's way back in after strangers' guesses hit the account's hard ceiling (security audit F1).
    const owner = await findUserById(deps.database.db, userId);
    if (owner) await throttle.clearAccount(owner.email);
    // The person may be signed in on this very browser: that session ended too.
    if (req.session) await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
    clearSessionCookies(res);
    res.json({ ok: true });
  }, confirmLimit.count);

  return r;
}

/** Shown on /verify-email after a good link. */
export const EMAIL_VERIFIED_MESSAGE = 'Thank you — your e-mail address is verified.';

/** A limit: `limit` per key per `windowMs` milliseconds. */
export interface Limit { limit: number; windowMs: number }

/**
 * Rejected e-mail verification links per client IP per 15 minutes (ASVS 5.0 V2.2.1 anti-automation). Only rejected
 * links count: many people share one address (a school lab of 30, a mobile carrier's NAT) and each opens a good link
 * once; a 32-byte token cannot be guessed, so this only caps noise.
 */
export const VERIFY_FAILURES_PER_IP: Limit = { limit: 20, windowMs: 15 * 60_000 };
/**
 * Rejected password-reset links (confirm) per client IP per 15 minutes (ASVS 5.0 V2.2.1). Only rejected links count,
 * for the same reason as VERIFY_FAILURES_PER_IP: shared addresses must not stop learners finishing their resets.
 */
export const RESET_CONFIRM_FAILURES_PER_IP: Limit = { limit: 20, windowMs: 15 * 60_000 };
/**
 * Reset requests per e-mail address per 15 minutes (ASVS 5.0 V2.2.1): keyed on the address asked for, not the
 * client IP, because a lab or a mobile NAT shares one IP; at most MAX_LIVE_LINKS (3) mails go out anyway. Past it the
 * request is answered as usual (200 RESET_SENT_MESSAGE) and nothing is mailed, so nobody can stop the owner asking
 * (security audit F2); only RESET_REQUESTS_PER_IP answers 429.
 */
export const RESET_REQUESTS_PER_EMAIL: Limit = { limit: 20, windowMs: 15 * 60_000 };
/**
 * Reset requests per client IP per 15 minutes (ASVS 5.0 V2.2.1): only a flood ceiling, far above what a school lab
 * or a mobile carrier's shared address sends (30 learners in a lesson).
 */
export const RESET_REQUESTS_PER_IP: Limit = { limit: 300, windowMs: 15 * 60_000 };


/** True for a rejected token: a 400 whose fields name `token` (a bad or spent link, not a weak new password). */
function rejectedToken(err: unknown): boolean {
  return err instanceof HttpError && err.status === 400 && Boolean(err.fields?.token);
}

/** A per-IP limiter for an unauthenticated token endpoint that counts only rejected tokens (failureRateLimit). */
function badTokenLimit(db: AppDeps['database']['db'], prefix: string, { limit, windowMs }: Limit) {
  return failureRateLimit(db, prefix, { windowMs, limit, keyGenerator: (req) => ipKeyGenerator(req.ip ?? ''),
    isFailure: rejectedToken, handler: tooMany('Too many attempts. Please try again later.') });
}

/** The one answer to a reset request, whether or not the e-mail has an account. */
export const RESET_SENT_MESSAGE = 'If an account exists for that e-mail address, we have sent a link to reset the password. The link is valid for 1 hour.';

/** 'thabo@example.com' → 't***@example.com', for logs (ASVS 16.2.5). */
export function maskEmail(email: unknown): string {
  const s = String(email ?? '');
  const at = s.indexOf('@');
  return at > 0 ? `${s[0]}***${s.slice(at)}` : '***';
}
