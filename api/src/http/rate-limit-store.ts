/**
 * express-rate-limit store kept in the `rate_limits` table, so every API instance behind a load balancer
 * counts against the same limits (issue #8 "Two instances"; issue #4 login limits per account and per IP).
 * Works on PGlite and PostgreSQL alike. Windows are fixed: they open on the first hit and close at
 * `reset_at`, measured by the database clock so instances with skewed clocks agree.
 * A database error never locks people out: `sharedRateLimit` sets passOnStoreError, so the request
 * goes through unlimited and the error is logged.
 */
import rateLimit, { type Options, type RateLimitRequestHandler, type Store, type IncrementResponse, type ClientRateLimitInfo } from 'express-rate-limit';
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
