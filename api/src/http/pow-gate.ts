/**
 * Registration throttle that never locks out a school lab or a mobile network (issue #12 finding 13;
 * ASVS 5.0 V2.4.1 anti-automation): below a soft per-IP threshold (REGISTER_SOFT_LIMIT per hour) registration
 * just works; above it the request must carry a solved proof-of-work challenge (altcha, self-hosted: the
 * challenge is made and checked here, no third-party request). Without one the answer is
 * 429 `challenge_required` with a fresh challenge, so the site can load the altcha widget only then.
 * Challenges are HMAC-signed with a key derived from SESSION_SECRET, expire after 10 minutes and are spent
 * once (kept in `rate_limits`, so every instance agrees).
 */
import crypto from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { createChallenge, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { Config } from '../config.ts';
import { rateLimits } from '../db/schema/rate-limits.ts';
import { failureRateLimit, sharedRateLimit, type FailureLimiter } from './rate-limit-store.ts';
import { HttpError } from './errors.ts';

/** A challenge stays solvable for this long (ms). */
export const CHALLENGE_TTL_MS = 10 * 60_000;
const ALGORITHM = 'PBKDF2/SHA-256';

/** The HMAC secret for challenges: derived from SESSION_SECRET, never the secret itself. */
function hmacSecret(config: Config): string {
  return crypto.createHmac('sha256', config.sessionSecret).update('altcha-challenge-v1').digest('hex');
}

/**
 * A new signed challenge; `cost` is PBKDF2 iterations per attempt (default REGISTER_POW_COST; the login asks for more
 * on an account under attack, login-throttle.ts). The cost is signed with the challenge, so it cannot be lowered.
 */
export async function newChallenge(config: Config, cost: number = config.REGISTER_POW_COST): Promise<Challenge> {
  return createChallenge({
    algorithm: ALGORITHM, cost, deriveKey,
    expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS), hmacSignatureSecret: hmacSecret(config),
  });
}

/** The altcha payload of a request: body field `altcha` or header `X-Altcha` (base64 JSON {challenge, solution}). */
function payloadOf(req: Request): { challenge: Challenge; solution: Solution } | null {
  const raw = (typeof req.body?.altcha === 'string' ? req.body.altcha : undefined) ?? req.get('x-altcha');
  if (!raw || raw.length > 4000) return null;
  try {
    const p = JSON.parse(Buffer.from(raw, 'base64').toString('utf8'));
    return p && typeof p === 'object' && p.challenge?.parameters && p.solution ? p : null;
  } catch { return null; }
}

/**
 * True when the request carries a valid, unexpired, not yet spent solution of a challenge costing at least `minCost`
 * PBKDF2 iterations per attempt (default 0: any); spends it. A cheaper one (solved before an account's proof got
 * dearer, or taken from the registration gate) is false and stays unspent.
 */
export async function spendSolution(db: Db, config: Config, req: Request, minCost = 0): Promise<boolean> {
  const p = payloadOf(req);
  if (!p) return false;
  if (!(Number(p.challenge.parameters.cost) >= minCost)) return false;
  let ok = false;
  try {
    ok = (await verifySolution({ challenge: p.challenge, solution: p.solution, deriveKey, hmacSignatureSecret: hmacSecret(config) })).verified;
  } catch { ok = false; }
  if (!ok || !p.challenge.signature) return false;
  const [spent] = await db.insert(rateLimits)
    .values({ key: `altcha-spent:${p.challenge.signature}`, hits: 1, resetAt: sql`now() + (${CHALLENGE_TTL_MS}::integer * interval '1 millisecond')` })
    .onConflictDoNothing().returning({ key: rateLimits.key });
  return Boolean(spent);
}

/**
 * The registration gate: counts created accounts (2xx answers) per IP (window REGISTER_WINDOW_MS); above
 * REGISTER_SOFT_LIMIT a request passes only with a solved challenge, else 429 {code: 'challenge_required', challenge}.
 * ASVS 5.0 V2.2.1 / V2.4.1: a school lab or a mobile carrier's NAT shares one address, so the answer is a
 * proof-of-work, never a refusal.
 */
export function registrationGate(db: Db, config: Config): RequestHandler {
  return sharedRateLimit(db, 'register:', {
    windowMs: config.REGISTER_WINDOW_MS, limit: config.REGISTER_SOFT_LIMIT, standardHeaders: 'draft-8', legacyHeaders: false,
    // Only created accounts count (audit L finding E): a learner's form refused for bad input (400), a taken e-mail
    // (409) or an answered challenge (429) does not push the rest of the lab into proof-of-work sooner.
    skipFailedRequests: true,
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? ''),
    handler: async (req, res, next) => {
      try {
        // One proof per request: the taken-address gate may have spent one already (registrationTakenGate).
        if (res.locals.proofSpent || await spendSolution(db, config, req)) return next();
        res.status(429).json({ error: { code: 'challenge_required', message: CHALLENGE_MESSAGE }, challenge: await newChallenge(config) });
      } catch (err) { next(err instanceof HttpError ? err : err); }
    },
  });
}

/**
 * Registrations refused because the e-mail already has an account (409) per client IP per REGISTER_WINDOW_MS that
 * answer without a proof-of-work: REGISTER_SOFT_LIMIT / 4, at least 5 (5 an hour by default). Security audit F5: 40
 * such requests from one address all answered 'already have an account', an unlimited way to find out who has one;
 * a few learners in a lab who retry with their own address stay below it, and past it they solve the quick check.
 */
export function registerTakenFree(config: Config): number {
  return Math.max(5, Math.ceil(config.REGISTER_SOFT_LIMIT / 4));
}

/**
 * The taken-address gate for registration (security audit F5; ASVS 5.0 V2.2.1, V6.3.7-style enumeration): `check`
 * goes before registrationGate and the route, `count` (an error middleware) after the route and counts each 409 per
 * client IP. Past registerTakenFree(config) in the window, a request needs a solved challenge (then `res.locals.proofSpent`
 * is set so registrationGate does not ask for a second one), else 429 {code: 'challenge_required', challenge}. No
 * refusal: the answer for a person is still the spec's 409 after the quick check.
 */
export function registrationTakenGate(db: Db, config: Config): FailureLimiter {
  return failureRateLimit(db, 'register-taken:', {
    windowMs: config.REGISTER_WINDOW_MS, limit: registerTakenFree(config), keyGenerator: (req) => ipKeyGenerator(req.ip ?? ''),
    isFailure: (err) => err instanceof HttpError && err.status === 409,
    handler: async (req, res, next) => {
      try {
        if (await spendSolution(db, config, req)) { res.locals.proofSpent = true; return next(); }
        res.status(429).json({ error: { code: 'challenge_required', message: CHALLENGE_MESSAGE }, challenge: await newChallenge(config) });
      } catch (err) { next(err); }
    },
  });
}

export const CHALLENGE_MESSAGE = 'Many people have registered from this network. Please complete the quick check to continue.';
