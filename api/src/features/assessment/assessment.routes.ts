/**
 * POST /api/assessment-centre → 201 {booking:{id,createdAt}} (200 with the same id for a repeated
 * idempotency key); 400 with the spec §5 field messages, or 'Preferred date cannot be in the past' /
 * weekend message on preferredDate; 429 after 10 bookings per IP per 10 minutes (a campus computer lab shares one address).
 * GET /api/admin/assessment-bookings?page&pageSize (requireAdmin) → {bookings, total, page, pageSize, pages} newest first (25 a page by default).
 */
import { Router } from 'express';
import type { AppDeps } from '../../deps.ts';
import { validate } from '../../http/validate.ts';
import { requireAdmin } from '../../http/guards.ts';
import { AssessmentBookingSchema } from '#contracts/assessment.ts';
import { AdminPageQuerySchema } from '#contracts/admin.ts';
import { formRateLimit, idempotencyHeader, type FormLimit } from '../../http/public-forms.ts';
import { bookingsForAdmin, submitBooking } from './assessment.service.ts';
import { siteOrigin } from '../../mail/links.ts';

/**
 * Public router for POST /api/assessment-centre (spec §7): `opts` overrides the per-IP limit (count, window ms) for tests.
 */
export function assessmentRouter(deps: AppDeps, opts: FormLimit = {}): Router {
  const r = Router();
  const limiter = formRateLimit(deps.database.db, 'assessment:', 'Too many bookings from this address. Please try again later or call us.', { limit: 10, ...opts });
  r.post('/', limiter, idempotencyHeader, validate(AssessmentBookingSchema), async (req, res) => {
    const { booking, created } = await submitBooking(deps.database.db, deps.config.OFFICE_EMAIL, req.body, new Date(), siteOrigin(deps.config));
    res.status(created ? 201 : 200).json({ booking: { id: booking.id, createdAt: booking.createdAt } });
  });
  return r;
}

/** Admin router for GET /api/admin/assessment-bookings?page&pageSize → {bookings, total, page, pageSize, pages}, newest first (issue #6). */
export function adminAssessmentRouter(deps: AppDeps): Router {
  const r = Router();
  const pageQuery = validate(AdminPageQuerySchema, 'query');
  r.get('/', requireAdmin, pageQuery, async (req, res) => {
    res.json(await bookingsForAdmin(deps.database.db, pageQuery.data(req)));
  });
  return r;
}
