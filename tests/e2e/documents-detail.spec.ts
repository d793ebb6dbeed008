/**
 * The application page on a 360 px phone (usability audit, November 2026): a rejected document is asked for first,
 * with its reason, in one upload area; a photo sent in its place gets a clean name; the receipt is "Received" with
 * the SHA-256 under "Proof of receipt"; an accepted application says what happens next and gives the office phone.
 */
import crypto from 'node:crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { adminLogin, studentApplies } from './admin-seed.ts';
import site from '../../content/site.json' with { type: 'json' };

test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

const REASON = 'The photo of the ID is too blurry to read.';

/** As the admin (a context of its own): rejects `slot` of application `id` with REASON (when given) and sets `status`. */
async function adminDecides(browser: Browser, id: number, status: string, rejectSlot?: string) {
  const ctx = await browser.newContext();
  await adminLogin(ctx.request);
  if (rejectSlot) expect((await ctx.request.put(`/api/admin/applications/${id}/documents/${rejectSlot}`, { data: { status: 'rejected', reason: REASON } })).status()).toBe(200);
  expect((await ctx.request.put(`/api/admin/applications/${id}/status`, { data: { status } })).status()).toBe(200);
  await ctx.close();
}

async function rejectedId(page: Page, browser: Browser): Promise<number> {
  const id = await studentApplies(page.request, 2, 'Thandi', 'Mokoena');
  await adminDecides(browser, id, 'documents_required', 'idDocument');
  await page.goto(`/applications/${id}`);
  await expect(page.getByRole('heading', { name: 'Status timeline' })).toBeVisible();
  return id;
}

test('documents required with a rejected ID: the first upload slot is the ID, required, with its reason; one upload control for it', async ({ page, browser }) => {
  await rejectedId(page, browser);
  const first = page.locator('[data-slot]').first();
  await expect(first).toHaveAttribute('data-slot', 'idDocument');
  await expect(first).toContainText('(required)');
  await expect(first).toContainText(REASON);
  await expect(page.locator('input[type=file][id$="idDocument"]')).toHaveCount(1);
  await expect(page.getByText('Add other documents (optional)')).toBeVisible();
});

test('a photo sent in place of a rejected ID is named after the slot, not the label on screen', async ({ page, browser }) => {
  await rejectedId(page, browser);
  const jpeg = Buffer.from(await page.evaluate(async () => {
    const c = document.createElement('canvas'); c.width = 300; c.height = 200;
    const ctx = c.getContext('2d')!; ctx.fillStyle = '#369'; ctx.fillRect(0, 0, 300, 200); ctx.fillStyle = '#fff'; ctx.fillText('ID', 20, 20);
    const blob: Blob = await new Promise((r) => c.toBlob((b) => r(b!), 'image/jpeg', 0.9));
    return Array.from(new Uint8Array(await blob.arrayBuffer()));
  }));
  await page.locator('#f-documents-idDocument-camera').setInputFiles({ name: 'IMG_0003.jpg', mimeType: 'image/jpeg', buffer: jpeg });
  await page.getByRole('button', { name: 'Use this photo' }).click();
  await expect(page.getByTestId('file-idDocument')).toHaveText('id-document.jpg');
});

test('the receipt reads "Received" with the SHA-256 under "Proof of receipt"', async ({ page }) => {
  const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n%'), crypto.randomBytes(400), Buffer.from('\n%%EOF')]);
  const id = await studentApplies(page.request, 2, 'Thandi', 'Mokoena', { idDocument: { name: 'id.pdf', mimeType: 'application/pdf', buffer: pdf }, transcripts: { name: 'matric.pdf', mimeType: 'application/pdf', buffer: pdf } });
  await page.goto(`/applications/${id}`);
  const list = page.getByTestId('document-checklist');
  await expect(page.getByTestId('state-idDocument')).toHaveText('Received');
  await expect(list).not.toContainText('SHA-256):');
  const hash = crypto.createHash('sha256').update(pdf).digest('hex');
  const proof = list.locator('[data-slot-state=idDocument] details');
  await expect(proof.locator('summary')).toHaveText('Proof of receipt');
  await proof.locator('summary').click();
  await expect(proof).toContainText(`Receipt code: ${hash}`);
  await expect(proof).not.toContainText('SHA-256');
});

test('an accepted application says what happens next, as the Accepted e-mail does, with the office phone', async ({ page, browser }) => {
  const id = await studentApplies(page.request, 2, 'Thandi', 'Mokoena');
  await adminDecides(browser, id, 'accepted');
  await page.goto(`/applications/${id}`);
  await expect(page.getByText('Congratulations: you have been accepted. The admissions office will contact you about registration and your start date.')).toBeVisible();
  await expect(page.getByRole('link', { name: site.telephone })).toBeVisible();
});

test('Send documents without the rejected ID: the focus goes to its "Choose a file" button, which the error describes (WCAG 3.3.1, 4.1.3)', async ({ page, browser }) => {
  await rejectedId(page, browser);
  const send = page.getByRole('button', { name: 'Send documents' });
  await send.focus();
  await page.keyboard.press('Enter');
  const choose = page.getByRole('button', { name: 'Choose a file for ID Document' });
  await expect(choose).toBeFocused();
  await expect(choose).toHaveAccessibleDescription('Please upload a new ID Document');
});

test('Send documents pressed while the checklist is still on its way (a loaded phone): busy while it waits, then the focus still goes to the rejected ID\'s "Choose a file" button', async ({ page, browser }) => {
  const id = await studentApplies(page.request, 2, 'Thandi', 'Mokoena');
  await adminDecides(browser, id, 'documents_required', 'idDocument');
  // The checklist (which says the ID on file was rejected) answers only once Send was pressed.
  let release!: () => void;
  const pressed = new Promise<void>((r) => { release = r; });
  await page.route(`**/api/applications/${id}/checklist`, async (route) => { await pressed; await route.continue(); });
  await page.goto(`/applications/${id}`);
  const send = page.getByRole('button', { name: 'Send documents' });
  await send.focus();
  await page.keyboard.press('Enter');
  // While the checklist is held the press shows as taken: the button is busy (BusyButton: aria-busy, 'Sending...').
  const busy = page.getByRole('button', { name: 'Sending...' });
  await expect(busy).toHaveAttribute('aria-busy', 'true');
  await expect(busy).toBeFocused();
  release();
  const choose = page.getByRole('button', { name: 'Choose a file for ID Document' });
  await expect(choose).toBeFocused();
  await expect(choose).toHaveAccessibleDescription('Please upload a new ID Document');
  await expect(page.getByText('Please upload at least one document')).toHaveCount(0);
});
