/**
 * Zod-free constants of the application form and its tracking (spec §2 steps, §3 document slots and option
 * sets, §4 filter groups, §9 fee, file size and year bounds), so the applicant islands can use them without
 * loading zod. common.ts and applications.ts re-export them.
 */

/** Wizard steps (spec §2 Application form): index 0..4. */
export const WIZARD_STEPS = ['Personal Information', 'Academic History', 'Supporting Documents', 'Payment', 'Review & Submit'] as const;

/** Document slots, spec §3; values are upload ids (DESIGN §4 Documents). */
export const DOCUMENT_SLOTS = [
  { key: 'idDocument', label: 'ID Document', required: true },
  { key: 'transcripts', label: 'Qualifications Documents', required: true },
  { key: 'englishProficiency', label: 'Matric Statements', required: false },
  { key: 'recommendationLetter', label: 'CV or Resume', required: false },
] as const;

/** Year bounds of the academic history, spec §9. */
export const YEAR_MIN = 1990;
export const YEAR_MAX = 2023;

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
