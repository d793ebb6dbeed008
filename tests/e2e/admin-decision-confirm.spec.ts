/**
 * A final decision is not changed by one click (audit C item 2): the detail panel asks before it changes an accepted
 * or rejected application, and before it accepts one; the list's quick Approve asks too. Cancel changes nothing.
 */
import { test, expect } from '@playwright/test';
import { appliedThenAdmin, openApplicationPanel, storedStatus, toast } from './admin-seed.ts';

test('detail panel › changing an Accepted application to Pending asks first; Cancel keeps it Accepted, confirming changes it', async ({ page, playwright, baseURL }) => {
  const id = await appliedThenAdmin(page, () => playwright.request.newContext({ baseURL }), 'Rudzani');
  expect((await page.request.put(`/api/admin/applications/${id}/status`, { data: { status: 'accepted', notes: '' } })).status()).toBe(200);

  await page.goto(`/admin/applications`);
  const panel = await openApplicationPanel(page, id);
  await panel.getByRole('combobox', { name: 'Status', exact: true }).selectOption('pending');
  await panel.getByRole('button', { name: 'Update status' }).click();
  const ask = page.getByRole('alertdialog');
  await expect(ask).toContainText(`APP-${id} was Accepted. Change it to Pending?`);
  await expect(ask).toContainText('The applicant will be e-mailed');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  expect(await storedStatus(page.request, id)).toBe('accepted');

  await panel.getByRole('button', { name: 'Update status' }).click();
  await ask.getByRole('button', { name: 'Change to Pending' }).click();
  await expect(toast(page, 'Application updated')).toContainText(`APP-${id} is now Pending.`);
  expect(await storedStatus(page.request, id)).toBe('pending');

  // Accepting from the panel asks too.
  await panel.getByRole('combobox', { name: 'Status', exact: true }).selectOption('accepted');
  await panel.getByRole('button', { name: 'Update status' }).click();
  await expect(ask).toContainText(`Accept APP-${id}?`);
  await ask.getByRole('button', { name: 'Cancel' }).click();
  expect(await storedStatus(page.request, id)).toBe('pending');
});

test('list › quick Approve asks first; Cancel leaves the application Pending, confirming accepts it', async ({ page, playwright, baseURL }) => {
  const id = await appliedThenAdmin(page, () => playwright.request.newContext({ baseURL }), 'Khensani');
  await page.goto('/admin/applications');
  await page.getByLabel('Search').fill(`APP-${id}`);
  await page.getByRole('button', { name: `Approve APP-${id}` }).click();
  const ask = page.getByRole('alertdialog');
  await expect(ask).toContainText(`Accept APP-${id}?`);
  await expect(ask).toContainText('the applicant will be e-mailed');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  expect(await storedStatus(page.request, id)).toBe('pending');
  await page.getByRole('button', { name: `Approve APP-${id}` }).click();
  await ask.getByRole('button', { name: 'Accept application' }).click();
  await expect(toast(page, 'Application updated')).toBeVisible();
  expect(await storedStatus(page.request, id)).toBe('accepted');
});
