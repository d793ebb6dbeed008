/**
 * No lost work on a bad connection (issue #16 point 5, point 2): in the wizard's document slot, on a throttled
 * network (CDP Network.emulateNetworkConditions: 250 kbps down, 100 kbps up, 400 ms round trip) the connection is
 * cut twice in the middle of an upload; the upload finishes by itself without starting over. "Bytes sent" is
 * counted in the browser as the full body of every PATCH request made, cut ones included (an upper bound: a tus
 * PATCH body is the file from its Upload-Offset header, CHUNK_BYTES long). A 12-megapixel camera photo is
 * compressed to ≤ 300 KB before it is sent.
 */
import { expect, test } from '@playwright/test';
import crypto from 'node:crypto';
import { cut, openDocumentsStep, pdfOf, throttle, tusMeter } from './slow-network.ts';

test('a document upload on a slow link survives two cuts and finishes without starting over', async ({ page }) => {
  test.setTimeout(400_000);
  await openDocumentsStep(page);
  const file = pdfOf(1024 * 1024);
  const meter = tusMeter(page, file.length);
  const cdp = await throttle(page);
  await page.locator('#f-documents-idDocument').setInputFiles({ name: 'id-document.pdf', mimeType: 'application/pdf', buffer: file });
  const bar = page.getByRole('progressbar', { name: 'Uploading ID Document' });
  await expect(bar).toBeVisible();
  // At 100 kbps 1 MB takes about 90 s: cut at about a quarter and at about two thirds.
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 60_000 }).toBeGreaterThanOrEqual(25);
  await cut(cdp, 3000);
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow') ?? 100), { timeout: 90_000 }).toBeGreaterThanOrEqual(60);
  await cut(cdp, 3000);
  await expect(page.getByTestId('file-idDocument')).toHaveText('id-document.pdf', { timeout: 240_000 });

  // Resumed, not restarted: one upload created, the server reported a non-zero offset after each cut, and the
  // bytes sent stay near the file's size.
  expect(meter.creations()).toBe(1);
  expect(meter.heads.filter((o) => o > 0).length).toBeGreaterThanOrEqual(2);
  const sent = meter.sent();
  console.info(`[tus e2e] file ${file.length} B, bytes sent ${sent} B (${(sent / file.length).toFixed(3)}×), ${meter.offsets.length} PATCHes, HEAD offsets ${meter.heads.join(',')}`);
  expect(sent).toBeGreaterThanOrEqual(file.length);
  expect(sent).toBeLessThanOrEqual(1.2 * file.length);
  // The finished upload is the file, byte for byte.
  const list = (await (await page.request.get('/api/uploads')).json()).uploads as { id: string; name: string; size: number; sha256: string }[];
  const up = list.find((u) => u.name === 'id-document.pdf')!;
  expect(up.size).toBe(file.length);
  expect(up.sha256).toBe(crypto.createHash('sha256').update(file).digest('hex'));
});

test('a 12-megapixel camera photo is compressed in the browser to at most 300 KB; two photos become one PDF', async ({ page }) => {
  test.setTimeout(300_000);
  await openDocumentsStep(page);
  // A 4000 × 3000 JPEG with fine detail, made by the browser's own encoder (as a phone camera would).
  const photo = Buffer.from(await page.evaluate(async () => {
    const c = document.createElement('canvas'); c.width = 4000; c.height = 3000;
    const ctx = c.getContext('2d')!;
    const img = ctx.createImageData(4000, 3000);
    for (let p = 0, i = 0; p < 12_000_000; p++, i += 4) { const x = p % 4000, y = (p / 4000) | 0; const v = 128 + 90 * Math.sin(x / 7) * Math.cos(y / 11) + ((x ^ y) & 31); img.data[i] = v; img.data[i + 1] = v * 0.9; img.data[i + 2] = 255 - v; img.data[i + 3] = 255; }
    ctx.putImageData(img, 0, 0);
    const blob: Blob = await new Promise((r) => c.toBlob((b) => r(b!), 'image/jpeg', 0.95));
    return Array.from(new Uint8Array(await blob.arrayBuffer()));
  }));
  expect(photo.length).toBeGreaterThan(1_000_000);
  page.on('dialog', (d) => void d.accept());

  await page.locator('#f-documents-idDocument-camera').setInputFiles({ name: 'IMG_0001.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(page.getByRole('img', { name: 'Page 1' })).toBeVisible();
  // Targets a finger can hit (WCAG 2.5.8; they were 22×26 px, 4 px apart).
  for (const name of ['Rotate page 1', 'Remove page 1']) {
    const box = (await page.getByRole('button', { name }).boundingBox())!;
    expect(Math.min(box.width, box.height), name).toBeGreaterThanOrEqual(44);
  }
  await page.getByRole('button', { name: 'Rotate page 1' }).click();
  await page.getByRole('button', { name: 'Use this photo' }).click();
  await expect(page.getByTestId('file-idDocument')).toHaveText('id-document.jpg', { timeout: 60_000 });
  const list1 = (await (await page.request.get('/api/uploads')).json()).uploads as { name: string; size: number; mime: string }[];
  const one = list1.find((u) => u.name === 'id-document.jpg')!;
  console.info(`[photo] 12-MP photo ${photo.length} B → ${one.size} B (${one.mime})`);
  expect(one.size).toBeLessThanOrEqual(300 * 1024);
  expect(one.mime).toBe('image/jpeg');

  // Three pages of a statement: take two, remove one, take another → one PDF of two pages.
  for (const name of ['p1.jpg', 'p2.jpg']) await page.locator('#f-documents-transcripts-camera').setInputFiles({ name, mimeType: 'image/jpeg', buffer: photo });
  await expect(page.getByRole('button', { name: 'Take another page' }).first()).toBeVisible();
  await page.locator('#f-documents-transcripts-camera').setInputFiles({ name: 'p3.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(page.getByTestId('photos-transcripts').getByRole('img')).toHaveCount(3);
  await page.getByRole('button', { name: 'Remove page 2' }).click();
  await expect(page.getByTestId('photos-transcripts').getByRole('img')).toHaveCount(2);
  await page.getByRole('button', { name: 'Use these 2 pages (one PDF)' }).click();
  await expect(page.getByTestId('file-transcripts')).toHaveText('qualifications-documents.pdf', { timeout: 60_000 });
  const list2 = (await (await page.request.get('/api/uploads')).json()).uploads as { name: string; size: number; mime: string }[];
  const pdf = list2.find((u) => u.name === 'qualifications-documents.pdf')!;
  expect(pdf.mime).toBe('application/pdf');
  expect(pdf.size).toBeLessThanOrEqual(2 * 300 * 1024 + 10_000);
});

test('the login ended while the applicant was away: attaching a document asks them to log in again, then the upload finishes', async ({ page }) => {
  await openDocumentsStep(page);
  expect((await page.request.post('/api/auth/logout')).status()).toBeLessThan(300);
  const file = pdfOf(200 * 1024);
  await page.locator('#f-documents-idDocument').setInputFiles({ name: 'id-document.pdf', mimeType: 'application/pdf', buffer: file });
  const again = page.getByRole('dialog', { name: 'Your session has ended' });
  await again.getByLabel('Password').fill('secret123');
  await again.getByRole('button', { name: 'Log in and save' }).click();
  await expect(page.getByTestId('file-idDocument')).toHaveText('id-document.pdf');
  const list = (await (await page.request.get('/api/uploads')).json()).uploads as { name: string; sha256: string }[];
  expect(list.filter((u) => u.name === 'id-document.pdf').map((u) => u.sha256)).toEqual([crypto.createHash('sha256').update(file).digest('hex')]);
});

test('at the account\'s limit of documents not in an application, attaching one says so at once instead of retrying', async ({ page }) => {
  await openDocumentsStep(page);
  // Twenty documents sent outside the wizard (uploads/quota.ts MAX_UNATTACHED_UPLOADS): the account is at its limit.
  for (let i = 0; i < 20; i++) {
    const res = await page.request.post('/api/uploads', { multipart: { file: { name: `old-${i}.pdf`, mimeType: 'application/pdf', buffer: pdfOf(2048) } } });
    expect(res.status(), `upload ${i}`).toBe(201);
  }
  let creations = 0;
  page.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith('/api/uploads/tus')) creations++; });
  await page.locator('#f-documents-idDocument').setInputFiles({ name: 'id-document.pdf', mimeType: 'application/pdf', buffer: pdfOf(4096) });
  // The server's 409 upload_limit is not the tus offset conflict a retry resolves: one creation, and its words.
  await expect(page.getByText('You have 20 documents that are not part of an application. Delete the ones you no longer need, then upload again.')).toBeVisible();
  expect(creations).toBe(1);
});
