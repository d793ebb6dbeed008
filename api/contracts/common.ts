/**
 * Shared constants and the one error shape (DESIGN §4), used by the API and the islands.
 * Imports only zod.
 */
import { z } from 'zod';

/** Application statuses, spec §4. */
export const APPLICATION_STATUSES = ['pending', 'under_review', 'documents_required', 'payment_pending', 'accepted', 'rejected'] as const;
export const ApplicationStatusSchema = z.enum(APPLICATION_STATUSES);
export type ApplicationStatus = z.infer<typeof ApplicationStatusSchema>;

/** Progress percent per status, spec §4 ("other 0"). */
export const STATUS_PROGRESS: Record<string, number> = {
  pending: 20, under_review: 40, documents_required: 30, payment_pending: 60, accepted: 80, rejected: 100,
};
export function progressFor(status: string): number { return STATUS_PROGRESS[status] ?? 0; }

/** Badge colours, spec §4. */
export const STATUS_COLOUR: Record<ApplicationStatus, 'yellow' | 'blue' | 'orange' | 'green' | 'red' | 'purple'> = {
  pending: 'yellow', under_review: 'blue', documents_required: 'orange', accepted: 'green', rejected: 'red', payment_pending: 'purple',
};

/** Human label for a status, e.g. 'under_review' → 'Under Review'. */
export function statusLabel(status: string): string {
  return status.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

/** Filter groups of My Applications tabs, spec §4. */
export const FILTER_GROUPS: Record<'all' | 'pending' | 'accepted' | 'completed', readonly string[] | null> = {
  all: null,
  pending: ['pending', 'under_review', 'documents_required', 'payment_pending'],
  accepted: ['accepted'],
  completed: ['accepted', 'rejected'],
};

export const COURSE_LEVELS = ['certificate', 'diploma', 'degree'] as const;
export const DEPARTMENTS = ['Business', 'Technology', 'Healthcare', 'Arts and Design'] as const;

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
export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Whole-number id from a path parameter, e.g. "/courses/12". */
export const IdParamSchema = z.object({ id: z.coerce.number().int().positive().max(2147483647) });

/** Trims strings before checking them. */
export const trimmed = () => z.string().trim();
