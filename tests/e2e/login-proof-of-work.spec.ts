/**
 * Login after many failed attempts (reliability audit L finding B; ASVS 5.0 V2.2.1): past the limits on failures the
 * API asks for a proof-of-work instead of locking the person out. Through the real /login form, the right password
 * still signs in: the form says 'Checking your connection… this takes a few seconds.', loads the solver, solves the
 * challenge and logs in — with the production PBKDF2 cost.
 */
import { test, expect } from '@playwright/test';
import { failLoginsUntilProofAsked, uniqueEmail } from './fixtures.ts';

test('login: after failed attempts on the account from this network, the right password signs in after the quick check', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('pow');
  const password = 'Learner-pass-2026';
  const api = page.request;
  const headers = { origin: baseURL! };
  expect((await api.post('/api/auth/register', { headers, data: { firstName: 'Lerato', lastName: 'Dlamini', email, password, confirmPassword: password, phone: '0821234567', terms: true } })).status()).toBe(201);
  await api.post('/api/auth/logout', { headers });
  // Wrong passwords for this account from this address until the API asks for the proof.
  await failLoginsUntilProofAsked(api, headers, email);
  await page.context().clearCookies();

  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: /^Log in$/i }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Checking your connection… this takes a few seconds.' })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/student/, { timeout: 90_000 });
});

test('"Your session has ended": after failed attempts on the account from this network, the right password does the quick check and saves the work', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('again-pow');
  const password = 'Learner-pass-2026';
  const api = page.request;
  const headers = { origin: baseURL! };
  // Registering through the page's own request context signs the page in.
  expect((await api.post('/api/auth/register', { headers, data: { firstName: 'Lerato', lastName: 'Dlamini', email, password, confirmPassword: password, phone: '0821234567', terms: true } })).status()).toBe(201);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible();
  await page.getByLabel('First name').fill('Rudzani');
  // The login ends, and someone on this network tries wrong passwords for the account until the API asks for the proof.
  expect((await api.post('/api/auth/logout', { headers })).status()).toBeLessThan(300);
  await failLoginsUntilProofAsked(api, headers, email);

  await page.getByRole('button', { name: 'Save changes' }).click();
  const again = page.getByRole('dialog', { name: 'Your session has ended' });
  await again.getByLabel('Password').fill(password);
  await again.getByRole('button', { name: 'Log in and save' }).click();
  await expect(again.getByRole('status').filter({ hasText: 'Checking your connection… this takes a few seconds.' })).toBeVisible();
  await expect(page.getByTestId('toast').filter({ hasText: 'Profile updated' })).toBeVisible({ timeout: 90_000 });
  await expect(again).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Rudzani Dlamini' })).toBeVisible();
});
