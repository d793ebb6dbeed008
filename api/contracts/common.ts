/**
 * Shared constants and the one error shape (DESIGN §4), used by the API and the islands.
 * Imports only zod.
 */
import { z } from 'zod';

import { APPLICATION_STATUSES } from './statuses.ts';
export { APPLICATION_STATUSES, STATUS_PROGRESS, progressFor, STATUS_COLOUR, statusLabel, COURSE_LEVELS, DEPARTMENTS } from './statuses.ts';
export type { ApplicationStatus } from './statuses.ts';
export const ApplicationStatusSchema = /*#__PURE__*/ z.enum(APPLICATION_STATUSES);

/** Filter groups of My Applications tabs, spec §4. */
export const FILTER_GROUPS: Record<'all' | 'pending' | 'accepted' | 'completed', readonly string[] | null> = {
  all: null,
  pending: ['pending', 'under_review', 'documents_required', 'payment_pending'],
  accepted: ['accepted'],
  completed: ['accepted', 'rejected'],
};


/** Option sets, spec §3. */
export const COUNTRY_OPTIONS = [
  { value: 'za', label: 'South Africa' }, { value: 'us', label: 'United States' }, { value: 'ca', label: 'Canada' },
  { value: 'uk', label: 'United Kingdom' }, { value: 'au', label: 'Australia' }, { value: 'other', label: 'Other' },
] as const;
export const COUNTRY_CODES = ['za', 'us', 'ca', 'uk', 'au', 'other'] as const;

/** Application fee, spec §9: $50.00, sent as '50.00'. The server's configuration is authoritative. */
export const APPLICATION_FEE = '50.00';
/** Max upload size in bytes, spec §9 (5 MB). */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

/** The one error body (DESIGN §4). */
export const ErrorBodySchema = /*#__PURE__*/ z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Whole-number id from a path parameter, e.g. "/courses/12". */
export const IdParamSchema = /*#__PURE__*/ z.object({ id: z.coerce.number().int().positive().max(2147483647) });

/** Trims strings before checking them. */
export const trimmed = () => z.string().trim();
