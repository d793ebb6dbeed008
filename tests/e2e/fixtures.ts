/** Shared e2e fixtures: the admin the test server creates, and log-in helpers that use the real UI. */
import { expect, type Page } from '@playwright/test';

export const E2E_ADMIN = { email: 'admin@college.example', password: 'Admin-pass-2026' };

let n = 0;
export const uniqueEmail = (prefix = 'applicant') => `${prefix}.${Date.now()}.${++n}@example.com`;

/** Logs in through /login and waits for the dashboard. */
export async function logInThroughUi(page: Page, email: string, password: string, expectPath: RegExp = /\/dashboard\//) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: /^Log in$/i }).click();
  await expect(page).toHaveURL(expectPath);
}
