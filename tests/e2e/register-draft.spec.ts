/**
 * The short registration form keeps what was typed over a reload or Back (usability audit, November 2026): names,
 * e-mail, phone and course stay in sessionStorage while the form is filled in, the passwords never do, and the
 * copy is gone once the account is created.
 */
import { test, expect, type Page } from '@playwright/test';
import { uniqueEmail } from './fixtures.ts';

/** Everything this tab's sessionStorage holds, as one string (to look for a password or an e-mail in it). */
const stored = (page: Page) => page.evaluate(() => JSON.stringify(Object.fromEntries(Object.entries(sessionStorage))));

test('register: typed details survive a reload and Back, passwords are never kept, the copy goes after success', async ({ page }) => {
  const email = uniqueEmail('draft');
  await page.goto('/register');
  await page.getByLabel('First name').fill('Ṱhalitshani');
  await page.getByLabel('Last name').fill('Nemutanzhela');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('secret-pass-1');
  await page.getByLabel('Confirm password').fill('secret-pass-1');
  await page.getByLabel('Phone').fill('0821234567');

  await page.reload();
  await expect(page.getByLabel('First name')).toHaveValue('Ṱhalitshani');
  await expect(page.getByLabel('Last name')).toHaveValue('Nemutanzhela');
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByLabel('Phone')).toHaveValue('0821234567');
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Confirm password')).toHaveValue('');
  expect(await stored(page)).not.toContain('secret-pass-1');

  // Away and Back (a new load of the page, not the browser's page cache: Playwright's pages keep none for this).
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Courses' }).click();
  await expect(page).toHaveURL(/\/courses$/);
  await page.goBack();
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByLabel('First name')).toHaveValue('Ṱhalitshani');

  await page.getByLabel('Password', { exact: true }).fill('secret-pass-1');
  await page.getByLabel('Confirm password').fill('secret-pass-1');
  await page.getByRole('checkbox', { name: /I agree to the terms and conditions/ }).check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/dashboard\/student$/);
  expect(await stored(page)).not.toContain(email);
});

test('Student Registration wizard: typed details survive a reload, the passwords and the ID number do not and are never stored', async ({ page }) => {
  const email = uniqueEmail('wizdraft');
  await page.goto('/register?mode=full');
  await expect(page.getByRole('heading', { name: 'Student Registration' })).toBeVisible();
  await page.getByLabel('First name').fill('Ṱhalitshani');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('secret-pass-2');
  await page.getByLabel('Phone').fill('0821234567');
  await page.getByLabel('ID number', { exact: true }).fill('9001015009087');
  // The form still asks before a reload (the passwords are not kept): accept it.
  page.once('dialog', (d) => void d.accept());
  await page.reload();
  await expect(page.getByLabel('First name')).toHaveValue('Ṱhalitshani');
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByLabel('Phone')).toHaveValue('0821234567');
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('ID number', { exact: true })).toHaveValue('');
  expect(await stored(page)).not.toContain('secret-pass-2');
  expect(await stored(page), 'no ID number on a shared computer').not.toContain('9001015009087');
});
