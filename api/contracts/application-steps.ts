/**
 * Zod-free constants of the application form (spec §2 steps, §3 document slots, §5 year bounds), so the
 * applicant islands can use them without loading zod; applications.ts re-exports them next to the schemas.
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
