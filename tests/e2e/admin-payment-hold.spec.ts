/**
 * Admin day audit: Payment Pending took a paid fee out of "Fees collected" without a word (finding 1), an accept over
 * a rejected ID Document asked the generic question (finding 2), and a note saved alone toasted "is now Pending" and
 * showed the applicant a "Pending → Pending" step (finding 3).
 */
import { test, expect, type APIRequestContext } from '@playwright/test';
import { appliedThenAdmin, openApplicationPanel, storedStatus, toast } from './admin-seed.ts';

const fees = async (request: APIRequestContext): Promise<string> => (await (await request.get('/api/admin/stats')).json()).feesCollected;

test('Payment Pending on a paid application asks first, naming the fee; Cancel changes nothing; leaving it counts the fee again', async ({ page, playwright, baseURL }) => {
  const id = await appliedThenAdmin(page, () => playwright.request.newContext({ baseURL }), 'Thandeka');
  const amount = (await (await page.request.get(`/api/admin/applications/${id}`)).json()).application.paymentAmount as string;
  const shown = `$${Number(amount).toFixed(2)}`;
  const before = await fees(page.request);
  await page.goto('/admin/applications');
  const panel = await openApplicationPanel(page, id);
  await panel.getByRole('combobox', { name: 'Status', exact: true }).selectOption('payment_pending');
  await panel.getByRole('button', { name: 'Update status' }).click();
  const ask = page.getByRole('alertdialog');
  await expect(ask).toContainText(`Mark APP-${id} Payment Pending?`);
  await expect(ask).toContainText(`APP-${id}'s fee of ${shown} is recorded as paid. Payment Pending takes ${shown} out of "Fees collected"`);
  await ask.getByRole('button', { name: 'Cancel' }).click();
  expect(await storedStatus(page.request, id)).toBe('pending');
  expect(await fees(page.request)).toBe(before);

  await panel.getByRole('button', { name: 'Update status' }).click();
  await ask.getByRole('button', { name: 'Mark Payment Pending' }).click();
  await expect(toast(page, 'Application updated')).toContainText(`APP-${id} is now Payment Pending.`);
  expect(await storedStatus(page.request, id)).toBe('payment_pending');
  expect(await fees(page.request)).not.toBe(before);

  // Back to Pending: no question (nothing is taken away), and the fee counts again.
  await panel.getByRole('combobox', { name: 'Status', exact: true }).selectOption('pending');
  await panel.getByRole('button', { name: 'Update status' }).click();
  await expect(toast(page, `APP-${id} is now Pending.`)).toBeVisible();
  expect(await fees(page.request)).toBe(before);
});

test('accepting with a rejected required document says so; Cancel leaves it Pending', async ({ page, playwright, baseURL }) => {
  const id = await appliedThenAdmin(page, () => playwright.request.newContext({ baseURL }), 'Sipho');
  const detail = await (await page.request.get(`/api/admin/applications/${id}`)).json();
  const uploadId = detail.documents.find((d: { slot: string }) => d.slot === 'idDocument').id as string;
  expect((await page.request.put(`/api/admin/applications/${id}/documents/idDocument`, { data: { status: 'rejected', reason: 'Expired ID.', uploadId } })).status()).toBe(200);
  await page.goto('/admin/applications');
  const panel = await openApplicationPanel(page, id);
  await panel.getByRole('combobox', { name: 'Status', exact: true }).selectOption('accepted');
  await panel.getByRole('button', { name: 'Update status' }).click();
  const ask = page.getByRole('alertdialog');
  await expect(ask).toContainText(`Accept APP-${id}?`);
  await expect(ask).toContainText('Required documents are not in order: ID Document was rejected.');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  expect(await storedStatus(page.request, id)).toBe('pending');
});

test('a note saved without a status change toasts "Application updated" (spec §8) with "your note is saved"; the panel\'s history shows it as a note', async ({ page, playwright, baseURL }) => {
  const id = await appliedThenAdmin(page, () => playwright.request.newContext({ baseURL }), 'Naledi');
  await page.goto('/admin/applications');
  const panel = await openApplicationPanel(page, id);
  await panel.getByLabel('Notes (internal, never shown to the applicant)').fill('Phoned the school');
  await panel.getByRole('button', { name: 'Update status' }).click();
  await expect(toast(page, 'Application updated')).toContainText(`APP-${id}: your note is saved.`);
  await expect(panel.getByText('Phoned the school')).toBeVisible();
  await expect(panel.getByText('Note (Pending)')).toBeVisible();
  expect(await storedStatus(page.request, id)).toBe('pending');
});

test('the list\'s quick Approve also names a rejected required document before accepting', async ({ page, playwright, baseURL }) => {
  const id = await appliedThenAdmin(page, () => playwright.request.newContext({ baseURL }), 'Mpho');
  const detail = await (await page.request.get(`/api/admin/applications/${id}`)).json();
  const uploadId = detail.documents.find((d: { slot: string }) => d.slot === 'idDocument').id as string;
  expect((await page.request.put(`/api/admin/applications/${id}/documents/idDocument`, { data: { status: 'rejected', reason: 'Expired ID.', uploadId } })).status()).toBe(200);
  await page.goto('/admin/applications');
  await page.getByLabel('Search').fill(`APP-${id}`);
  await page.getByRole('button', { name: `Approve APP-${id}` }).click();
  const ask = page.getByRole('alertdialog');
  await expect(ask).toContainText(`Accept APP-${id}?`);
  await expect(ask).toContainText('Required documents are not in order: ID Document was rejected.');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  expect(await storedStatus(page.request, id)).toBe('pending');
});

test('the panel: Update status with the status unchanged and no note says there is nothing to update and sends nothing; an Accept shows busy while the checklist loads, and a second press asks no second question', async ({ page, playwright, baseURL }) => {
  const id = await appliedThenAdmin(page, () => playwright.request.newContext({ baseURL }), 'Lufuno');
  const puts: string[] = [];
  page.on('request', (r) => { if (r.method() === 'PUT' && /\/status$/.test(r.url())) puts.push(r.url()); });
  await page.goto('/admin/applications');
  const panel = await openApplicationPanel(page, id);
  const update = panel.getByRole('button', { name: 'Update status' });
  await update.click();
  await expect(toast(page, 'Nothing to update')).toContainText('Choose another status or type a note first.');
  expect(puts).toEqual([]);

  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  let checklists = 0;
  await page.route(`**/api/applications/${id}/checklist`, async (route) => { checklists++; await gate; await route.continue(); });
  await panel.getByRole('combobox', { name: 'Status', exact: true }).selectOption('accepted');
  await update.click();
  const busy = panel.getByRole('button', { name: 'Saving…' });
  await expect(busy).toHaveAttribute('aria-disabled', 'true');
  await busy.dispatchEvent('click');
  release();
  const ask = page.getByRole('alertdialog');
  await expect(ask).toContainText(`Accept APP-${id}?`);
  expect(checklists, 'one question, one checklist read').toBe(1);
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();
  await expect(panel.getByRole('button', { name: 'Update status' })).not.toHaveAttribute('aria-disabled', 'true');
  expect(await storedStatus(page.request, id)).toBe('pending');
});
