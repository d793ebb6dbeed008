/**
 * A checklist per document (issue #16 point 3) on the production build: the admin verifies one document and
 * rejects another with a reason in the applications panel; the applicant sees Received/Verified/Rejected with the
 * reason and a SHA-256 receipt on the application page, replaces only the rejected one, and it is Received again.
 */
import crypto from 'node:crypto';
import { expect, test } from '@playwright/test';
import { E2E_ADMIN, uniqueEmail } from './fixtures.ts';

const pdf = () => Buffer.concat([Buffer.from('%PDF-1.4\n%'), crypto.randomBytes(400), Buffer.from('\n%%EOF')]);

test('an admin rejects the ID document with a reason; the applicant sees it and replaces only that document', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('review');
  expect((await page.request.post('/api/auth/register', { data: { firstName: 'Thandi', lastName: 'Review', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true } })).status()).toBe(201);
  const idFile = pdf();
  const up = async (name: string, buffer: Buffer) => (await (await page.request.post('/api/uploads', { multipart: { file: { name, mimeType: 'application/pdf', buffer } } })).json()).upload.id as string;
  const res = await page.request.post('/api/applications', { data: {
    courseId: 2, firstName: 'Thandi', lastName: 'Review', email, phone: '0821234567', dateOfBirth: '2001-04-12', nationality: 'za',
    addressLine1: '12 Church Street', addressLine2: '', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za',
    academicHistory: { highSchool: { name: 'Mbilwi Secondary', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', qualification: 'NSC', grade: '72%' } },
    documents: { idDocument: await up('id.pdf', idFile), transcripts: await up('matric.pdf', pdf()) },
    payment: { paymentMethod: 'card', cardNumber: '4242424242424242', cardExpiry: '12/28', cardCvc: '123', cardName: 'T', paymentTerms: true }, certification: true,
  } });
  expect(res.status()).toBe(201);
  const appId = (await res.json()).application.id as number;

  await page.goto(`/applications/${appId}`);
  await expect(page.getByTestId('state-idDocument')).toHaveText('Received');
  await page.locator('[data-slot-state=idDocument] summary', { hasText: 'Proof of receipt' }).click();
  await expect(page.getByTestId('document-checklist')).toContainText(`Receipt code: ${crypto.createHash('sha256').update(idFile).digest('hex')}`);

  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  expect((await adminPage.request.post('/api/auth/login', { data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password } })).status()).toBe(200);
  await adminPage.goto('/admin/applications');
  await adminPage.getByRole('button', { name: `View APP-${appId}`, exact: true }).click();
  const reviews = adminPage.getByTestId('admin-document-reviews');
  await reviews.getByRole('button', { name: 'Verify Qualifications Documents' }).click();
  await expect(adminPage.getByTestId('toast').filter({ hasText: 'Document verified' })).toBeVisible();
  // Verify is now disabled; focus moves to the document's new state, not to the page (WCAG 2.4.3).
  await expect(adminPage.locator(':focus')).toHaveText('Qualifications Documents: Verified');
  await reviews.getByRole('button', { name: 'Reject ID Document' }).click();
  await expect(adminPage.getByLabel('Reason (shown to the applicant)')).toBeFocused();
  await reviews.getByRole('button', { name: 'Reject document' }).click();
  await expect(adminPage.getByText('Please give a reason for rejecting this document')).toBeVisible();
  await adminPage.getByLabel('Reason (shown to the applicant)').fill('The photo of the ID is too blurry to read.');
  // A reason typed and not sent: Back (a phone's gesture) asks before the panel closes, and Keep editing keeps it.
  await adminPage.goBack();
  await adminPage.getByRole('alertdialog', { name: 'Discard your changes?' }).getByRole('button', { name: 'Keep editing' }).click();
  await expect(adminPage.getByLabel('Reason (shown to the applicant)')).toHaveValue('The photo of the ID is too blurry to read.');
  await reviews.getByRole('button', { name: 'Reject document' }).click();
  await expect(adminPage.getByTestId('toast').filter({ hasText: 'Document rejected' })).toContainText('The applicant was notified.');
  await expect(adminPage.locator(':focus')).toHaveText('ID Document: Rejected');
  await expect(adminPage.locator(':focus')).toBeVisible();
  await expect(adminPage.getByTestId('review-history')).toContainText('ID Document: Rejected — The photo of the ID is too blurry to read.');
  await admin.close();

  await page.reload();
  await expect(page.getByTestId('state-transcripts')).toHaveText('Verified');
  await expect(page.getByTestId('state-idDocument')).toHaveText('Rejected');
  await expect(page.getByTestId('document-checklist')).toContainText('Reason: The photo of the ID is too blurry to read.');
  // Only the rejected document offers a replacement.
  await expect(page.locator('#f-documents-replace-transcripts')).toHaveCount(0);
  await page.locator('#f-documents-replace-idDocument').setInputFiles({ name: 'id-clear.pdf', mimeType: 'application/pdf', buffer: pdf() });
  await expect(page.getByTestId('file-replace-idDocument')).toHaveText('id-clear.pdf');
  await page.getByRole('button', { name: 'Send new ID Document' }).click();
  await expect(page.getByTestId('state-idDocument')).toHaveText('Received');
  // The block with the Send button is gone: focus goes to the document's new state, not to <body> (WCAG 2.4.3;
  // phone audit 2026-11-28), as on the admin side.
  await expect(page.getByTestId('toast').filter({ hasText: 'Document replaced' })).toBeVisible();
  expect(await page.evaluate(() => { const a = document.activeElement; return a === document.body ? 'BODY' : (a?.textContent ?? '').trim(); })).toBe('ID Document: Received');
  await expect(page.locator(':focus')).toBeVisible();
  await expect(page.getByTestId('document-checklist')).toContainText('id-clear.pdf');
  const notes = (await (await page.request.get('/api/notifications')).json()).notifications as { message: string }[];
  expect(notes.some((n) => n.message.includes('The photo of the ID is too blurry to read.'))).toBe(true);
});

test('two admins: a review of a file the applicant replaced, and a status someone else changed, are refused with a message and the panel shows the new state', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('stale');
  expect((await page.request.post('/api/auth/register', { data: { firstName: 'Sipho', lastName: 'Stale', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true } })).status()).toBe(201);
  const up = async (name: string) => (await (await page.request.post('/api/uploads', { multipart: { file: { name, mimeType: 'application/pdf', buffer: pdf() } } })).json()).upload.id as string;
  const idDocument = await up('id-old.pdf');
  const res = await page.request.post('/api/applications', { data: {
    courseId: 3, firstName: 'Sipho', lastName: 'Stale', email, phone: '0821234567', dateOfBirth: '2001-04-12', nationality: 'za',
    addressLine1: '12 Church Street', addressLine2: '', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za',
    academicHistory: { highSchool: { name: 'Mbilwi Secondary', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', qualification: 'NSC', grade: '72%' } },
    documents: { idDocument, transcripts: await up('matric.pdf') },
    payment: { paymentMethod: 'card', cardNumber: '4242424242424242', cardExpiry: '12/28', cardCvc: '123', cardName: 'S', paymentTerms: true }, certification: true,
  } });
  expect(res.status()).toBe(201);
  const appId = (await res.json()).application.id as number;

  // Admin A opens the application: Pending, the first ID document.
  const a = await browser.newContext();
  const adminPage = await a.newPage();
  expect((await adminPage.request.post('/api/auth/login', { data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password } })).status()).toBe(200);
  await adminPage.goto('/admin/applications');
  await adminPage.getByRole('button', { name: `View APP-${appId}`, exact: true }).click();
  const reviews = adminPage.getByTestId('admin-document-reviews');
  await expect(reviews).toContainText('id-old.pdf');

  // Meanwhile admin B rejects that ID document, the applicant replaces it, and B moves the application on.
  const b = await browser.newContext();
  expect((await b.request.post('/api/auth/login', { data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password } })).status()).toBe(200);
  expect((await b.request.put(`/api/admin/applications/${appId}/documents/idDocument`, { data: { status: 'rejected', reason: 'Expired ID.', uploadId: idDocument } })).status()).toBe(200);
  expect((await page.request.put(`/api/applications/${appId}/documents/idDocument`, { data: { uploadId: await up('id-new.pdf') } })).status()).toBe(200);
  expect((await b.request.put(`/api/admin/applications/${appId}/status`, { data: { status: 'under_review', expectedStatus: 'pending' } })).status()).toBe(200);
  await b.close();

  // A, still looking at the old file, rejects it: refused, and the list now shows the new file.
  await reviews.getByRole('button', { name: 'Reject ID Document' }).click();
  await adminPage.getByLabel('Reason (shown to the applicant)').fill('Expired ID.');
  await reviews.getByRole('button', { name: 'Reject document' }).click();
  await expect(adminPage.getByTestId('toast').filter({ hasText: 'The applicant replaced this document since you opened it. Reload to see the new file.' })).toBeVisible();
  await expect(reviews).toContainText('id-new.pdf');
  await expect(reviews.locator('[data-review-slot="idDocument"]')).toContainText('Received');

  // A, still seeing Pending, accepts: refused with the status it has now, and the panel shows it.
  await adminPage.locator('#d-status-select').selectOption('accepted');
  await adminPage.getByRole('button', { name: 'Update status' }).click();
  await adminPage.getByRole('alertdialog').getByRole('button', { name: 'Accept application' }).click();
  await expect(adminPage.getByTestId('toast').filter({ hasText: 'This application is now Under Review — someone changed it since you opened it. Reload to see the latest.' })).toBeVisible();
  await expect(adminPage.locator('#d-status-select')).toHaveValue('under_review');
  const history = (await (await page.request.get(`/api/applications/${appId}`)).json()).timeline.map((h: { toStatus: string }) => h.toStatus);
  expect(history).toEqual(['pending', 'under_review']);
  await a.close();
});
