/**
 * /api/profile (issue #4), signed-in only:
 * GET / → {user: Profile}; PUT / ProfileSave → {user}, or 409 {error: {code: 'conflict', message}, user: <as it is now>} when
 * the profile changed since `expectedUpdatedAt` (the `updatedAt` the form was loaded with); POST /password {currentPassword,password,confirmPassword}
 * → {ok, token} (other sessions end, this browser gets a fresh one); POST /logout-everywhere → {ok};
 * GET /export → JSON attachment of everything held on the person (10 per account per 10 min, then 429); POST /delete {password} → 200 {outcome:'deleted'}
 * or 202 {outcome:'requested'}. GET /nsc-results → {nscResults}; PUT /nsc-results {nscResults} → {nscResults} (issue #18). Password checks are rate-limited per account.
 */
import { Router, type Request } from 'express';
import type { AppDeps } from '../../deps.ts';
import { requireUser, currentUser, type AuthedUser } from '../../http/guards.ts';
import { validate } from '../../http/validate.ts';
import { sharedRateLimit } from '../../http/rate-limit-store.ts';
import { HttpError } from '../../http/errors.ts';
import { ChangePasswordSchema, DeleteAccountSchema, ProfileSaveSchema } from '#contracts/auth.ts';
import { clearSessionCookies, endAllSessions } from '../../auth/session.ts';
import { startSession } from '../../auth/start-session.ts';
import { NscResultsUpdateSchema } from '#contracts/nsc-schema.ts';
import { changePassword, deleteAccount, exportPersonalData, getNscResults, getProfile, saveNscResults, updateProfile } from './profile.service.ts';
import { siteOrigin } from '../../mail/links.ts';

async function endThisSession(req: Request, res: import('express').Response): Promise<void> {
  if (req.session) await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
  clearSessionCookies(res);
}

/**
 * Router at /api/profile (issue #4; POPIA export and erasure): the routes listed above, all behind requireUser; wrong passwords → 400, too many → 429.
 */
export function profileRouter(deps: AppDeps): Router {
  const r = Router();
  const db = deps.database.db;
  const passwordChecks = sharedRateLimit(db, 'password-check:', { windowMs: 15 * 60_000, limit: 10, standardHeaders: 'draft-8', legacyHeaders: false,
    keyGenerator: (req) => `user:${(req.user as AuthedUser | undefined)?.id}`,
    handler: (_req, _res, next) => next(new HttpError(429, 'rate_limited', 'Too many attempts. Please try again later.')) });

  // The export reads every table about the person, mail by mailbox with a leading-wildcard match (security review,
  // 2026-11-27: no limit, so one account could keep the database busy); 10 per account per 10 minutes is far more
  // than a person downloading their data needs (ASVS 11.1.4, anti-automation).
  const exports = sharedRateLimit(db, 'data-export:', { windowMs: 10 * 60_000, limit: 10, standardHeaders: 'draft-8', legacyHeaders: false,
    keyGenerator: (req) => `user:${(req.user as AuthedUser | undefined)?.id}`,
    handler: (_req, _res, next) => next(new HttpError(429, 'rate_limited', 'You have downloaded your data many times in the last few minutes. Please try again in 10 minutes.')) });

  r.use(requireUser);

  r.get('/', async (req, res) => { res.json({ user: await getProfile(db, currentUser(req).id) }); });

  r.put('/', validate(ProfileSaveSchema), async (req, res) => {
    const result = await updateProfile(db, currentUser(req).id, req.body);
    if ('conflict' in result) {
      res.status(409).json({ error: { code: 'conflict', message: result.conflict.message }, user: result.conflict.current });
      return;
    }
    res.json({ user: result.user });
  });

  r.get('/nsc-results', async (req, res) => { res.json({ nscResults: await getNscResults(db, currentUser(req).id) }); });
  r.put('/nsc-results', validate(NscResultsUpdateSchema), async (req, res) => {
    res.json({ nscResults: await saveNscResults(db, currentUser(req).id, req.body.nscResults) });
  });

  r.post('/password', passwordChecks, validate(ChangePasswordSchema), async (req, res) => {
    const user = currentUser(req);
    await changePassword(db, user.id, req.body.currentPassword, req.body.password, siteOrigin(deps.config));
    console.info(`[auth] password changed by user ${user.id}; other sessions ended`);
    const token = await startSession(req, deps, user, false);
    res.json({ ok: true, token });
  });

  r.post('/logout-everywhere', async (req, res) => {
    const user = currentUser(req);
    await endAllSessions(db, user.id);
    await endThisSession(req, res);
    console.info(`[auth] user ${user.id} logged out everywhere`);
    res.json({ ok: true });
  });

  r.get('/export', exports, async (req, res) => {
    const user = currentUser(req);
    const data = await exportPersonalData(db, user.id);
    const day = new Date().toISOString().slice(0, 10);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="my-data-${day}.json"`);
    res.send(JSON.stringify(data, null, 2));
  });

  r.post('/delete', passwordChecks, validate(DeleteAccountSchema), async (req, res) => {
    const user = currentUser(req);
    const result = await deleteAccount(deps.database, deps.config, deps.store, user.id, req.body.password);
    if (result.outcome === 'deleted') {
      await endThisSession(req, res);
      console.info(`[privacy] account ${user.id} erased at the holder's request`);
      return res.json(result);
    }
    console.info(`[privacy] erasure request ${result.requestId} recorded for user ${user.id}`);
    res.status(202).json(result);
  });

  return r;
}
