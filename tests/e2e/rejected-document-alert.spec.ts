/**
 * A rejected document shows on the applicant's cards (phone audit, 2026-11-28): with the status unchanged (Pending or Under Review),
 * /my-applications and the student dashboard said nothing; only the notification and the detail page did. The card
 * now says "A document was rejected. Open the application to replace it." with a link to /applications/{id}, and the
 * alert goes once the document is replaced. Reads GET /api/applications's rejectedDocuments.
 */
import { expect, test } from '@playwright/test';
import { adminLogin, studentApplies } from './admin-seed.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n% replaced\n');
/** The alert's text; the link's visually hidden end names the application for a screen reader. */
const ALERT = (id: number) => `A document was rejected. Open the application to replace it (APP-${id}).`;

test('a rejected ID document: the card on /my-applications and the dashboard say so and link to the application; gone once replaced', async ({ page, browser }) => {
  const id = await studentApplies(page.request, 1, 'Thandi', 'Rejected');
  await page.goto('/my-applications');
  const card = page.getByTestId('application-card').filter({ hasText: `APP-${id}` });
  await expect(card).toBeVisible();
  await expect(card).not.toContainText('A document was rejected');

  const admin = await browser.newContext();
  await adminLogin(admin.request);
  expect((await admin.request.put(`/api/admin/applications/${id}/documents/idDocument`, { data: { status: 'rejected', reason: 'The photo of the ID is too blurry to read.' } })).status()).toBe(200);
  await admin.close();

  await page.reload();
  await expect(card.getByTestId('rejected-documents-alert')).toHaveText(ALERT(id));
  // The status is unchanged (Pending, not documents_required): the alert is the only sign on the card.
  await expect(card).toContainText('Pending');
  await expect(card).not.toContainText('Additional documents are required');
  const link = card.getByRole('link', { name: `Open the application to replace it (APP-${id})` });
  await expect(link).toHaveAttribute('href', `/applications/${id}`);

  await page.goto('/dashboard/student');
  await expect(page.getByTestId('rejected-documents-alert')).toHaveText(ALERT(id));
  await expect(page.getByTestId('rejected-documents-alert').getByRole('link')).toHaveAttribute('href', `/applications/${id}`);

  // The detail page has its own replace block: no card alert there.
  await page.goto(`/applications/${id}`);
  await expect(page.getByTestId('state-idDocument')).toHaveText('Rejected');
  await expect(page.getByTestId('rejected-documents-alert')).toHaveCount(0);

  const up = (await (await page.request.post('/api/uploads', { multipart: { file: { name: 'id-clear.pdf', mimeType: 'application/pdf', buffer: PDF } } })).json()).upload.id as string;
  expect((await page.request.put(`/api/applications/${id}/documents/idDocument`, { data: { uploadId: up } })).status()).toBe(200);
  await page.goto('/my-applications');
  await expect(card).toBeVisible();
  await expect(card.getByTestId('rejected-documents-alert')).toHaveCount(0);
});

/**
 * The alert asks the applicant to act, so it shows only while the application is open (pending, under_review,
 * documents_required, payment_pending: spec §4); once staff decide (accepted or rejected) the card says nothing of
 * the rejected document (code review 2026-11-28: a rejected application still showed the red prompt).
 */
test('a rejected document on a decided application: no alert on the card once it is Rejected or Accepted; back while it is open', async ({ page, browser }) => {
  const id = await studentApplies(page.request, 1, 'Lerato', 'Closed');
  const admin = await browser.newContext();
  await adminLogin(admin.request);
  const setStatus = async (status: string) => expect((await admin.request.put(`/api/admin/applications/${id}/status`, { data: { status } })).status()).toBe(200);
  expect((await admin.request.put(`/api/admin/applications/${id}/documents/idDocument`, { data: { status: 'rejected', reason: 'The photo of the ID is too blurry to read.' } })).status()).toBe(200);
  const card = page.getByTestId('application-card').filter({ hasText: `APP-${id}` });

  for (const [status, label, shown] of [['under_review', 'Under Review', true], ['rejected', 'Rejected', false], ['accepted', 'Accepted', false], ['documents_required', 'Documents Required', true]] as const) {
    await setStatus(status);
    await page.goto('/my-applications');
    await expect(card, status).toContainText(label);
    await expect(card.getByTestId('rejected-documents-alert'), `${status}: the alert ${shown ? 'shows' : 'does not show'}`).toHaveCount(shown ? 1 : 0);
    await page.goto('/dashboard/student');
    await expect(page.getByText(`(APP-${id})`, { exact: true }).first(), status).toBeVisible();
    await expect(page.getByTestId('rejected-documents-alert'), `${status} on the dashboard`).toHaveCount(shown ? 1 : 0);
  }
  await admin.close();
});
