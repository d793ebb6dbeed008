/**
 * POST /api/contact → 201 {message:{id,createdAt}} (200 with the same id when the idempotency key was seen);
 * 400 with §5-style field messages; 429 'Too many messages…' after `limit` messages per IP per window.
 * GET /api/admin/contact-messages?page&pageSize (requireAdmin) → {messages, total, page, pageSize, pages} newest first (25 a page by default).
 * The idempotency key comes from the body or the Idempotency-Key header.
 */
import { Router } from 'express';
import type { AppDeps } from '../../deps.ts';
import { validate } from '../../http/validate.ts';
import { requireAdmin } from '../../http/guards.ts';
import { ContactMessageSchema } from '#contracts/contact.ts';
import { AdminPageQuerySchema } from '#contracts/admin.ts';
import { formRateLimit, idempotencyHeader, type FormLimit } from '../../http/public-forms.ts';
import { contactMessagesForAdmin, submitContactMessage } from './contact.service.ts';
import { siteOrigin } from '../../mail/links.ts';

/** Public router for POST /api/contact (spec §7): `opts` overrides the per-IP limit (count, window ms) for tests. */
export function contactRouter(deps: AppDeps, opts: FormLimit = {}): Router {
  const r = Router();
  const limiter = formRateLimit(deps.database.db, 'contact:', 'Too many messages from this address. Please try again later or call us.', opts);
  r.post('/', limiter, idempotencyHeader, validate(ContactMessageSchema), async (req, res) => {
    const { message, created } = await submitContactMessage(deps.database.db, deps.config.OFFICE_EMAIL, req.body, siteOrigin(deps.config));
    res.status(created ? 201 : 200).json({ message: { id: message.id, createdAt: message.createdAt } });
  });
  return r;
}

/** Admin router for GET /api/admin/contact-messages?page&pageSize → {messages, total, page, pageSize, pages}, newest first (issue #6). */
export function adminContactRouter(deps: AppDeps): Router {
  const r = Router();
  const pageQuery = validate(AdminPageQuerySchema, 'query');
  r.get('/', requireAdmin, pageQuery, async (req, res) => {
    res.json(await contactMessagesForAdmin(deps.database.db, pageQuery.data(req)));
  });
  return r;
}
