/**
 * Zod-free constants of spec §3/§4 (statuses, progress, badge colours, labels, levels, departments), so a
 * browser island can use them without pulling zod into its bundle. common.ts re-exports them.
 */

/** Application statuses, spec §4. */
export const APPLICATION_STATUSES = ['pending', 'under_review', 'documents_required', 'payment_pending', 'accepted', 'rejected'] as const;
export type ApplicationStatus = typeof APPLICATION_STATUSES[number];

/** Progress percent per status, spec §4 ("other 0"). */
export const STATUS_PROGRESS: Record<string, number> = {
  pending: 20, under_review: 40, documents_required: 30, payment_pending: 60, accepted: 80, rejected: 100,
};
/** Progress bar percent 0–100 for `status` (spec §4 table); 0 for an unknown status. */
export function progressFor(status: string): number { return STATUS_PROGRESS[status] ?? 0; }

/** Badge colours, spec §4. */
export const STATUS_COLOUR: Record<ApplicationStatus, 'yellow' | 'blue' | 'orange' | 'green' | 'red' | 'purple'> = {
  pending: 'yellow', under_review: 'blue', documents_required: 'orange', accepted: 'green', rejected: 'red', payment_pending: 'purple',
};

/** Human label for a status, e.g. 'under_review' → 'Under Review'. */
export function statusLabel(status: string): string {
  return status.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

/** What an accepted applicant does next: the Accepted e-mail's sentence and the Accepted application page's (one wording). */
export const ACCEPTED_NEXT_STEP = 'Congratulations: you have been accepted. The admissions office will contact you about registration and your start date.';

export const COURSE_LEVELS = ['certificate', 'diploma', 'degree'] as const;
export const DEPARTMENTS = ['Business', 'Technology', 'Healthcare', 'Arts and Design'] as const;
