/**
 * One phone, two applicants (an internet café, a family phone; POPIA s19, ASVS 5.0 V14.3.1 and V7.4.1): what A
 * leaves behind when she logs out must never reach B. An upload cut off half-way is erased at A's log-out rather
 * than resumed into B's account; a log-out tapped without a connection is sent once the phone is online again, so
 * the next person is not signed in as A.
 */
import { expect, test, type Page } from '@playwright/test';
import { openDocumentsStep, pdfOf } from './slow-network.ts';

/** Names of the files this browser keeps for unfinished uploads (IndexedDB 'college-uploads'), and tus's records. */
async function leftOnDevice(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const tus = Object.keys(localStorage).filter((k) => k.startsWith('tus::'));
    const files: string[] = await new Promise((resolve) => {
      const open = indexedDB.open('college-uploads', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('pending');
      open.onsuccess = () => {
        const all = open.result.transaction('pending', 'readonly').objectStore('pending').getAll();
        all.onsuccess = () => { resolve((all.result as File[]).map((f) => f.name)); open.result.close(); };
        all.onerror = () => { resolve([]); open.result.close(); };
      };
      open.onerror = () => resolve([]);
    });
    return [...files, ...tus];
  });
}

async function logOutFromHeader(page: Page) {
  await page.locator('[data-user-menu-button]').click();
  await page.locator('[data-user-menu] [data-logout]').click();
}

test('A\'s upload, cut off half-way, is erased at her log-out and never reaches B\'s account on the same phone', async ({ page }) => {
  test.setTimeout(120_000);
  await openDocumentsStep(page);
  // The connection drops after the upload was created: every PATCH fails, so the file waits on the device.
  await page.route('**/api/uploads/tus/**', (route) => (route.request().method() === 'PATCH' ? route.abort('internetdisconnected') : route.continue()));
  await page.locator('#f-documents-idDocument').setInputFiles({ name: 'alice-id-scan.pdf', mimeType: 'application/pdf', buffer: pdfOf(200 * 1024) });
  await expect.poll(() => leftOnDevice(page), { timeout: 20_000 }).toContain('alice-id-scan.pdf');

  await logOutFromHeader(page);
  // The log-out sends the page home while the wizard sends it to /login: read the device once navigation settles.
  await expect.poll(() => new URL(page.url()).pathname, { timeout: 10_000 }).not.toMatch(/^\/apply/);
  await expect.poll(() => leftOnDevice(page).catch(() => ['(navigating)']), { timeout: 15_000 }).toEqual([]);

  // The connection is back; B signs up on the same phone and opens the same step: nothing of A's is sent or shown.
  await page.unroute('**/api/uploads/tus/**');
  await openDocumentsStep(page);
  await page.waitForTimeout(4000);
  await expect(page.getByText('alice-id-scan.pdf')).toHaveCount(0);
  const mine = (await (await page.request.get('/api/uploads')).json()).uploads as { name: string }[];
  expect(mine.map((u) => u.name)).not.toContain('alice-id-scan.pdf');
});

test('a log-out tapped without a connection is sent once the phone is online: the next person is not signed in as A', async ({ page, context }) => {
  test.setTimeout(120_000);
  await openDocumentsStep(page);
  expect((await page.request.get('/api/auth/me')).status()).toBe(200);

  await context.setOffline(true);
  await logOutFromHeader(page);
  // The page tried to go home without a connection; A's session cookie is still in the browser (HttpOnly).
  await page.waitForTimeout(1000);
  await context.setOffline(false);

  await page.goto('/dashboard/student/');
  await page.waitForURL(/\/login/);
  await expect(page.getByRole('heading', { name: /Welcome/ })).toHaveCount(0);
  // The server session itself is over: the cookie the browser still holds opens nothing.
  await expect.poll(async () => (await page.request.get('/api/auth/me')).status(), { timeout: 10_000 }).toBe(401);
});
