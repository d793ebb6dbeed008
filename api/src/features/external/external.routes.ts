/**
 * /api/external/* (spec §7, §4 External login; DESIGN §4). All routes are admin-only (401 anonymous,
 * 403 student). Data routes also need the separate external login: without it they answer
 * 401 {code: 'external_login_required'}. GET /me is the connection check the external pages run before any data
 * read, so "not connected" is an answer there, not an error: 200 {user: null}. The external session lives inside the portal session
 * (req.session.external), so it ends when the portal session ends (logout, idle/absolute timeout).
 *
 * GET /health → {status:'OK', message, driver} · POST /login {email,password} → {user} · POST /logout ·
 * GET /me → {user, driver} (user null when not connected) · GET /branches → {branches} · GET /branches/:id/students?page&pageSize → {branch, students, total, page, pageSize, pages} ·
 * GET /students?search&status&page&pageSize → {students, total, page, pageSize, pages} · POST /students → 201 {student} ·
 * GET /enrolable-applications?q → {applications (accepted, not yet enrolled with the local driver; 20 newest matches), total} ·
 * POST /students/from-application/:applicationId {branchId?} → 201|200 {student} ·
 * GET /payments?page&pageSize → {payments (newest first), totals (every payment, per currency), total, page, pageSize, pages} ·
 * GET /payments.csv (every payment, streamed) · POST /payments (Idempotency-Key) → 201|200 {payment}.
 * Pages hold 1–100 rows (default 50); nothing is capped silently (volume audit); a page past the last answers the last page.
 * Remote down → 502 external_unavailable; remote slow (> 4.5 s) → 504 external_timeout.
 */
import { Router, type Request, type Response, type NextFunction } from 'express';
import { sharedRateLimit } from '../../http/rate-limit-store.ts';
import type { AppDeps } from '../../deps.ts';
import { validate } from '../../http/validate.ts';
import { sendCsvStream } from '../../http/api-compression.ts';
import { readPage } from '../../http/paging.ts';
import { requireAdmin, currentUser } from '../../http/guards.ts';
import { badRequest, HttpError } from '../../http/errors.ts';
import {
  ApplicationIdParamSchema, EnrolableApplicationsQuerySchema, EXTERNAL_ERROR, ExternalIdParamSchema, ExternalLoginSchema, ExternalPageQuerySchema, ExternalPaymentInputSchema,
  ExternalStudentInputSchema, ExternalStudentsQuerySchema, FromApplicationSchema, type ExternalUser,
} from '#contracts/external.ts';
import { todayInSouthAfrica } from '#contracts/sa-calendar.ts';
import { externalLoginRequired, type ExternalContext } from './external.driver.ts';
import { createExternalDriver, enrolableApplications, enrolApplication, paymentsCsvStream } from './external.service.ts';

/** What req.session.external holds: who connected, as whom, and the remote token (http driver). */
export interface ExternalSession { portalUserId: number; driver: string; user: ExternalUser; token?: string; connectedAt: number }

declare module 'express-session' {
  interface SessionData { external?: ExternalSession }
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{8,128}$/;
const studentsQuery = validate(ExternalStudentsQuerySchema, 'query');
const pageQuery = validate(ExternalPageQuerySchema, 'query');
const enrolableQuery = validate(EnrolableApplicationsQuerySchema, 'query');
const applicationParam = validate(ApplicationIdParamSchema, 'params');
const branchParam = validate(ExternalIdParamSchema, 'params');

/**
 * Admin router at /api/external (spec §4 External login, §7): login/logout/me and the data routes above, through the driver chosen by EXTERNAL_DRIVER; 502/504 when the remote system fails or times out.
 */
export function externalRouter(deps: AppDeps): Router {
  const r = Router();
  const db = deps.database.db;
  const driver = createExternalDriver(deps.config, db);

  r.use(requireAdmin);

  /** The external session of this admin, or undefined (a session left by another user never counts). */
  const externalOf = (req: Request): ExternalSession | undefined => {
    const ext = req.session?.external;
    return ext && ext.portalUserId === currentUser(req).id && ext.driver === driver.name ? ext : undefined;
  };

  /** Middleware: 401 external_login_required without an external session; sets res.locals.ctx. */
  const requireExternal = (req: Request, res: Response, next: NextFunction) => {
    const ext = externalOf(req);
    if (!ext) return next(externalLoginRequired());
    res.locals.ctx = { portalUserId: ext.portalUserId, token: ext.token } satisfies ExternalContext;
    next();
  };
  const ctxOf = (res: Response): ExternalContext => res.locals.ctx;

  /** Forgets a remote session the remote system no longer accepts, then rethrows. */
  const guardRemote = (handler: (req: Request, res: Response) => Promise<void>) => async (req: Request, res: Response) => {
    try { await handler(req, res); } catch (err) {
      if (err instanceof HttpError && err.code === EXTERNAL_ERROR.loginRequired && req.session?.external) delete req.session.external;
      throw err;
    }
  };

  const loginLimit = sharedRateLimit(db, 'external-login:', {
    windowMs: 15 * 60_000, limit: 10, skipSuccessfulRequests: true, standardHeaders: 'draft-8', legacyHeaders: false,
    keyGenerator: (req) => `external:${(req.user as { id?: number } | undefined)?.id ?? 'anon'}`,
    handler: (_req, _res, next) => next(new HttpError(429, 'rate_limited', 'Too many login attempts. Please try again later.')),
  });

  r.get('/health', async (_req, res) => {
    const h = await driver.health();
    res.json({ ...h, driver: driver.name });
  });

  r.post('/login', loginLimit, validate(ExternalLoginSchema), async (req, res) => {
    const admin = currentUser(req);
    try {
      const { user, token } = await driver.login(req.body, { id: admin.id, email: admin.email });
      req.session.external = { portalUserId: admin.id, driver: driver.name, user, token, connectedAt: Date.now() };
      console.info(`[external] admin ${admin.id} connected to the ${driver.name} external system`);
      res.json({ user });
    } catch (err) {
      if (err instanceof HttpError && err.code === EXTERNAL_ERROR.loginFailed) console.warn(`[external] login failed for admin ${admin.id}`);
      throw err;
    }
  });

  r.post('/logout', async (req, res) => {
    const ext = externalOf(req);
    if (ext) await driver.logout({ portalUserId: ext.portalUserId, token: ext.token });
    if (req.session?.external) delete req.session.external;
    res.json({ ok: true });
  });

  r.get('/me', (req, res) => {
    res.json({ user: externalOf(req)?.user ?? null, driver: driver.name });
  });

  r.get('/branches', requireExternal, guardRemote(async (_req, res) => {
    res.json({ branches: await driver.listBranches(ctxOf(res)) });
  }));

  r.get('/branches/:id/students', requireExternal, branchParam, pageQuery, guardRemote(async (req, res) => {
    const q = pageQuery.data(req);
    const { result: { branch, students }, info } = await readPage(q, (page) => driver.branchStudents(ctxOf(res), branchParam.data(req).id, { ...q, page }));
    res.json({ branch, students, ...info });
  }));

  r.get('/students', requireExternal, studentsQuery, guardRemote(async (req, res) => {
    const q = studentsQuery.data(req);
    const { result: { students }, info } = await readPage(q, (page) => driver.listStudents(ctxOf(res), { ...q, page }));
    res.json({ students, ...info });
  }));

  r.post('/students', requireExternal, validate(ExternalStudentInputSchema), guardRemote(async (req, res) => {
    res.status(201).json({ student: await driver.createStudent(ctxOf(res), req.body) });
  }));

  r.get('/enrolable-applications', requireExternal, enrolableQuery, async (req, res) => {
    res.json(await enrolableApplications(db, driver, enrolableQuery.data(req).q));
  });

  r.post('/students/from-application/:applicationId', requireExternal, applicationParam, validate(FromApplicationSchema),
    guardRemote(async (req, res) => {
      const { student, created } = await enrolApplication(db, driver, ctxOf(res), applicationParam.data(req).applicationId, req.body.branchId);
      res.status(created ? 201 : 200).json({ student, created });
    }));

  r.get('/payments', requireExternal, pageQuery, guardRemote(async (req, res) => {
    const q = pageQuery.data(req);
    const { result: { payments, totals }, info } = await readPage(q, (page) => driver.listPayments(ctxOf(res), { ...q, page }));
    res.json({ payments, totals, ...info });
  }));

  r.get('/payments.csv', requireExternal, guardRemote(async (_req, res) => {
    const csv = await paymentsCsvStream(driver.allPayments(ctxOf(res)));
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="external-payments-${todayInSouthAfrica()}.csv"`);
    // Every payment, streamed page by page; once rows are sent an error can only cut the download short.
    // Headers at once and a flush after each page (sendCsvStream): brotli held everything back for seconds.
    await sendCsvStream(res, csv, '[external] payments');
  }));

  r.post('/payments', requireExternal, validate(ExternalPaymentInputSchema), guardRemote(async (req, res) => {
    const header = req.get('Idempotency-Key');
    const key = header ?? req.body.idempotencyKey;
    if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
      throw badRequest('Idempotency key must be 8 to 128 printable characters', { idempotencyKey: 'Idempotency key must be 8 to 128 printable characters' });
    }
    const { payment, created } = await driver.addPayment(ctxOf(res), req.body, key);
    if (!created) res.setHeader('Idempotent-Replayed', 'true');
    res.status(created ? 201 : 200).json({ payment });
  }));

  return r;
}
