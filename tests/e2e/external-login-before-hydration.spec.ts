/**
 * External login before its island runs (phone audit, 360×740 at 4× CPU: a 2.4 s window). The form has no action:
 * a tap on Connect or Enter in a field before hydration was a native GET to /admin/external-login? that wiped the
 * typed e-mail and password and dropped ?redirect= (and would have put the credentials in the address had the inputs
 * had names). The server-rendered button is disabled, reading 'Loading…', until the island hydrates; the inputs have
 * no names. With JavaScript off the page stays exactly as the island's server-rendered HTML.
 */
import { test, expect } from '@playwright/test';
import { E2E_ADMIN } from './fixtures.ts';

test.use({ viewport: { width: 360, height: 740 } });

test('before hydration: Connect is not actionable, Enter sends nothing, the typing and ?redirect= stay, no password in a URL', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false, serviceWorkers: 'block' });
  expect((await context.request.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
  const page = await context.newPage();
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  const start = '/admin/external-login?redirect=%2Fadmin%2Fexternal-payments';
  await page.goto(start);
  const form = page.getByRole('form', { name: 'Log in to the external system' });
  await expect(form.locator('input[name], select[name], textarea[name]'), 'no named field a native submit could send').toHaveCount(0);
  await form.getByLabel('Email').fill('external.admin@example.com');
  await form.getByLabel('Password').fill('Secret-pass-77');
  const submit = form.locator('button[type=submit]');
  await expect(submit).toBeDisabled();
  await expect(submit).toHaveText('Loading…');
  // Enter in a field is the form's implicit submission: a disabled default button blocks it.
  await form.getByLabel('Password').press('Enter');
  await page.waitForLoadState('load');
  await expect(page).toHaveURL(`${baseURL}${start}`);
  await expect(form.getByLabel('Email')).toHaveValue('external.admin@example.com');
  await expect(form.getByLabel('Password')).toHaveValue('Secret-pass-77');
  expect(urls.filter((u) => u.includes('Secret-pass-77') || u.includes('external.admin')), 'credentials in a URL').toEqual([]);
  expect(urls.filter((u) => new URL(u).pathname === '/admin/external-login'), 'the page was asked for again (a native submit)').toHaveLength(1);
  await context.close();
});

test('once hydrated: the button reads Connect and is enabled', async ({ page }) => {
  expect((await page.request.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
  await page.goto('/admin/external-login?redirect=%2Fadmin%2Fexternal-payments');
  await expect(page.getByRole('button', { name: 'Connect' })).toBeEnabled();
});
