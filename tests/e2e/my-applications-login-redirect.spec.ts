/**
 * Logged out, /my-applications sends to /login keeping the page (phone audit, 2026-11-28), as /profile,
 * /applications/{id} and /apply do; after signing in the applicant lands on /my-applications, not the dashboard.
 */
import { expect, test } from '@playwright/test';
import { uniqueEmail } from './fixtures.ts';

test('logged out › /my-applications → /login?redirect=%2Fmy-applications, and signing in comes back to it', async ({ page }) => {
  const email = uniqueEmail('myapps-redirect');
  expect((await page.request.post('/api/auth/register', { data: { firstName: 'Thandi', lastName: 'Back', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true } })).status()).toBe(201);
  await page.request.post('/api/auth/logout');
  await page.goto('/my-applications');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fmy-applications$/);
  await page.getByRole('form', { name: 'Log in' }).getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('secret123');
  await page.getByRole('form', { name: 'Log in' }).getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/my-applications$/);
  await expect(page.getByRole('heading', { name: 'My Applications' })).toBeVisible();
});
