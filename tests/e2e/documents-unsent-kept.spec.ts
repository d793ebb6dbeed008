/**
 * A replacement chosen on /applications/{id} while the status is Documents Required is not lost when the page is
 * left before Send documents (phone audit 2026-11-28, 360×740): leaving asks first; coming back, the chosen file is
 * in its slot again (kept in localStorage per application, restored while GET /api/uploads still lists it); the slot
 * says it is not sent yet, with a link to Send documents, and the red 'Not accepted' note gives way to one saying the
 * new file replaces it. Once sent, nothing is kept.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { adminLogin, studentApplies } from './admin-seed.ts';

test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

const REASON = 'The photo of the ID is too blurry to read.';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n% clear copy\n');

/** Thandi's new application (as `page`'s account) with its ID rejected for REASON and the status Documents Required; its id. */
async function documentsRequired(page: Page, browser: Browser): Promise<number> {
  const id = await studentApplies(page.request, 2, 'Thandi', 'Mokoena');
  const admin = await browser.newContext();
  await adminLogin(admin.request);
  expect((await admin.request.put(`/api/admin/applications/${id}/documents/idDocument`, { data: { status: 'rejected', reason: REASON } })).status()).toBe(200);
  expect((await admin.request.put(`/api/admin/applications/${id}/status`, { data: { status: 'documents_required' } })).status()).toBe(200);
  await admin.close();
  return id;
}

test('a chosen replacement survives leaving the page (which asks first), says it is not sent yet, and is sent from there', async ({ page, browser }) => {
  const id = await documentsRequired(page, browser);

  await page.goto(`/applications/${id}`);
  const slot = page.locator('[data-slot=idDocument]');
  await expect(slot).toContainText(`Not accepted: ${REASON}`);
  await page.locator('#f-documents-idDocument').setInputFiles({ name: 'id-clear.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(page.getByTestId('file-idDocument')).toHaveText('id-clear.pdf');

  // Leaving with it unsent asks first (the browser's "Leave site?").
  let asked = '';
  page.once('dialog', (d) => { asked = d.type(); void d.accept(); });
  await page.getByRole('link', { name: '← Back to My Applications' }).click();
  await page.waitForURL('**/my-applications');
  expect(asked, 'leaving with an unsent replacement asks first').toBe('beforeunload');

  // Coming back: the choice is there, marked as not sent, and the red note now says the new file replaces it.
  await page.goto(`/applications/${id}`);
  await expect(page.getByTestId('file-idDocument')).toHaveText('id-clear.pdf');
  await expect(page.getByTestId('unsent-idDocument')).toHaveText('Not sent yet: press Send documents below.');
  await expect(slot).not.toContainText('Not accepted:');
  await expect(page.getByTestId('replaces-idDocument')).toHaveText(`Your new file replaces the ID Document we could not accept (${REASON}).`);
  // The note's link takes the focus to the button that sends.
  await page.getByTestId('unsent-idDocument').getByRole('link', { name: 'Send documents' }).click();
  const send = page.getByRole('button', { name: 'Send documents' });
  await expect(send).toBeFocused();
  await send.click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Documents submitted' })).toBeVisible();
  await expect(page.getByTestId('state-idDocument')).toHaveText('Received');
  expect(await page.evaluate((k) => localStorage.getItem(k), `college.offline.unsent-documents:${id}`)).toBeNull();
});

test('a kept choice whose upload no longer exists is not restored: the slot asks for the file again', async ({ page, browser }) => {
  const id = await documentsRequired(page, browser);
  await page.goto(`/applications/${id}`);
  await page.locator('#f-documents-idDocument').setInputFiles({ name: 'id-clear.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(page.getByTestId('file-idDocument')).toHaveText('id-clear.pdf');
  const kept = await page.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? '{}'), `college.offline.unsent-documents:${id}`);
  expect(kept.idDocument?.name).toBe('id-clear.pdf');
  // Erased meanwhile (another tab's Remove, or the week-old purge).
  expect((await page.request.delete(`/api/uploads/${encodeURIComponent(kept.idDocument.id)}`)).ok()).toBe(true);
  page.on('dialog', (d) => void d.accept());
  await page.goto(`/my-applications`);
  await page.goto(`/applications/${id}`);
  await expect(page.locator('[data-slot=idDocument]')).toContainText(`Not accepted: ${REASON}`);
  await expect(page.getByTestId('file-idDocument')).toHaveCount(0);
  await expect(page.getByTestId('unsent-idDocument')).toHaveCount(0);
  await expect.poll(() => page.evaluate((k) => localStorage.getItem(k), `college.offline.unsent-documents:${id}`)).toBeNull();
});

test('log-out erases the kept choice from the device (file names can be personal)', async ({ page, browser }) => {
  const id = await documentsRequired(page, browser);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/applications/${id}`);
  await page.locator('#f-documents-idDocument').setInputFiles({ name: 'Thandi_ID_8001.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(page.getByTestId('file-idDocument')).toHaveText('Thandi_ID_8001.pdf');
  const key = `college.offline.unsent-documents:${id}`;
  expect(await page.evaluate((k) => localStorage.getItem(k), key)).toContain('Thandi_ID_8001.pdf');
  // Kept while the person goes on elsewhere (leaving asks first), then logged out from there.
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('link', { name: '← Back to My Applications' }).click();
  await page.waitForURL('**/my-applications');
  expect(await page.evaluate((k) => localStorage.getItem(k), key)).toContain('Thandi_ID_8001.pdf');
  await page.getByRole('button', { name: 'Thandi Mokoena' }).click();
  await page.getByRole('button', { name: 'Log out', exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('data-session', 'out');
  await expect(page.getByRole('button', { name: 'Thandi Mokoena' })).toHaveCount(0);
  expect(await page.evaluate((k) => localStorage.getItem(k), key)).toBeNull();
});
