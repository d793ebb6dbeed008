/**
 * Shared set-up of the wizard's "no lost work" specs (draft-signed-out-session, wizard-no-lost-work,
 * logout-pending-draft, old-browsers): a new applicant, a server draft of course 2 opened on a given step, logging in
 * again from the draft status line, and a second tab that logs out.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { uniqueEmail } from './fixtures.ts';
import { DRAFT_OTHER_USER_TITLE } from '../../api/contracts/application-steps.ts';

/** The server draft of the wizard on /apply/2. */
export const DRAFT = '/api/applications/draft?key=course-2';
export const PASSWORD = 'secret123';
const PERSONAL = { dateOfBirth: '2001-04-12', nationality: 'za', addressLine1: '12 Church Street', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za' };
/** A high school entry without its grade (the specs type the grade). */
export const SCHOOL = { name: 'Mbilwi Secondary', qualification: 'National Senior Certificate', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', grade: '' };

/** Registers a new applicant (the page's context holds the session) with an e-mail tagged `tag`; returns the e-mail. */
export async function signUp(page: Page, tag: string): Promise<string> {
  const email = uniqueEmail(tag);
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Thandi', lastName: 'Mokoena', email, password: PASSWORD, confirmPassword: PASSWORD, phone: '0821234567', terms: true },
  });
  expect(res.status()).toBe(201);
  return email;
}

/** Stores a server draft of course 2 at `step` (0-based, with `more` data) and opens the wizard on it, its `heading` shown. */
export async function openAt(page: Page, step: number, heading: string, more: Record<string, unknown> = {}): Promise<void> {
  const put = await page.request.put(DRAFT, { data: { step, data: { courseId: '2', ...PERSONAL, academicHistory: { highSchool: SCHOOL }, ...more, savedAt: new Date().toISOString() } } });
  expect(put.status()).toBe(200);
  await page.goto('/apply/2');
  await expect(page.getByRole('heading', { name: heading })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('draft-status')).toHaveText('Draft saved');
}

/** The status of every draft save (PUT) the page makes from now on, in order (the array fills as they answer). */
export function recordDraftPuts(page: Page): number[] {
  const puts: number[] = [];
  page.on('response', (r) => { if (r.url().includes('/api/applications/draft') && r.request().method() === 'PUT') puts.push(r.status()); });
  return puts;
}

/** The "Your session has ended" dialog the wizard opens when a draft save cannot go to the account. */
export const sessionEndedDialog = (page: Page): Locator => page.getByRole('dialog', { name: 'Your session has ended' });

/** The same dialog when the draft's account is not the one logged in on this browser: "Another account is logged in". */
export const otherAccountDialog = (page: Page): Locator => page.getByRole('dialog', { name: DRAFT_OTHER_USER_TITLE });

/**
 * "Log in again" on the draft status line, the password in `again` ("Your session has ended" unless given), "Log in
 * and save": the dialog closes, the status says 'Draft saved' and the server draft holds the high school grade `grade`.
 */
export async function logInAgainSendsDraft(page: Page, grade: string, again: Locator = sessionEndedDialog(page)): Promise<void> {
  await page.getByTestId('draft-status').getByRole('button', { name: 'Log in again' }).click();
  await expect(again).toBeVisible();
  await again.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await again.getByRole('button', { name: 'Log in and save' }).click();
  await expect(again).toHaveCount(0);
  await expect(page.getByTestId('draft-status')).toHaveText('Draft saved');
  await expect.poll(async () => (await (await page.request.get(DRAFT)).json()).draft?.data?.academicHistory?.highSchool?.grade).toBe(grade);
}

/** The high school grade field of the wizard's Academic History step. */
export const GRADE_FIELD = '#f-academicHistory-highSchool-grade';

/**
 * Two tabs of one browser (one context, so one session) for the log-out specs: a new applicant's wizard on Academic
 * History in `tabA`, and a second tab on the student dashboard with its phone menu open, "Log out" one tap away.
 * Every window.confirm either tab opens is answered Cancel, its message recorded in `asked`.
 */
export async function wizardAndSecondTab(tabA: Page, tag: string): Promise<{ email: string; tabB: Page; asked: string[] }> {
  const email = await signUp(tabA, tag);
  await openAt(tabA, 1, 'Academic History');
  const tabB = await tabA.context().newPage();
  await tabB.goto('/dashboard/student');
  await expect(tabB.getByRole('heading', { name: 'Welcome, Thandi' })).toBeVisible({ timeout: 60_000 });
  const asked: string[] = [];
  for (const tab of [tabA, tabB]) tab.on('dialog', (d) => { asked.push(d.message()); void d.dismiss(); });
  await tabB.getByRole('button', { name: 'Open menu' }).click();
  return { email, tabB, asked };
}

/**
 * Taps "Log out" in the open phone menu of `tab` and waits until the log-out either asked a question (one more in
 * `asked`) or took the tab away from its page (home, or /login: the page's island, seeing nobody signed in, may win).
 */
export async function logOutInOpenMenu(tab: Page, asked: string[]): Promise<void> {
  const before = asked.length;
  const from = new URL(tab.url()).pathname;
  await tab.locator('[data-drawer] [data-logout]').click();
  await expect.poll(() => asked.length > before || new URL(tab.url()).pathname !== from, { timeout: 20_000 }).toBe(true);
}
