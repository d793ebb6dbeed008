/**
 * A bulk decision that finds an application already decided says what it is now (audit C item 7; labels of spec §4).
 */
import { test, expect } from '@playwright/test';
import { adminLogin, applicationsTagged } from './admin-seed.ts';
import { uniqueSurname } from './admin-seed.ts';

test('list › Approve selected after someone else accepted one: "not updated — it is now Accepted (changed by someone else)"', async ({ page, playwright, baseURL }) => {
  const surname = uniqueSurname();
  const [a, b] = await applicationsTagged(() => playwright.request.newContext({ baseURL }), surname, 2);
  await adminLogin(page.request);
  await page.goto(`/admin/applications?q=${surname}`);
  await page.getByLabel('Search').fill(surname);
  await page.getByRole('checkbox', { name: 'Select all pending applications on this page' }).check();
  await expect(page.getByText('2 selected')).toBeVisible();

  const other = await playwright.request.newContext({ baseURL });
  await adminLogin(other);
  expect((await other.put(`/api/admin/applications/${b}/status`, { data: { status: 'accepted', notes: '' } })).status()).toBe(200);
  await other.dispose();

  await page.getByRole('button', { name: 'Reject selected' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Reject 2' }).click();
  const results = page.getByRole('status').filter({ hasText: 'Bulk results' });
  await expect(results).toContainText(`APP-${a}: updated to Rejected`);
  await expect(results).toContainText(`APP-${b}: not updated — it is now Accepted (changed by someone else)`);
});
