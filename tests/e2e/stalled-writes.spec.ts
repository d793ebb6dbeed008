/**
 * Log in and registration on a connection that stalls (the request leaves, no answer ever comes): after 30 s the
 * form says "This is taking too long. Check your connection and try again.", its button works again and what was
 * typed stays. The page's clock is Playwright's (page.clock), moved on past 30 s instead of waiting, with
 * AbortSignal.timeout deleted so the time-out runs on the page's setTimeout (as on iOS 15 and Chrome < 103).
 */
import { expect, test, type Page } from '@playwright/test';
import { uniqueEmail } from './fixtures.ts';

const TOO_LONG = 'This is taking too long. Check your connection and try again.';

/** Old browser, fake clock, and `path` held forever; resolves once the page has sent it. */
async function stall(page: Page, path: string): Promise<() => Promise<void>> {
  await page.addInitScript(() => { delete (AbortSignal as { timeout?: unknown }).timeout; });
  await page.clock.install();
  let sent!: () => void;
  const request = new Promise<void>((r) => { sent = r; });
  await page.route(path, () => { sent(); /* never answered */ });
  return () => request;
}

test('a log-in with no answer gives up after 30 s with a message; the button works again and the e-mail stays', async ({ page }) => {
  const sent = await stall(page, '**/api/colfront/auth/login');
  await page.goto('/login');
  await page.getByLabel('Email').fill('thandi@example.com');
  await page.getByLabel('Password', { exact: true }).fill('secret123');
  await page.getByRole('button', { name: /^Log in$/ }).click();
  await sent();
  await expect(page.getByRole('button', { name: 'Logging in...' })).toBeDisabled();
  await page.clock.fastForward('00:31');
  await expect(page.getByRole('alert').filter({ hasText: TOO_LONG })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Log in$/ })).toBeEnabled();
  await expect(page.getByLabel('Email')).toHaveValue('thandi@example.com');
});

test('a registration with no answer gives up after 30 s with a message; the button works again and the form stays filled', async ({ page }) => {
  const sent = await stall(page, '**/api/colfront/auth/register');
  const email = uniqueEmail('stalled');
  await page.goto('/register-simple');
  await page.getByLabel('First name').fill('Thandi');
  await page.getByLabel('Last name').fill('Mokoena');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('secret123');
  await page.getByLabel('Confirm password').fill('secret123');
  await page.getByLabel('Phone').fill('0821234567');
  await page.getByRole('checkbox', { name: /I agree to the terms and conditions/ }).check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await sent();
  await expect(page.getByRole('button', { name: 'Creating account...' })).toBeDisabled();
  await page.clock.fastForward('00:31');
  await expect(page.getByTestId('toast').getByText(TOO_LONG)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create account' })).toBeEnabled();
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByLabel('First name')).toHaveValue('Thandi');
});
