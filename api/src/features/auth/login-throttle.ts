/**
 * Login throttling that never locks a person out (reliability audit L finding B; ASVS 5.0 V2.2.1 anti-automation,
 * V6.3.1 credential stuffing): many people share one client address (a mobile carrier's carrier-grade NAT, a school
 * lab), and anyone can type someone else's e-mail address. So only failed logins are counted, and above the soft
 * limits a login must carry a solved altcha proof-of-work (the registration one: pow-gate.ts) instead of being
 * refused; the password check then runs as usual. The proof gets dearer as one account's failures grow, and past a
 * hard ceiling per account, per account and IP, and per IP, logins are refused with the spec's 'Too many login
 * attempts. Please try again later.' until the window ends (security audit F1: without a per-account ceiling, one core
 * solving proofs made ~16 600 guesses an hour at one password; NIST SP 800-63B 5.2.2, ASVS 5.0 V6.3.1). The owner of
 * an account refused that way gets in through a password reset, which clears the account's counters (clearAccount).
 * Counters live in `rate_limits` (shared by every node), all in one window of LOGIN_WINDOW_MS.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { like } from 'drizzle-orm';
import { rateLimits } from '../../db/schema/rate-limits.ts';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Db } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { DbRateLimitStore } from '../../http/rate-limit-store.ts';
import { newChallenge, spendSolution } from '../../http/pow-gate.ts';
import { normalizeEmail } from '#contracts/mailbox.ts';

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
   * Failures on one account from one client IP after which that pair is refused (429 rate_limited) until the window
   * ends, proof or not: 5 × accountIpSoft (50 by default). Security audit F1: one address guessing one password.
   */
  accountIpHard: number;
  /**
   * Failures on one account from all addresses before every login to it needs a proof-of-work: LOGIN_RATE_LIMIT
   * (100 by default). ASVS 5.0 V2.2.1 / V6.3.1: a distributed guess costs work per try, but the owner, who solves
   * the same quick check, is never locked out by strangers' guesses.
   */
  accountSoft: number;
  /**
   * Failures on one account from all addresses after which every login to it is refused (429 rate_limited) until the
   * window ends, even with the right password: 10 × LOGIN_RATE_LIMIT (1 000 per 15 min by default). Security audit F1
   * (NIST SP 800-63B 5.2.2, ASVS 5.0 V6.3.1): proofs alone allowed ~16 600 guesses an hour; the owner can still reset
   * the password, which clears the counters.
   */
  accountHard: number;
  /**
   * The proof's cost (REGISTER_POW_COST) doubles for every further accountSoft failures on the account beyond
   * accountSoft, up to this factor (16: ~3-6 s on a phone-class core at the default 5 000).
   */
  maxCostFactor: number;
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
  const accountIpSoft = Math.max(1, Math.ceil(loginRateLimit / 10));
  return { accountIpSoft, accountIpHard: 5 * accountIpSoft, accountSoft: loginRateLimit, accountHard: 10 * loginRateLimit, maxCostFactor: 16, ipSoft, ipHard: 50 * ipSoft };
}

/**
 * The cost factor of the proof for an account with `accountFailures` failures in the window: 1 below
 * 2 × accountSoft, then doubling for every further accountSoft failures, at most maxCostFactor. Security audit F1.
 */
export function costFactor(limits: LoginLimits, accountFailures: number): number {
  const steps = Math.floor(Math.max(0, accountFailures - limits.accountSoft) / limits.accountSoft);
  return Math.min(limits.maxCostFactor, 2 ** Math.min(steps, 30));
}

/** Shown by the API with the challenge; the login form shows its own short line while the browser solves it. */
export const LOGIN_CHALLENGE_MESSAGE = 'Many sign-in attempts came from this network or for this account. Please complete the quick check to continue.';
/** The spec's refusal (spec §8), only past a hard ceiling (LoginLimits.ipHard, accountHard, accountIpHard). */
export const LOGIN_TOO_MANY = 'Too many login attempts. Please try again later.';

/** The e-mail address as the counters name it: trimmed, lower case, at most 320 characters. */
function accountOf(email: unknown): string {
  return normalizeEmail(email).slice(0, 320);
}

/** The counter keys of one login attempt: client IP, account (lower-cased e-mail) and the pair. */
function keysOf(req: Request): { ip: string; account: string; accountIp: string } {
  const ip = ipKeyGenerator(req.ip ?? '');
  const email = accountOf(req.body?.email);
  return { ip: `ip:${ip}`, account: `acct:${email}`, accountIp: `acct-ip:${email}|${ip}` };
}

/**
 * The login throttle: `gate` goes before the password check, `failed(req)` is awaited after a wrong password, and
 * `clearAccount(email)` after a completed password reset (drops the account's counters, from every address).
 */
export interface LoginThrottle {
  gate: RequestHandler;
  failed(req: Request): Promise<void>;
  clearAccount(email: string): Promise<void>;
}

/**
 * The login throttle over `db` (see the module doc). `gate`: at ipHard, accountHard or accountIpHard failures →
 * `refuse(req, res, next, {windowMs, keyGenerator})` (the caller answers 429 rate_limited LOGIN_TOO_MANY); over any
 * soft limit and without a valid unspent altcha solution of at least the account's cost (REGISTER_POW_COST ×
 * costFactor) → 429 {error: {code: 'challenge_required'}, challenge}; else next(). `failed(req)` counts one failure
 * under all three keys. A database error lets the login through (logged), like sharedRateLimit.
 */
export function loginThrottle(db: Db, config: Config, refuse: (req: Request, res: Response, next: NextFunction, options: { windowMs: number; keyGenerator: () => string }) => unknown): LoginThrottle {
  const limits = loginLimits(config.LOGIN_RATE_LIMIT);
  const store = new DbRateLimitStore(db, 'login-fail:');
  store.init({ windowMs: LOGIN_WINDOW_MS } as Parameters<DbRateLimitStore['init']>[0]);
  const hits = async (key: string) => (await store.get(key))?.totalHits ?? 0;
  const gate: RequestHandler = async (req, res, next) => {
    let needsProof = false;
    let cost = config.REGISTER_POW_COST;
    try {
      const k = keysOf(req);
      const [ip, account, accountIp] = await Promise.all([hits(k.ip), hits(k.account), hits(k.accountIp)]);
      const over = ip >= limits.ipHard ? k.ip : account >= limits.accountHard ? k.account : accountIp >= limits.accountIpHard ? k.accountIp : null;
      if (over) return void await refuse(req, res, next, { windowMs: LOGIN_WINDOW_MS, keyGenerator: () => `login-fail:${over}` });
      needsProof = ip >= limits.ipSoft || account >= limits.accountSoft || accountIp >= limits.accountIpSoft;
      cost = config.REGISTER_POW_COST * costFactor(limits, account);
    } catch (err) {
      console.error('[rate-limit] login counters unavailable, login let through:', (err as Error).message);
      return next();
    }
    if (!needsProof) return next();
    try {
      if (await spendSolution(db, config, req, cost)) return next();
      res.status(429).json({ error: { code: 'challenge_required', message: LOGIN_CHALLENGE_MESSAGE }, challenge: await newChallenge(config, cost) });
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
  const clearAccount = async (email: string) => {
    const e = accountOf(email);
    const literal = e.replace(/[\\%_]/g, (c) => `\\${c}`); // LIKE's own characters in an address match themselves
    try {
      await store.resetKey(`acct:${e}`);
      await db.delete(rateLimits).where(like(rateLimits.key, `login-fail:acct-ip:${literal}|%`));
    } catch (err) {
      console.error('[rate-limit] clearing the login counters of an account failed:', (err as Error).message);
    }
  };
  return { gate, failed, clearAccount };
}
