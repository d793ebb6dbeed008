/**
 * External administration system journey (issue #7): an admin is sent to the external login, connects,
 * sees the branches with live counts, adds a payment and sees the totals and the CSV export.
 */
import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import fs from 'node:fs';
import { E2E_ADMIN, uniqueEmail } from './fixtures.ts';

test('admin connects to the external system, sees branches, adds a payment and sees the totals', async ({ page }) => {
  // Portal login through the API (the login page has its own journey); the browser shares the cookie.
  const login = await page.request.post('/api/auth/login', { data: E2E_ADMIN });
  expect(login.status()).toBe(200);

  await test.step('an unreachable external system: the login page says so (spec §8) and can check again', async () => {
    await page.route('**/api/external/health', (route) => route.fulfill({ status: 502, contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'external_unavailable', message: 'Could not connect to external API' } }) }));
    await page.goto('/admin/external-login');
    await expect(page.getByRole('alert').filter({ hasText: 'Could not connect to external API' })).toBeVisible();
    await page.unroute('**/api/external/health');
    await page.getByRole('button', { name: 'Check again' }).click();
    await expect(page.getByTestId('external-health')).toHaveText('External system available');
  });

  await test.step('not connected: the payments page sends the admin to the external login, which refuses a wrong password and then connects', async () => {
    await page.goto('/admin/external-payments');
    await expect(page).toHaveURL(/\/admin\/external-login\?redirect=%2Fadmin%2Fexternal-payments$/);
    await expect(page.getByTestId('external-health')).toHaveText('External system available');

    await page.getByLabel('Email').fill(E2E_ADMIN.email);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Connect' }).click();
    const failed = page.getByRole('alert').filter({ hasText: 'External Login Failed' });
    await expect(failed).toBeVisible();
    await expect(failed).toContainText('Invalid email or password');
    const axeLogin = await new AxeBuilder({ page }).include('[data-admin-shell]').analyze();
    expect(axeLogin.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

    await page.getByLabel('Password').fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect(page).toHaveURL(/\/admin\/external-payments$/);
    await expect(page.getByTestId('payment-totals')).toContainText('No payments recorded yet.');
  });

  // A student enrolled at Siloam (walk-in enrolment through the API, sharing the browser's sessions).
  const name = `Mpho Journey ${Date.now()}`;
  const enrol = await page.request.post('/api/external/students', { data: { name, email: uniqueEmail('enrolled'), branchId: '2', course: 'Diploma in Nursing' } });
  expect(enrol.status()).toBe(201);

  await test.step('Branches: the four campuses, Siloam counting the new student; a failing call shows the §8 message with a retry', async () => {
    await page.getByRole('link', { name: 'Branches' }).first().click();
    await expect(page).toHaveURL(/\/admin\/branches$/);
    const cards = page.getByTestId('branch-card');
    await expect(cards).toHaveCount(4);
    const siloam = cards.filter({ hasText: 'Siloam' });
    await expect(siloam.getByTestId('student-count')).toHaveText('1');
    await expect(siloam).toContainText('2012');
    await siloam.getByRole('button', { name: /View students/ }).click();
    await expect(page.getByRole('tab', { name: 'Students' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('table')).toContainText(name);

    // A failing branches call shows the §8 message with a way to retry.
    await page.route('**/api/external/branches', (route) => route.fulfill({ status: 504, contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'external_timeout', message: 'The external system did not respond in time. Please try again.' } }) }));
    await page.reload();
    await expect(page.getByRole('alert').filter({ hasText: 'Failed to load branch data. Please try again later.' })).toBeVisible();
    await page.unroute('**/api/external/branches');
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(cards).toHaveCount(4);
  });

  await test.step('Students: a search with no match shows the empty state', async () => {
    await page.goto('/admin/external-students?search=nobody-by-this-name');
    await expect(page.getByText('No students found matching your search.')).toBeVisible();
    await expect(page.getByLabel('Search students')).toHaveValue('nobody-by-this-name');
    const axeStudents = await new AxeBuilder({ page }).include('[data-admin-shell]').analyze();
    expect(axeStudents.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });

  await test.step('Payments: §5 messages, focus on the first invalid field, a payment recorded once, totals in rand and the CSV export', async () => {
    await page.goto('/admin/external-payments');
    await page.getByRole('button', { name: 'Add Payment' }).click();
    await expect(page.getByText('Student is required')).toBeVisible();
    await expect(page.getByText('Amount is required')).toBeVisible();
    await expect(page.getByLabel('Student')).toBeFocused();
    await expect(page.getByLabel('Currency')).toHaveValue('ZAR');
    await expect(page.getByLabel('Payment method')).toHaveValue('card');

    await page.getByLabel('Find by name or e-mail').fill(name); // the Student list is searched, not every student at once
    await expect(page.getByLabel('Student').locator('option')).toHaveCount(2);
    await page.getByLabel('Student').selectOption({ label: `${name} — Siloam` });
    await page.getByLabel('Amount').fill('1500.555');
    await page.getByRole('button', { name: 'Add Payment' }).click();
    await expect(page.getByText('Amount can have at most 2 decimal places')).toBeVisible();
    await page.getByLabel('Amount').fill('1500');
    await page.getByLabel('Description (optional)').fill('First instalment');
    await page.getByRole('button', { name: 'Add Payment' }).dblclick();
    await expect(page.getByTestId('toast').filter({ hasText: 'Payment Added' }).first()).toBeVisible();
    const zar = page.getByTestId('total-ZAR');
    await expect(zar).toContainText(/R\s1\s500/); // one money format for rand (issue #14 point 8)
    await expect(zar).toContainText('1 payment');
    await expect(page.getByRole('table').getByRole('row')).toHaveCount(2);
    await expect(page.getByRole('table')).toContainText('First instalment');
    await expect(page.getByRole('navigation', { name: 'External payments pages' })).toContainText('Page 1 of 1');
    await expect(page.getByTestId('page-range')).toHaveText('Showing 1–1 of 1');
    const axePayments = await new AxeBuilder({ page }).include('[data-admin-shell]').analyze();
    expect(axePayments.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    const csv = fs.readFileSync((await (await downloading).path())!, 'utf8');
    expect(csv.startsWith('\uFEFF'), 'a UTF-8 byte-order mark, so Excel reads names as UTF-8').toBe(true);
    expect(csv.slice(1).split('\n')[0]).toBe('Reference,Date (SAST),Student,Student ID,Branch,Amount,Currency,Method,Status,Description');
    expect(csv).toContain(`${name},`);
    expect(csv).toContain('1500.00,ZAR,Card,completed,First instalment');
  });
});
