/**
 * Middleware shared by the public forms (contact, assessment-centre booking): an Idempotency-Key header copied
 * into the body, and a per-IP rate limit counted in the database-backed store (shared by every instance).
 */
import type { RequestHandler } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Db } from '../db/client.ts';
import { IdempotencyKeySchema } from '#contracts/contact.ts';
import { mailboxKey } from '#contracts/mailbox.ts';
import { HttpError } from './errors.ts';
import { sharedRateLimit } from './rate-limit-store.ts';

/**
 * Stored submissions per submitted e-mail address per 10 minutes (ASVS 5.0 V2.2.1 anti-automation). Keyed on the
 * address typed into the form, not the client IP: a school lab or a mobile carrier's NAT puts many people behind one
 * IP (audit L finding D: 25 of 30 lab learners were refused when the contact form allowed 5 per IP).
 */
export const FORM_PER_EMAIL = { limit: 5, windowMs: 10 * 60_000 };
/**
 * Stored submissions per client IP per 10 minutes (ASVS 5.0 V2.2.1): only a flood ceiling, well above a lab of 30
 * learners each sending one message and one booking.
 */
export const FORM_PER_IP = { limit: 60, windowMs: 10 * 60_000 };

/**
 * `limit` stored submissions per submitted e-mail address per `windowMs` milliseconds (default FORM_PER_EMAIL), and
 * `ipLimit` per client IP in the same window (default FORM_PER_IP.limit).
 */
export interface FormLimit { limit?: number; windowMs?: number; ipLimit?: number }

/** Moves a valid Idempotency-Key header into the body (idempotencyKey) before validation; a body key wins. */
export const idempotencyHeader: RequestHandler = (req, _res, next) => {
  const h = req.get('Idempotency-Key');
  if (h && req.body && typeof req.body === 'object' && !req.body.idempotencyKey && IdempotencyKeySchema.safeParse(h).success) req.body.idempotencyKey = h;
  next();
};

/**
 * Limiter for a public form, counted in the shared store under `prefix`: per submitted e-mail address (`limit`) and
 * per client IP as a flood ceiling (`ipLimit`); the address is counted as the mailbox it reaches (mailboxKey); only stored submissions (2xx) count. Over either: 429 `rate_limited`
 * with `message`. Requests without a usable e-mail are counted under the IP only (validation refuses them anyway).
 */
export function formRateLimit(db: Db, prefix: string, message: string, { limit = FORM_PER_EMAIL.limit, windowMs = FORM_PER_EMAIL.windowMs, ipLimit = FORM_PER_IP.limit }: FormLimit = {}): RequestHandler {
  const handler: RequestHandler = (_req, _res, next) => next(new HttpError(429, 'rate_limited', message));
  const common = { windowMs, standardHeaders: 'draft-8', legacyHeaders: false, skipFailedRequests: true, handler } as const;
  const perIp = sharedRateLimit(db, `${prefix}ip:`, { ...common, limit: ipLimit, keyGenerator: (req) => ipKeyGenerator(req.ip ?? '') });
  const perEmail = sharedRateLimit(db, `${prefix}email:`, { ...common, limit,
    keyGenerator: (req) => mailboxKey(req.body?.email),
    skip: (req) => typeof req.body?.email !== 'string' || !req.body.email.includes('@') });
  return (req, res, next) => perIp(req, res, (err?: unknown) => (err ? next(err) : perEmail(req, res, next)));
}
