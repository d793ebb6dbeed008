/**
 * POST /api/contact → 201 {message:{id,createdAt}} (200 with the same id when the idempotency key was seen);
 * 400 with §5-style field messages; 429 'Too many messages…' after `limit` messages per IP per window.
 * GET /api/admin/contact-messages (requireAdmin) → {messages} newest first.
 * The idempotency key comes from the body or the Idempotency-Key header.
 */
import { Router } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Db } from '../../db/client.ts';
import { sharedRateLimit } from '../../http/rate-limit-store.ts';
import type { AppDeps } from '../../app.ts';
import { validate } from '../../http/validate.ts';
import { requireAdmin } from '../../http/guards.ts';
import { HttpError } from '../../http/errors.ts';
import { ContactMessageSchema, IdempotencyKeySchema } from '#contracts/contact.ts';
import { contactMessagesForAdmin, submitContactMessage } from './contact.service.ts';

export interface FormLimit { limit?: number; windowMs?: number }

/** Moves a valid Idempotency-Key header into the body before validation. */
export const idempotencyHeader: import('express').RequestHandler = (req, _res, next) => {
  const h = req.get('Idempotency-Key');
  if (h && req.body && typeof req.body === 'object' && !req.body.idempotencyKey && IdempotencyKeySchema.safeParse(h).success) req.body.idempotencyKey = h;
  next();
};

/** Per-IP limiter for public forms, counted in the shared store under `prefix`; only stored submissions (2xx) count. */
export function formRateLimit(db: Db, prefix: string, message: string, { limit = 5, windowMs = 10 * 60_000 }: FormLimit = {}) {
  return sharedRateLimit(db, prefix, {
    windowMs, limit, standardHeaders: 'draft-8', legacyHeaders: false, skipFailedRequests: true,
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? ''),
    handler: (_req, _res, next) => next(new HttpError(429, 'rate_limited', message)),
  });
}

export function contactRouter(deps: AppDeps, opts: FormLimit = {}): Router {
  const r = Router();
  const limiter = formRateLimit(deps.database.db, 'contact:', 'Too many messages from this address. Please try again later or call us.', opts);
  r.post('/', limiter, idempotencyHeader, validate(ContactMessageSchema), async (req, res) => {
    const { message, created } = await submitContactMessage(deps.database.db, deps.config.OFFICE_EMAIL, req.body);
    res.status(created ? 201 : 200).json({ message: { id: message.id, createdAt: message.createdAt } });
  });
  return r;
}

export function adminContactRouter(deps: AppDeps): Router {
  const r = Router();
  r.get('/', requireAdmin, async (_req, res) => {
    res.json({ messages: await contactMessagesForAdmin(deps.database.db) });
  });
  return r;
}
