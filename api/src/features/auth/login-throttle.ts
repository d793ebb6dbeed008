/**
 * Login throttling that never locks a person out (reliability audit L finding B; ASVS 5.0 V2.2.1 anti-automation,
 * V6.3.1 credential stuffing): many people share one client address (a mobile carrier's carrier-grade NAT, a school
 * lab), and anyone can type someone else's e-mail address. So only failed logins are counted, and above the soft
 * limits a login must carry a solved altcha proof-of-work (the registration one: pow-gate.ts) instead of being
 * refused; the password check then runs as usual. Only a flood from one address far above any shared network
 * (LOGIN_IP_HARD) is refused outright, with the spec's 'Too many login attempts. Please try again later.'.
 * Counters live in `rate_limits` (shared by every node), all in one window of LOGIN_WINDOW_MS.
 */
import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Db } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { DbRateLimitStore } from '../../http/rate-limit-store.ts';
import { newChallenge, spendSolution } from '../../http/pow-gate.ts';

/** One window for every login counter: 15 minutes (ms). */
export const LOGIN_WINDOW_MS = 15 * 60_000;

/** The login limits for one LOGIN_RATE_LIMIT (failed logins per window); every one is a count of failures. */
export interface LoginLimits {
  /**
   * Failures on one account from one client IP before that pair needs a proof-of-work: LOGIN_RATE_LIMIT / 10
   * (at least 1; 10 by default). ASVS 5.0 V2.2.1: slows guessing one password from one place.
   */
  accountIpSoft: number;
  /**
   * Failures on one account from all addresses before every login to it needs a proof-of-work: LOGIN_RATE_LIMIT
   * (100 by default). ASVS 5.0 V2.2.1 / V6.3.1: a distributed guess costs work per try, but the owner, who solves
   * the same quick check, is never locked out by strangers' guesses.
   */
  accountSoft: number;
  /**
   * Failures from one client IP before every login from it needs a proof-of-work: 5 × LOGIN_RATE_LIMIT (500 by
   * default). ASVS 5.0 V2.2.1: a carrier's NAT address carries thousands of honest people, so no refusal here.
   */
  ipSoft: number;
  /**
   * Failures from one client IP after which logins from it are refused (429 rate_limited) until the window ends:
   * 50 × ipSoft (25 000 by default), only against floods. ASVS 5.0 V2.2.1.
   */
  ipHard: number;
}

/** The limits for `loginRateLimit` (config LOGIN_RATE_LIMIT): see LoginLimits. */
export function loginLimits(loginRateLimit: number): LoginLimits {
  const ipSoft = 5 * loginRateLimit;
  return { accountIpSoft: Math.max(1, Math.ceil(loginRateLimit / 10)), accountSoft: loginRateLimit, ipSoft, ipHard: 50 * ipSoft };
}

/** Shown by the API with the challenge; the login form shows its own short line while the browser solves it. */
export const LOGIN_CHALLENGE_MESSAGE = 'Many sign-in attempts came from this network or for this account. Please complete the quick check to continue.';
/** The spec's refusal (spec §8), only at LoginLimits.ipHard. */
export const LOGIN_TOO_MANY = 'Too many login attempts. Please try again later.';

/** The counter keys of one login attempt: client IP, account (lower-cased e-mail) and the pair. */
function keysOf(req: Request): { ip: string; account: string; accountIp: string } {
  const ip = ipKeyGenerator(req.ip ?? '');
  const email = String(req.body?.email ?? '').trim().toLowerCase().slice(0, 320);
  return { ip: `ip:${ip}`, account: `acct:${email}`, accountIp: `acct-ip:${email}|${ip}` };
}

/** The login throttle: `gate` goes before the password check, `failed(req)` is awaited after a wrong password. */
export interface LoginThrottle {
  gate: RequestHandler;
  failed(req: Request): Promise<void>;
}

/**
 * The login throttle over `db` (see the module doc). `gate`: over ipHard → next(429 rate_limited LOGIN_TOO_MANY)
 * via `refuse`; over any soft limit and without a valid unspent altcha solution → 429 {error: {code:
 * 'challenge_required'}, challenge}; else next(). `failed(req)` counts one failure under all three keys.
 * A database error lets the login through (logged), like sharedRateLimit.
 */
export function loginThrottle(db: Db, config: Config, refuse: RequestHandler): LoginThrottle {
  const limits = loginLimits(config.LOGIN_RATE_LIMIT);
  const store = new DbRateLimitStore(db, 'login-fail:');
  store.init({ windowMs: LOGIN_WINDOW_MS } as Parameters<DbRateLimitStore['init']>[0]);
  const hits = async (key: string) => (await store.get(key))?.totalHits ?? 0;
  const gate: RequestHandler = async (req, res, next) => {
    let needsProof = false;
    try {
      const k = keysOf(req);
      const [ip, account, accountIp] = await Promise.all([hits(k.ip), hits(k.account), hits(k.accountIp)]);
      if (ip >= limits.ipHard) return void await refuse(req, res, next);
      needsProof = ip >= limits.ipSoft || account >= limits.accountSoft || accountIp >= limits.accountIpSoft;
    } catch (err) {
      console.error('[rate-limit] login counters unavailable, login let through:', (err as Error).message);
      return next();
    }
    if (!needsProof) return next();
    try {
      if (await spendSolution(db, config, req)) return next();
      res.status(429).json({ error: { code: 'challenge_required', message: LOGIN_CHALLENGE_MESSAGE }, challenge: await newChallenge(config) });
    } catch (err) { next(err); }
  };
  const failed = async (req: Request) => {
    const k = keysOf(req);
    try {
      await Promise.all([store.increment(k.ip), store.increment(k.account), store.increment(k.accountIp)]);
    } catch (err) {
      console.error('[rate-limit] counting a failed login failed:', (err as Error).message);
    }
  };
  return { gate, failed };
}
