/**
 * Auth routes, mounted at both /api/auth and /api/colfront/auth (spec §7, DESIGN §4):
 * POST /login {email,password,rememberMe?} → {user, token}; POST /logout; GET /me → {user};
 * POST /register (simple form) and POST /comprehensive-register (wizard) → 201 {user, token, courseId}, signed in;
 * POST /reset-password {email} → 200, the same answer whether or not the e-mail exists;
 * POST /reset-password/confirm {token,password,confirmPassword} → 200, every session of that user ended.
 * Login failures: generic 401 'Invalid email or password', rate-limited per IP and per account (ASVS 6.3.1).
 */
import { Router, type Request, type Response, type NextFunction } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type passport from 'passport';
import type { AppDeps } from '../../app.ts';
import { validate } from '../../http/validate.ts';
import { sharedRateLimit } from '../../http/rate-limit-store.ts';
import { HttpError, unauthorized } from '../../http/errors.ts';
import { LoginSchema, SimpleRegisterSchema, ComprehensiveRegisterSchema, ForgotPasswordSchema, ResetPasswordConfirmSchema, type PublicUser } from '#contracts/auth.ts';
import { issueToken, revokeToken } from '../../auth/tokens.ts';
import { bearerToken, lifetimeFor, setSignedInHint, clearSessionCookies } from '../../auth/session.ts';
import { registerStudent, registerComprehensive } from './auth.service.ts';
import { requestPasswordReset, confirmPasswordReset } from './password-reset.service.ts';

const tooMany = (message: string) => (_req: Request, _res: Response, next: NextFunction) =>
  next(new HttpError(429, 'rate_limited', message));

/** Logs `user` into a fresh session (passport regenerates the id: ASVS 7.2.4) and issues a bearer token. */
export async function startSession(req: Request, deps: AppDeps, user: PublicUser, remember: boolean): Promise<string> {
  await new Promise<void>((resolve, reject) => req.logIn(user as any, (err) => (err ? reject(err) : resolve())));
  const lifetime = lifetimeFor(user.role, remember);
  const s = req.session as any;
  s.createdAt = Date.now(); s.lastSeen = Date.now(); s.remember = remember; s.role = user.role;
  req.session.cookie.maxAge = lifetime;
  if (req.res) setSignedInHint(req.res, lifetime);
  return issueToken(deps.database.db, user.id, lifetime);
}

export function authRouter(deps: AppDeps, pp: passport.PassportStatic): Router {
  const r = Router();
  const limit = deps.config.LOGIN_RATE_LIMIT;
  const db = deps.database.db;
  const perIp = sharedRateLimit(db, 'login-ip:', { windowMs: 15 * 60_000, limit: limit * 5, standardHeaders: 'draft-8', legacyHeaders: false,
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? ''), handler: tooMany('Too many login attempts. Please try again later.'), skipSuccessfulRequests: true });
  const perAccount = sharedRateLimit(db, 'login-account:', { windowMs: 15 * 60_000, limit, standardHeaders: 'draft-8', legacyHeaders: false,
    keyGenerator: (req) => `acct:${String(req.body?.email ?? '').trim().toLowerCase()}`, handler: tooMany('Too many login attempts. Please try again later.'), skipSuccessfulRequests: true });
  const registerLimit = sharedRateLimit(db, 'register:', { windowMs: 60 * 60_000, limit: 50, standardHeaders: 'draft-8', legacyHeaders: false,
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? ''), handler: tooMany('Too many registrations from this address. Please try again later.') });

  r.post('/login', perIp, perAccount, validate(LoginSchema), (req, res, next) => {
    pp.authenticate('local', { session: false }, async (err: unknown, user: PublicUser | false) => {
      try {
        if (err) return next(err);
        if (!user) {
          console.warn(`[auth] login failed for ${maskEmail(req.body.email)} from ${req.ip}`);
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
      const token = bearerToken(req);
      if (token) await revokeToken(deps.database.db, token);
      const hadUser = Boolean(req.user);
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

  r.post('/register', registerLimit, validate(SimpleRegisterSchema), async (req, res) => {
    const b = req.body;
    const user = await registerStudent(deps.database.db, { email: b.email, password: b.password, firstName: b.firstName, lastName: b.lastName, phone: b.phone });
    const token = await startSession(req, deps, user, false);
    res.status(201).json({ user, token, courseId: b.courseId ?? null });
  });

  r.post('/comprehensive-register', registerLimit, validate(ComprehensiveRegisterSchema), async (req, res) => {
    const b = req.body;
    const user = await registerComprehensive(deps.database.db, {
      email: b.email, password: b.password, firstName: b.firstName, lastName: b.lastName, phone: b.phone,
      dateOfBirth: b.dateOfBirth, nationality: b.nationality, idNumber: b.idNumber,
      addressLine1: b.addressLine1, addressLine2: b.addressLine2 || null, city: b.city, state: b.state, postalCode: b.postalCode, country: b.country,
      emergencyContactName: b.emergencyContactName, emergencyContactPhone: b.emergencyContactPhone, emergencyContactRelation: b.emergencyContactRelation,
      courseId: b.courseId, academicHistory: b.academicHistory,
    });
    const token = await startSession(req, deps, user, false);
    console.info(`[auth] registered user ${user.id} (wizard)`);
    res.status(201).json({ user, token, courseId: b.courseId });
  });

  const resetLimit = sharedRateLimit(db, 'password-reset:', { windowMs: 15 * 60_000, limit: 20, standardHeaders: 'draft-8', legacyHeaders: false,
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? ''), handler: tooMany('Too many password reset requests. Please try again later.') });

  r.post('/reset-password', resetLimit, validate(ForgotPasswordSchema), async (req, res) => {
    await requestPasswordReset(deps.database.db, deps.config, req.body.email);
    res.json({ ok: true, message: RESET_SENT_MESSAGE });
  });

  r.post('/reset-password/confirm', resetLimit, validate(ResetPasswordConfirmSchema), async (req, res) => {
    const userId = await confirmPasswordReset(deps.database.db, req.body.token, req.body.password);
    console.info(`[auth] password reset for user ${userId}; all sessions ended`);
    // The person may be signed in on this very browser: that session ended too.
    if (req.session) await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
    clearSessionCookies(res);
    res.json({ ok: true });
  });

  return r;
}

/** The one answer to a reset request, whether or not the e-mail has an account. */
export const RESET_SENT_MESSAGE = 'If an account exists for that e-mail address, we have sent a link to reset the password. The link is valid for 1 hour.';

/** 'thabo@example.com' → 't***@example.com', for logs (ASVS 16.2.5). */
export function maskEmail(email: unknown): string {
  const s = String(email ?? '');
  const at = s.indexOf('@');
  return at > 0 ? `${s[0]}***${s.slice(at)}` : '***';
}
