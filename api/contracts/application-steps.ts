/**
 * Zod-free constants of the application form and its tracking (spec §2 steps, §3 document slots and option
 * sets, §4 filter groups, §9 fee, file size and year bounds), so the applicant islands can use them without
 * loading zod. common.ts and applications.ts re-export them.
 */
import { todayInSouthAfrica } from './sa-calendar.ts';

/** 409 message of a draft save whose `revision` is not the stored draft's (a save from another tab or device came first). */
export const DRAFT_CHANGED = 'This application was changed in another tab or on another device.';
/**
 * 409 `draft_other_user` message of a draft save or delete whose `forUserId` is not the session's user: the wizard
 * belongs to one account and the browser is now logged in as another (a shared computer; security audit, November
 * 2026). Read by the wizard's owner, so it speaks to them: the wizard's status line and "Your session has ended" show
 * it (draft-store.ts 'other-account'; the dialog titled DRAFT_OTHER_USER_TITLE), as logging in there logs the other
 * account out of this browser.
 */
export const DRAFT_OTHER_USER = 'Another account is logged in on this browser. Your draft is saved on this device; log in again to save it to your account.';
/** Title of the log-in-again dialog whose text is DRAFT_OTHER_USER (not "Your session has ended": nobody was logged out). */
export const DRAFT_OTHER_USER_TITLE = 'Another account is logged in';

/** Wizard steps (spec §2 Application form): index 0..4. */
export const WIZARD_STEPS = ['Personal Information', 'Academic History', 'Supporting Documents', 'Payment', 'Review & Submit'] as const;

/** Document slots, spec §3; values are upload ids (DESIGN §4 Documents). */
export const DOCUMENT_SLOTS = [
  { key: 'idDocument', label: 'ID Document', required: true },
  { key: 'transcripts', label: 'Qualifications Documents', required: true },
  { key: 'englishProficiency', label: 'Matric Statements', required: false },
  { key: 'recommendationLetter', label: 'CV or Resume', required: false },
] as const;

/** First school year of the academic history, spec §9. */
export const YEAR_MIN = 1990;
/**
 * Last school year: the current calendar year in South Africa (DESIGN §6 — spec §9's 2023 would refuse every later
 * matriculant), from todayInSouthAfrica so the browser (any time zone) and the server (UTC) agree between 00:00 and
 * 02:00 SAST on 1 January. A function, so a long-running server moves on at New Year.
 */
export const currentYear = (): number => Number(todayInSouthAfrica().slice(0, 4));
/** The current year when this module loaded; for option lists. Validation uses currentYear(). */
export const YEAR_MAX = currentYear();
export const YEAR_ORDER_MESSAGE = 'End year cannot be before the start year';

/**
 * Problem with a school year 'YYYY' (trimmed), or null when it lies in YEAR_MIN..currentYear().
 * Message: 'Year must be between 1990 and <current year>'.
 */
export function yearProblem(v: string): string | null {
  const max = currentYear();
  return /^\d{4}$/.test(v) && Number(v) >= YEAR_MIN && Number(v) <= max ? null : `Year must be between ${YEAR_MIN} and ${max}`;
}

/** YEAR_ORDER_MESSAGE when both years are valid and the end comes before the start, else null. */
export function yearOrderProblem(from: unknown, to: unknown): string | null {
  if (typeof from !== 'string' || typeof to !== 'string' || yearProblem(from.trim()) || yearProblem(to.trim())) return null;
  return Number(to) < Number(from) ? YEAR_ORDER_MESSAGE : null;
}

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

/**
 * Application fee, spec §9: $50.00, sent as '50.00' — the default only. The fee charged is the admin setting
 * (/admin/settings, else the APPLICATION_FEE env var), which pages read from GET /api/settings/application-fee;
 * this constant is what they show when that read cannot be made and nothing newer is known (offline, first visit).
 */
export const APPLICATION_FEE = '50.00';

/** A fee 'NN.NN' as shown to people: '$50.00' (spec §9 wording). */
export const feeLabel = (fee: string): string => `$${fee}`;

/**
 * The 409 message when a submit's `expectedFee` is not the fee charged now:
 * 'The application fee changed to $75.50. Please review and confirm the new fee.'
 */
export const feeChangedMessage = (fee: string): string => `The application fee changed to ${feeLabel(fee)}. Please review and confirm the new fee.`;
/** Max upload size in bytes, spec §9 (5 MB). */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

/** How long the wizard waits after the last change before it saves the draft to the server (ms; draft-store.ts). */
export const DRAFT_SAVE_PAUSE_MS = 1200;
