/**
 * express-rate-limit store kept in the `rate_limits` table, so every API instance behind a load balancer
 * counts against the same limits (issue #8 "Two instances"; issue #4 login limits per account and per IP).
 * Works on PGlite and PostgreSQL alike. Windows are fixed: they open on the first hit and close at
 * `reset_at`, measured by the database clock so instances with skewed clocks agree.
 * A database error never locks people out: `sharedRateLimit` sets passOnStoreError, so the request
 * goes through unlimited and the error is logged.
 */
import rateLimit, { type Options, type RateLimitRequestHandler, type Store, type IncrementResponse, type ClientRateLimitInfo } from 'express-rate-limit';
import type { ErrorRequestHandler, Request, RequestHandler, Response, NextFunction } from 'express';
import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rateLimits } from '../db/schema/rate-limits.ts';

/** Expired rows are deleted at most this often per database (ms). */
export const PRUNE_EVERY_MS = 60_000;
const lastPrune = new WeakMap<Db, number>();

/** A Store over `rate_limits`; every key is stored as `prefix + key`. Throws on database errors (see module doc). */
export class DbRateLimitStore implements Store {
  db: Db;
  prefix: string;
  localKeys = false;
  windowMs = 60_000;

  constructor(db: Db, prefix: string) {
    this.db = db;
    this.prefix = prefix;
  }

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const [row] = await this.db.select({ hits: rateLimits.hits, resetAt: rateLimits.resetAt }).from(rateLimits)
      .where(and(eq(rateLimits.key, this.prefix + key), gt(rateLimits.resetAt, sql`now()`)));
    return row ? { totalHits: row.hits, resetTime: row.resetAt } : undefined;
  }

  /** One atomic upsert: a new or expired window starts at 1, otherwise hits + 1 within the same window. */
  async increment(key: string): Promise<IncrementResponse> {
    const window = sql`now() + (${Math.round(this.windowMs)}::integer * interval '1 millisecond')`;
    const [row] = await this.db.insert(rateLimits).values({ key: this.prefix + key, hits: 1, resetAt: window })
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: {
          hits: sql`CASE WHEN ${rateLimits.resetAt} <= now() THEN 1 ELSE ${rateLimits.hits} + 1 END`,
          resetAt: sql`CASE WHEN ${rateLimits.resetAt} <= now() THEN excluded.reset_at ELSE ${rateLimits.resetAt} END`,
        },
      })
      .returning({ hits: rateLimits.hits, resetAt: rateLimits.resetAt });
    await this.pruneNowAndThen();
    return { totalHits: row!.hits, resetTime: row!.resetAt };
  }

  /** Takes back one hit (skipSuccessfulRequests / skipFailedRequests) within the current window only. */
  async decrement(key: string): Promise<void> {
    await this.db.update(rateLimits).set({ hits: sql`greatest(${rateLimits.hits} - 1, 0)` })
      .where(and(eq(rateLimits.key, this.prefix + key), gt(rateLimits.resetAt, sql`now()`)));
  }

  async resetKey(key: string): Promise<void> {
    await this.db.delete(rateLimits).where(eq(rateLimits.key, this.prefix + key));
  }

  private async pruneNowAndThen(): Promise<void> {
    const now = Date.now();
    if (now - (lastPrune.get(this.db) ?? 0) < PRUNE_EVERY_MS) return;
    lastPrune.set(this.db, now);
    try {
      await this.db.delete(rateLimits).where(lte(rateLimits.resetAt, sql`now()`));
    } catch (err) {
      // The hit itself was counted; a failed clean-up only leaves stale rows for the next attempt.
      console.error('[rate-limit] pruning expired rows failed:', (err as Error).message);
    }
  }
}

/**
 * express-rate-limit with the shared database store under `prefix` (one distinct prefix per limiter)
 * and passOnStoreError: a database failure logs and lets the request through rather than answering 500/429.
 */
export function sharedRateLimit(db: Db, prefix: string, options: Partial<Omit<Options, 'store'>>): RateLimitRequestHandler {
  return rateLimit({ ...options, store: new DbRateLimitStore(db, prefix), passOnStoreError: true });
}

/** What failureRateLimit needs: the window (ms), the failures allowed per key, the key, which errors are failures, and the refusal. */
export interface FailureLimitOptions {
  windowMs: number;
  /** Failures per key per window; the next request after that many is refused. */
  limit: number;
  keyGenerator: (req: Request) => string;
  /** True when the error a route passed on is a failure to count. */
  isFailure: (err: unknown, req: Request) => boolean;
  /** Called instead of the route once `limit` failures were counted (express-rate-limit's handler signature). */
  handler: (req: Request, res: Response, next: NextFunction, options: { windowMs: number; keyGenerator: (req: Request) => string }) => unknown;
}

/** The two halves of a failure limiter: `check` goes before the route, `count` (an error middleware) right after it. */
export interface FailureLimiter { check: RequestHandler; count: ErrorRequestHandler }

/**
 * A limiter that counts only failures (ASVS 5.0 V2.2.1: anti-automation without refusing people who share an
 * address): `check` refuses a request once its key has `limit` counted failures in the window; `count`, placed after
 * the route, adds one for each error `isFailure` accepts before the error answer is sent (so the next request already
 * sees it), then passes the error on. Successes never count, and requests in flight are not counted, so 30 learners
 * opening good links at once from one address all pass. Shared store (rate_limits); a database error lets the request
 * through and is logged.
 */
export function failureRateLimit(db: Db, prefix: string, opts: FailureLimitOptions): FailureLimiter {
  const store = new DbRateLimitStore(db, prefix);
  store.init({ windowMs: opts.windowMs } as Options);
  const check: RequestHandler = async (req, res, next) => {
    try {
      const seen = await store.get(opts.keyGenerator(req));
      if (seen && seen.totalHits >= opts.limit) return void await opts.handler(req, res, next, { windowMs: opts.windowMs, keyGenerator: opts.keyGenerator });
    } catch (err) {
      console.error(`[rate-limit] ${prefix} store failed, request let through:`, (err as Error).message);
    }
    next();
  };
  const count: ErrorRequestHandler = async (err, req, _res, next) => {
    if (opts.isFailure(err, req)) {
      try { await store.increment(opts.keyGenerator(req)); } catch (e) { console.error(`[rate-limit] ${prefix} counting a failure failed:`, (e as Error).message); }
    }
    next(err);
  };
  return { check, count };
}
