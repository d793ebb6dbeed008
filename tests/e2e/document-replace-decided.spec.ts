/**
 * A decided application is closed (spec §4: accepted and rejected are decided): on /applications/{id} a rejected
 * document shows its state and reason read-only, with why it cannot be replaced, and no "Send new …"; the API
 * refuses a replacement with a 409, which a page opened before the decision shows. Open again, the replacement is back.
 * The admin may still verify or reject its documents, for the record: the panel says the applicant is not asked for a
 * new file, and a rejection then sends the applicant nothing.
 */
import { expect, test } from '@playwright/test';
import { adminLogin, openApplicationPanel, studentApplies, toast } from './admin-seed.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n% replaced\n');
const DECIDED = 'This application has been decided, so its documents can no longer be replaced.';

test('a rejected document of an accepted or rejected application is shown read-only with why; a replacement sent as the decision came is refused with that message', async ({ page, browser }) => {
  const id = await studentApplies(page.request, 1, 'Naledi', 'Decided');
  const admin = await browser.newContext();
  await adminLogin(admin.request);
  const setStatus = async (status: string) => expect((await admin.request.put(`/api/admin/applications/${id}/status`, { data: { status } })).status()).toBe(200);
  expect((await admin.request.put(`/api/admin/applications/${id}/documents/idDocument`, { data: { status: 'rejected', reason: 'The photo of the ID is too blurry to read.' } })).status()).toBe(200);
  const row = page.locator('[data-slot-state=idDocument]');
  const send = page.getByRole('button', { name: 'Send new ID Document' });

  for (const status of ['accepted', 'rejected']) {
    await setStatus(status);
    await page.goto(`/applications/${id}`);
    await expect(page.getByTestId('state-idDocument'), status).toHaveText('Rejected');
    await expect(row, status).toContainText('Reason: The photo of the ID is too blurry to read.');
    await expect(row, status).toContainText(DECIDED);
    await expect(send, `${status}: no replacement offered`).toHaveCount(0);
    await expect(page.locator('#f-documents-replace-idDocument'), status).toHaveCount(0);
  }

  // Open again (Under Review): the replacement is offered. Decided while the page is open: the server refuses it.
  await setStatus('under_review');
  await page.goto(`/applications/${id}`);
  await expect(row).not.toContainText(DECIDED);
  await page.locator('#f-documents-replace-idDocument').setInputFiles({ name: 'id-clear.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(page.getByTestId('file-replace-idDocument')).toHaveText('id-clear.pdf');
  await setStatus('accepted');
  await send.click();
  await expect(row.getByRole('alert')).toHaveText(DECIDED);
  expect((await (await page.request.get(`/api/applications/${id}/checklist`)).json()).items.find((i: { slot: string }) => i.slot === 'idDocument').state).toBe('rejected');
  await admin.close();
});

test('admin: a decided application\'s documents can still be rejected for the record; the panel says the applicant is not asked for a new file, and nothing is sent', async ({ page, browser }) => {
  const student = await browser.newContext();
  const id = await studentApplies(student.request, 1, 'Naledi', 'Recorded');
  await adminLogin(page.request);
  expect((await page.request.put(`/api/admin/applications/${id}/status`, { data: { status: 'accepted' } })).status()).toBe(200);
  const notices = async () => ((await (await student.request.get('/api/notifications')).json()).notifications as unknown[]).length;
  const before = await notices();
  await page.goto('/admin/applications');
  const panel = await openApplicationPanel(page, id);
  await expect(panel.getByTestId('decided-documents-note')).toHaveText(`APP-${id} is Accepted. Its documents can still be verified or rejected for the record, but the applicant is not asked for a new file and cannot send one. To ask for one, change the status to Documents Required.`);
  const reviews = panel.getByTestId('admin-document-reviews');
  await reviews.getByRole('button', { name: 'Reject ID Document' }).click();
  await page.getByLabel('Reason (shown to the applicant)').fill('The ID has expired.');
  await reviews.getByRole('button', { name: 'Reject document' }).click();
  // The toast tells the truth: nothing was sent (it said 'The applicant was notified.' before).
  await expect(toast(page, 'Document rejected')).toContainText('Recorded. The applicant was not notified, because the application has been decided.');
  await expect(panel.getByTestId('review-history')).toContainText('ID Document: Rejected — The ID has expired.');
  expect(await notices()).toBe(before);
  await student.close();
});

test('admin: an application another admin decides while this panel is open: the rejection\'s toast says the applicant was not notified (the API\'s answer, not the panel\'s older status)', async ({ page, browser }) => {
  const student = await browser.newContext();
  const id = await studentApplies(student.request, 1, 'Naledi', 'Meanwhile');
  await adminLogin(page.request);
  await page.goto('/admin/applications');
  const panel = await openApplicationPanel(page, id);
  await expect(panel.getByTestId('decided-documents-note')).toHaveCount(0);
  const other = await browser.newContext();
  await adminLogin(other.request);
  expect((await other.request.put(`/api/admin/applications/${id}/status`, { data: { status: 'rejected' } })).status()).toBe(200);
  const notices = async () => ((await (await student.request.get('/api/notifications')).json()).notifications as unknown[]).length;
  const before = await notices();
  const reviews = panel.getByTestId('admin-document-reviews');
  await reviews.getByRole('button', { name: 'Reject ID Document' }).click();
  await page.getByLabel('Reason (shown to the applicant)').fill('The ID has expired.');
  await reviews.getByRole('button', { name: 'Reject document' }).click();
  await expect(toast(page, 'Document rejected')).toContainText('Recorded. The applicant was not notified, because the application has been decided.');
  expect(await notices()).toBe(before);
  await other.close();
  await student.close();
});
