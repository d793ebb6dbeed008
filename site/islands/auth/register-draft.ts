/**
 * What is typed into the short registration form survives a reload or the browser's Back (usability audit, November
 * 2026): the names, e-mail, phone, course and terms box are kept in this tab's sessionStorage under
 * `college.register-draft` while the form is filled in, and put back when the page loads again. The passwords are
 * never stored. The copy ends with the tab, or at once when the account is created (`clearRegisterDraft`).
 *
 * The form's JavaScript loads only on first use (client:interact), so restoring and saving is a small inline script
 * the page renders right after the island (site/components/RegisterDraftScript.astro, written out in the page rather
 * than injected as raw HTML): it fills the pre-rendered inputs before anyone looks at them, and the island then starts
 * from those values (typed-values.ts). The page's CSP allows it by its hash (api/src/site-build/csp.ts). The course list arrives after hydration, so a kept course is chosen then
 * (`draftCourseId`). The Student Registration wizard hydrates at once and keeps its own draft the same way
 * (`readWizardDraft`, `saveWizardDraft`, key `college.register-wizard-draft`), passwords and the ID number excepted.
 */

/** sessionStorage key of the draft: a JSON object of the kept fields. */
export const REGISTER_DRAFT_KEY = 'college.register-draft';

/** The course id kept in the draft ('' when none, 'none' counts as none); never throws (storage may be blocked). */
export function draftCourseId(): string {
  try {
    const id = JSON.parse(sessionStorage.getItem(REGISTER_DRAFT_KEY) ?? 'null')?.courseId;
    return typeof id === 'string' && id !== 'none' ? id : '';
  } catch { return ''; }
}

/** Forgets both forms' drafts (the account was created); never throws. */
export function clearRegisterDraft(): void {
  try { sessionStorage.removeItem(REGISTER_DRAFT_KEY); sessionStorage.removeItem(WIZARD_DRAFT_KEY); } catch { /* storage blocked: nothing was kept */ }
}

/** sessionStorage key of the Student Registration wizard's draft (RegisterWizard.tsx): its answers, no passwords. */
export const WIZARD_DRAFT_KEY = 'college.register-wizard-draft';

/** The wizard's kept answers, or null (none, unreadable, or storage blocked). Never holds passwords. */
export function readWizardDraft(): Record<string, unknown> | null {
  try {
    const v = JSON.parse(sessionStorage.getItem(WIZARD_DRAFT_KEY) ?? 'null');
    return v && typeof v === 'object' ? v : null;
  } catch { return null; }
}

/**
 * Keeps the wizard's answers without password, confirmPassword and the ID number; never throws. The ID number is left
 * out because registration happens on shared computers (school labs, internet cafés) before there is an account to
 * log out of, and a South African ID number is personal information under POPIA; it is typed again after a reload.
 */
export function saveWizardDraft(values: Record<string, unknown>): void {
  const { password: _p, confirmPassword: _c, idNumber: _i, ...kept } = values;
  try { sessionStorage.setItem(WIZARD_DRAFT_KEY, JSON.stringify(kept)); } catch { /* storage full or blocked: no draft */ }
}
