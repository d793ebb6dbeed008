/**
 * A first-time applicant on a 360 px phone whose documents are phone-camera photos (usability audit, November 2026):
 * a HEIC photo from "Take a photo" is refused with a message, not dropped; a file over 5 MB says its size and what
 * to do instead (no browser pop-up); the slot's buttons are at least 44 px tall. Spec §5 Step 3's own messages stay.
 */
import { expect, test } from '@playwright/test';
import { openDocumentsStep, pdfOf } from './slow-network.ts';

test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

/** The first bytes of an iPhone HEIC photo: an ISO-BMFF 'ftyp' box of brand 'heic'. */
const heic = () => Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), Buffer.from([0, 0, 0, 0]), Buffer.from('mif1heic'), Buffer.alloc(2000, 7)]);

test('a HEIC photo taken with "Take a photo" is refused with a message in the slot saying what to do', async ({ page }) => {
  await openDocumentsStep(page);
  await page.locator('#f-documents-idDocument-camera').setInputFiles({ name: 'IMG_0001.HEIC', mimeType: 'image/heic', buffer: heic() });
  const slot = page.locator('[data-slot=idDocument]');
  await expect(slot.getByRole('alert')).toContainText('HEIC');
  await expect(slot.getByRole('alert')).toContainText('Most compatible');
});

test('"Choose a file": a 12 MB PDF says its size and what to do, without a pop-up; a HEIC file keeps the spec line and adds the camera hint', async ({ page }) => {
  await openDocumentsStep(page);
  const dialogs: string[] = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); void d.accept(); });
  await page.locator('#f-documents-idDocument').setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: pdfOf(12 * 1024 * 1024) });
  const slot = page.locator('[data-slot=idDocument]');
  await expect(slot.getByRole('alert')).toContainText('File size exceeds 5MB limit');
  await expect(slot.getByRole('alert')).toContainText(/12(\.\d)? MB/);
  await expect(slot.getByRole('alert')).toContainText('Take a photo of each page instead');
  expect(dialogs).toEqual([]);

  await page.locator('#f-documents-transcripts').setInputFiles({ name: 'IMG_0002.HEIC', mimeType: 'image/heic', buffer: heic() });
  const other = page.locator('[data-slot=transcripts]');
  await expect(other.getByRole('alert')).toContainText('Only PDF, DOC, DOCX, JPG, JPEG and PNG files are accepted');
  await expect(other.getByRole('alert')).toContainText('Most compatible');
});

test('at 360 px the slot buttons (Take a photo, Choose a file, Replace, Remove) are at least 44 px tall', async ({ page }) => {
  await openDocumentsStep(page);
  const slot = page.locator('[data-slot=idDocument]');
  for (const name of [/^Take a photo/, /^Choose a file/]) {
    const box = await slot.getByRole('button', { name }).boundingBox();
    expect(box!.height, String(name)).toBeGreaterThanOrEqual(44);
  }
  await page.locator('#f-documents-idDocument').setInputFiles({ name: 'id.pdf', mimeType: 'application/pdf', buffer: pdfOf(2000) });
  await expect(page.getByTestId('file-idDocument')).toHaveText('id.pdf');
  for (const name of ['Replace ID Document', 'Remove ID Document']) {
    const box = await slot.getByRole('button', { name }).boundingBox();
    expect(box!.height, name).toBeGreaterThanOrEqual(44);
  }
});
