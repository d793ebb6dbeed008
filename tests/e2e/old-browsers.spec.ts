/**
 * The applicant portal on the older browsers of cheap phones (iOS 15, Chrome/WebView < 103, Samsung Internet < 20).
 * An init script deletes the API the old browser lacks before any page script runs, as the device audit did: a page
 * must then work as it does on a new browser, not fall back to "offline" or send the person to /login.
 */
import { expect, test, type Page } from '@playwright/test';
import { fillAssessmentDetails, nextDate, uniqueEmail } from './fixtures.ts';
import { GRADE_FIELD, logOutInOpenMenu, wizardAndSecondTab } from './wizard-draft.ts';

/** Registers a student through the API in the page's own cookie jar (signed in afterwards). */
async function signUp(page: Page) {
  const email = uniqueEmail('oldphone');
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Thandi', lastName: 'Mokoena', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true },
  });
  expect(res.status()).toBe(201);
  return { email, password: 'secret123' };
}

test('without AbortSignal.timeout a signed-in student sees the dashboard, My Applications and the wizard with its courses', async ({ page }) => {
  await page.addInitScript(() => { delete (AbortSignal as { timeout?: unknown }).timeout; });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signUp(page);

  await page.goto('/dashboard/student');
  await expect(page.getByRole('heading', { name: 'Welcome, Thandi' })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/student\/?$/);

  await page.goto('/my-applications');
  await expect(page.getByRole('heading', { name: 'No Applications Yet' })).toBeVisible();
  await expect(page).toHaveURL(/\/my-applications\/?$/);

  await page.goto('/apply/1');
  await expect(page.getByLabel('First name')).toBeVisible();
  await expect(page.getByTestId('offline-notice')).toHaveCount(0);
  // The course of the link was loaded (the course list failed before: 'Error Loading Courses: Unable to load courses').
  await expect(page.getByText('Applying for:')).toBeVisible();
  await expect(page.getByText('Error Loading Courses')).toHaveCount(0);
  expect(errors).toEqual([]);
});


test('without Object.hasOwn (Chrome < 93, Safari < 15.4) an Assessment Centre booking is accepted', async ({ page }) => {
  await page.addInitScript(() => { delete (Object as { hasOwn?: unknown }).hasOwn; });
  await page.goto('/assessment-centre');
  await page.getByLabel('First Name').fill('Lerato');
  await page.getByLabel('Last Name').fill('Ndlovu');
  await page.getByLabel('Email Address').fill(uniqueEmail('lerato'));
  await fillAssessmentDetails(page);
  await page.getByLabel('Preferred Date').fill(nextDate(2, [1, 2, 3, 4, 5]));
  await page.getByRole('button', { name: 'Submit Application' }).click();
  await expect(page.getByText('Assessment Application Submitted')).toBeVisible();
  await expect(page.getByText('Submission Failed')).toHaveCount(0);
});

test('without Array.prototype.at (Chrome < 92, Safari < 15.4) a signed-in student who opens /login goes on to the dashboard', async ({ page }) => {
  await page.addInitScript(() => { delete (Array.prototype as { at?: unknown }).at; });
  await signUp(page);
  await page.goto('/login');
  await expect(page).toHaveURL(/\/dashboard\/student\/?$/);
});

test.describe('without BroadcastChannel (Safari < 15.4)', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('"Log out" in another tab while the wizard waits to save asks first, as it did, and is not held up', async ({ page: tabA, context }) => {
    await context.addInitScript(() => { delete (window as { BroadcastChannel?: unknown }).BroadcastChannel; });
    const errors: string[] = [];
    tabA.on('pageerror', (e) => errors.push(e.message));
    const { tabB, asked } = await wizardAndSecondTab(tabA, 'oldphone-logout');
    tabB.on('pageerror', (e) => errors.push(e.message));

    await tabA.locator(GRADE_FIELD).fill('81%');
    await logOutInOpenMenu(tabB, asked);
    // The other tab cannot be asked to send: its waiting change counts as unsent, so the log-out asks (Cancel).
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('not reached your account');
    expect((await tabB.request.get('/api/auth/me')).status()).toBe(200);

    // Tab A sends it after its own pause; the next "Log out" has nothing to ask.
    await expect(tabA.getByTestId('draft-status')).toHaveText('Draft saved');
    await logOutInOpenMenu(tabB, asked);
    expect(asked).toHaveLength(1);
    expect((await tabB.request.get('/api/auth/me')).status()).toBe(401);
    expect(errors).toEqual([]);
  });
});
