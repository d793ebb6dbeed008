/**
 * Middleware shared by the public forms (contact, assessment-centre booking): an Idempotency-Key header copied
 * into the body, and a per-IP rate limit counted in the database-backed store (shared by every instance).
 */
import type { RequestHandler } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Db } from '../db/client.ts';
import { IdempotencyKeySchema } from '#contracts/contact.ts';
import { HttpError } from './errors.ts';
import { sharedRateLimit } from './rate-limit-store.ts';

/** `limit` stored submissions per IP per `windowMs` milliseconds (defaults 5 per 10 minutes). */
export interface FormLimit { limit?: number; windowMs?: number }

/** Moves a valid Idempotency-Key header into the body (idempotencyKey) before validation; a body key wins. */
export const idempotencyHeader: RequestHandler = (req, _res, next) => {
  const h = req.get('Idempotency-Key');
  if (h && req.body && typeof req.body === 'object' && !req.body.idempotencyKey && IdempotencyKeySchema.safeParse(h).success) req.body.idempotencyKey = h;
  next();
};

/**
 * Per-IP limiter for a public form, counted in the shared store under `prefix`; only stored submissions (2xx)
 * count. Over the limit: 429 `rate_limited` with `message`.
 */
export function formRateLimit(db: Db, prefix: string, message: string, { limit = 5, windowMs = 10 * 60_000 }: FormLimit = {}): RequestHandler {
  return sharedRateLimit(db, prefix, {
    windowMs, limit, standardHeaders: 'draft-8', legacyHeaders: false, skipFailedRequests: true,
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? ''),
    handler: (_req, _res, next) => next(new HttpError(429, 'rate_limited', message)),
  });
}
