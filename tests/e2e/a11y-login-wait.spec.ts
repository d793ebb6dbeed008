/**
 * The proof-of-work wait on /login, by keyboard and at 200 % text on a phone (accessibility audit F5, WCAG 2.4.3,
 * 4.1.3): the form has one status region from the start, whose text becomes 'Checking your connection… this takes a
 * few seconds.' (a region created with its text may not be announced); while the browser works the focus stays on
 * the Log in button (marked aria-disabled, not disabled, which dropped the focus to the page) and the message is
 * scrolled into view. The production PBKDF2 cost makes the wait several seconds, long enough to look.
 */
import { test, expect } from '@playwright/test';
import { failLoginsUntilProofAsked, uniqueEmail } from './fixtures.ts';

const CHECKING = 'Checking your connection… this takes a few seconds.';

test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

test('Enter on Log in during the proof-of-work: one status region that says why, focus kept on the button, message on screen', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('pow-a11y');
  const password = 'Learner-pass-2026';
  const api = page.request;
  const headers = { origin: baseURL! };
  expect((await api.post('/api/auth/register', { headers, data: { firstName: 'Lerato', lastName: 'Dlamini', email, password, confirmPassword: password, phone: '0821234567', terms: true } })).status()).toBe(201);
  await api.post('/api/auth/logout', { headers });
  await failLoginsUntilProofAsked(api, headers, email);
  await page.context().clearCookies();

  await page.goto('/login');
  await page.waitForLoadState('networkidle');
  await page.addStyleTag({ content: 'html{font-size:200% !important}' });
  const form = page.getByRole('form', { name: 'Log in' });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  const button = form.getByRole('button', { name: /^Log in$/ });
  await button.focus();
  // Hydrated (the form's island runs on first use) and, before anything is sent, one empty status region.
  await expect(form.locator('[role=status]')).toHaveCount(1);
  await expect(form.locator('[role=status]')).toHaveText('');
  // The login that carries the solution waits until the checks below are done: a fast solve signed in and left the
  // page while they ran (CI: "Execution context was destroyed, most likely because of a navigation").
  let release!: () => void;
  const solved = new Promise<void>((r) => { release = r; });
  await page.route('**/auth/login', async (route) => {
    if ((route.request().postData() ?? '').includes('"altcha"')) await solved;
    await route.fallback();
  });
  await page.keyboard.press('Enter');

  const status = form.locator('[role=status]');
  await expect(status).toHaveText(CHECKING);
  await expect(status).toHaveCount(1);
  expect(await page.evaluate(() => document.activeElement !== document.body && document.activeElement !== null)).toBe(true);
  await expect(form.getByRole('button', { name: 'Logging in...' })).toBeFocused();
  await expect(form.getByRole('button', { name: 'Logging in...' })).toHaveAttribute('aria-disabled', 'true');
  await expect(status).toBeInViewport();
  release();
  await expect(page).toHaveURL(/\/dashboard\/student/, { timeout: 90_000 });
});
