/**
 * A save that never reached the server says so, and the message stays until it is closed (audit C item 5).
 */
import { test, expect } from '@playwright/test';
import { appliedThenAdmin, openApplicationPanel, storedStatus, toast } from './admin-seed.ts';

const NOT_SAVED = 'Not saved — the server could not be reached. Check your connection and try again.';

test('detail panel › Update status with the connection gone: "Not saved — the server could not be reached…", kept after 10 s until closed', async ({ page, playwright, baseURL }) => {
  const id = await appliedThenAdmin(page, () => playwright.request.newContext({ baseURL }), 'Tshilidzi');
  await page.clock.install();
  await page.goto('/admin/applications');
  const panel = await openApplicationPanel(page, id);
  await panel.getByRole('combobox', { name: 'Status', exact: true }).selectOption('under_review');
  await page.route('**/api/admin/applications/*/status', (route) => route.abort('internetdisconnected'));
  await panel.getByRole('button', { name: 'Update status' }).click();
  const failed = toast(page, 'Update failed');
  await expect(failed).toContainText(NOT_SAVED);
  // Radix closes a toast after its duration (5000 ms): 10 s later this one is still there.
  await page.clock.runFor(10_000);
  await expect(failed).toBeVisible();
  // The toast is rendered inside the open panel (Toaster.tsx), so its Close is found by role and label.
  await expect(panel.getByTestId('toast').filter({ hasText: 'Update failed' })).toBeVisible();
  await failed.getByLabel('Close').click();
  await expect(failed).toHaveCount(0);
  expect(await storedStatus(page.request, id)).toBe('pending');
});

test('list › bulk Approve with the connection gone says the same', async ({ page, playwright, baseURL }) => {
  const id = await appliedThenAdmin(page, () => playwright.request.newContext({ baseURL }), 'Mulalo');
  await page.goto('/admin/applications');
  await page.getByLabel('Search').fill(`APP-${id}`);
  await page.getByRole('checkbox', { name: `Select APP-${id}`, exact: true }).check();
  await page.route('**/api/admin/applications/bulk', (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: 'Approve selected' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Approve 1' }).click();
  await expect(toast(page, 'Update failed')).toContainText(NOT_SAVED);
});

test('detail panel › a balancer\'s 502 page (no live node) says the same, not "API Error (502): <html>…"', async ({ page, playwright, baseURL }) => {
  const id = await appliedThenAdmin(page, () => playwright.request.newContext({ baseURL }), 'Rudzani');
  await page.goto('/admin/applications');
  const panel = await openApplicationPanel(page, id);
  await panel.getByRole('combobox', { name: 'Status', exact: true }).selectOption('under_review');
  await page.route('**/api/admin/applications/*/status', (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body><h1>502 Bad Gateway</h1></body></html>' }));
  await panel.getByRole('button', { name: 'Update status' }).click();
  const failed = toast(page, 'Update failed');
  await expect(failed).toContainText(NOT_SAVED);
  await expect(failed).not.toContainText('API Error');
  expect(await storedStatus(page.request, id)).toBe('pending');
});
