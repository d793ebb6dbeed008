/**
 * The admin's documents panel on the production build (staff audit): each document shows its size, a PDF or an image
 * opens in the browser in a new tab (View, served inline), and Download saves it under its name.
 */
import crypto from 'node:crypto';
import { expect, test } from '@playwright/test';
import { E2E_ADMIN, uniqueEmail } from './fixtures.ts';
import { studentApplies } from './admin-seed.ts';

// 1 258 291 bytes: '1.2 MB' by formatBytes.
const bigPdf = Buffer.concat([Buffer.from('%PDF-1.4\n%'), crypto.randomBytes(1_258_291 - 16), Buffer.from('\n%%EOF')]);
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

test('an admin sees each document\'s size, views the PDF and the image in a new tab, and downloads the PDF', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const appId = await studentApplies(page.request, 2, 'Rudzani', 'Ravele', {
    idDocument: { name: 'Certified ID – Rudzani.pdf', mimeType: 'application/pdf', buffer: bigPdf },
    transcripts: { name: 'matric statement.png', mimeType: 'image/png', buffer: png },
  });

  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  expect((await adminPage.request.post('/api/auth/login', { data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password } })).status()).toBe(200);
  await adminPage.goto('/admin/applications');
  await adminPage.getByRole('button', { name: `View APP-${appId}`, exact: true }).click();
  const id = adminPage.getByTestId('admin-document-reviews').locator('[data-review-slot="idDocument"]');
  const transcripts = adminPage.getByTestId('admin-document-reviews').locator('[data-review-slot="transcripts"]');
  await expect(id).toContainText('Certified ID – Rudzani.pdf1.2 MB');
  await expect(transcripts).toContainText(`matric statement.png${png.length} B`);

  // View opens the PDF in a new tab, in the browser's viewer, not as a download.
  const [pdfTab] = await Promise.all([adminPage.waitForEvent('popup'), id.getByRole('link', { name: 'View ID Document (opens in a new tab)' }).click()]);
  await pdfTab.waitForLoadState();
  expect(new URL(pdfTab.url()).search).toBe('?inline=1');
  // The tab holds the document itself (Chromium's PDF viewer keeps its <embed> in a closed shadow root).
  expect(await pdfTab.evaluate(() => document.contentType)).toBe('application/pdf');
  await pdfTab.close();

  // The image shows as an image.
  const [pngTab] = await Promise.all([adminPage.waitForEvent('popup'), transcripts.getByRole('link', { name: 'View Qualifications Documents (opens in a new tab)' }).click()]);
  await expect(pngTab.locator('img')).toHaveJSProperty('naturalWidth', 1);
  await pngTab.close();

  // Download saves it under its own name.
  const [download] = await Promise.all([adminPage.waitForEvent('download'), id.getByRole('link', { name: 'Download ID Document' }).click()]);
  expect(download.suggestedFilename()).toBe('Certified ID – Rudzani.pdf');
  await admin.close();
});

test('an admin rejecting from a stale "Received" after a colleague verified is told who verified it, and the panel shows Verified', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('docstale');
  expect((await page.request.post('/api/auth/register', { data: { firstName: 'Lindiwe', lastName: 'Stale', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true } })).status()).toBe(201);
  const up = async (name: string) => (await (await page.request.post('/api/uploads', { multipart: { file: { name, mimeType: 'application/pdf', buffer: Buffer.concat([Buffer.from('%PDF-1.4\n%'), crypto.randomBytes(300), Buffer.from('\n%%EOF')]) } } })).json()).upload.id as string;
  const idDocument = await up('id.pdf');
  const res = await page.request.post('/api/applications', { data: {
    courseId: 2, firstName: 'Lindiwe', lastName: 'Stale', email, phone: '0821234567', dateOfBirth: '2003-04-12', nationality: 'za',
    addressLine1: '12 Church Street', addressLine2: '', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za',
    academicHistory: { highSchool: { name: 'Mbilwi Secondary', city: 'Thohoyandou', country: 'South Africa', from: '2017', to: '2021', qualification: 'NSC', grade: '72%' } },
    documents: { idDocument, transcripts: await up('matric.pdf') },
    payment: { paymentMethod: 'card', cardNumber: '4242424242424242', cardExpiry: '12/28', cardCvc: '123', cardName: 'L Stale', paymentTerms: true }, certification: true,
  } });
  expect(res.status()).toBe(201);
  const appId = (await res.json()).application.id as number;

  const a = await browser.newContext();
  const adminPage = await a.newPage();
  expect((await adminPage.request.post('/api/auth/login', { data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password } })).status()).toBe(200);
  await adminPage.goto('/admin/applications');
  await adminPage.getByRole('button', { name: `View APP-${appId}`, exact: true }).click();
  const row = adminPage.getByTestId('admin-document-reviews').locator('[data-review-slot="idDocument"]');
  await expect(row).toContainText('Received');

  // Meanwhile a colleague verifies it from a screen that also showed Received.
  const b = await browser.newContext();
  expect((await b.request.post('/api/auth/login', { data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password } })).status()).toBe(200);
  expect((await b.request.put(`/api/admin/applications/${appId}/documents/idDocument`, { data: { status: 'verified', uploadId: idDocument, expectedState: 'received' } })).status()).toBe(200);
  await b.close();

  await row.getByRole('button', { name: 'Reject ID Document' }).click();
  await adminPage.getByLabel('Reason (shown to the applicant)').fill('Blurry.');
  await row.getByRole('button', { name: 'Reject document' }).click();
  // E2E_ADMIN was created at start-up without names: it is named after its e-mail ('admin').
  await expect(adminPage.getByTestId('toast').filter({ hasText: 'This document was already marked Verified by admin — reload to see it.' })).toBeVisible();
  await expect(row).toContainText('Verified');
  await expect(adminPage.getByTestId('review-history')).toContainText(`by admin (${E2E_ADMIN.email})`);
  const notes = (await (await page.request.get('/api/notifications')).json()).notifications as { message: string }[];
  expect(notes.some((n) => n.message.includes('Blurry.'))).toBe(false);
  await a.close();
});
