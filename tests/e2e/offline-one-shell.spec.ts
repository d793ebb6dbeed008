/**
 * The wizard opens offline whatever course its address names (QA at 360×740 on a bad connection, 2026-11-28): the
 * server sends one shell page for /apply and every /apply/{courseId} (api/src/site-build/serve.ts SHELLS), and the
 * service worker now keeps it as one entry of its page cache (site/integrations/service-worker.mjs, onePagePerShell).
 * Before, /apply/1 and /apply/7 were two entries: an applicant who had opened /apply/1 and then went to /apply/7 without
 * a connection got the browser's offline error page, and so on every reload. And a first visit straight to a deep link
 * (an SMS's /apply/7), which the worker does not control, now enters the cache too when the worker activates, copied
 * from the browser's HTTP cache (only-if-cached, service-worker.mjs firstVisitCopy) rather than downloaded again.
 */
import { expect, test as base, type Page } from '@playwright/test';
import { closeServiceWorkerContext, uniqueEmail } from './fixtures.ts';

/** The page's own context, with the service worker allowed, closed within 15 s (see closeServiceWorkerContext). */
const test = base.extend({
  context: async ({ browser, baseURL }, use) => {
    const context = await browser.newContext({ baseURL, serviceWorkers: 'allow', viewport: { width: 360, height: 740 } });
    await use(context);
    await closeServiceWorkerContext(context);
  },
});

/** Registers a student through the API in the page's own cookie jar (signed in). */
async function signUp(page: Page, tag: string): Promise<void> {
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Thandi', lastName: 'Mokoena', email: uniqueEmail(tag), password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true },
  });
  expect(res.status()).toBe(201);
}

/** The wizard's first step, not an error page: the folded step list says "Step 1 of 5" and the form's first field shows. */
async function expectWizard(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: 'Step 1 of 5: Personal Information' })).toBeVisible();
  await expect(page.locator('[data-wizard] form')).toBeVisible();
  await expect(page.getByLabel('First name')).toBeVisible();
}

/** The paths of the service worker's page cache. */
const pageCache = (page: Page) => page.evaluate(async () => (await (await caches.open('pages')).keys()).map((r) => new URL(r.url).pathname).sort());

test('/apply/7 opens offline, and again on reload, after only /apply/1 was opened online: one cache entry for the wizard', async ({ page, context }) => {
  await signUp(page, 'offline-shell');
  await page.goto('/');
  await page.evaluate(async () => { await navigator.serviceWorker.ready; });
  await page.goto('/apply/1');
  await expectWizard(page);
  expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  // The worker stores the page after the navigation, in the background: wait for it before the connection goes.
  await expect.poll(async () => (await pageCache(page)).some((p) => p.startsWith('/apply'))).toBe(true);

  await context.setOffline(true);
  await page.goto('/apply/7');
  await expectWizard(page);
  await expect(page.getByTestId('offline-notice')).toBeVisible();
  await page.reload();
  await expectWizard(page);
  expect((await pageCache(page)).filter((p) => p.startsWith('/apply'))).toEqual(['/apply']);
  await context.setOffline(false);
});

test('a first visit straight to /apply/7 (not controlled by the worker yet) opens offline on reload', async ({ page, context }) => {
  await signUp(page, 'offline-first-visit');
  await page.goto('/apply/7');
  await expectWizard(page);
  // The worker takes the page over (clientsClaim) and the page's copy is put in its cache.
  await page.waitForFunction(() => !!navigator.serviceWorker.controller);
  // Soft: without the copy the reload below shows what the applicant would see.
  await expect.configure({ soft: true }).poll(() => pageCache(page)).toEqual(['/apply']);

  await context.setOffline(true);
  await page.reload();
  await expectWizard(page);
  await expect(page.getByTestId('offline-notice')).toBeVisible();
  await context.setOffline(false);
});
