/**
 * Pages once seen open offline (issue #16 point 4): the service worker serves the catalogue, a course page,
 * About and the student's dashboard (last-known data, marked as such) without a connection; the wizard keeps
 * working and says that submission waits for a connection; log-out leaves no personal data on the device.
 */
import { expect, test as base } from '@playwright/test';
import { closeServiceWorkerContext, uniqueEmail } from './fixtures.ts';

/** The page's own context, with the service worker allowed, closed within 15 s (see closeServiceWorkerContext). */
const test = base.extend({
  context: async ({ browser, baseURL }, use) => {
    const context = await browser.newContext({ baseURL, serviceWorkers: 'allow' });
    await use(context);
    await closeServiceWorkerContext(context);
  },
});

// Each page is left as soon as it has loaded, before its islands' modules have all arrived (a quick tap onward): the
// service worker caches what the page needs when it caches the page, so the wizard still starts offline.
test('catalogue, a course, About, the dashboard and the wizard open offline once seen; log-out erases the last-known data', async ({ page, context }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('offline');
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Thandi', lastName: 'Mokoena', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true },
  });
  expect(res.status()).toBe(201);

  await page.goto('/');
  await page.evaluate(async () => { await navigator.serviceWorker.ready; });
  // Controlled from the next navigation on (clientsClaim): visit each page once while online.
  const seen = ['/courses/', '/about/', '/dashboard/student/', '/apply/2'];
  await page.goto('/courses/');
  const courseHref = await page.locator('a[href^="/courses/"]').filter({ hasNotText: /^Courses$/ }).first().getAttribute('href');
  for (const p of [...seen, courseHref!]) await page.goto(p);
  await page.goto('/dashboard/student/');
  await expect(page.getByRole('heading', { name: 'Welcome, Thandi' })).toBeVisible();

  await context.setOffline(true);
  await page.goto('/courses/');
  await expect(page.locator('main')).toContainText(/course/i);
  await page.goto(courseHref!);
  await expect(page.locator('h1')).toBeVisible();
  await page.goto('/about/');
  await expect(page.locator('h1')).toBeVisible();
  await page.goto('/dashboard/student/');
  await expect(page.getByRole('heading', { name: 'Welcome, Thandi' })).toBeVisible();
  await expect(page.getByTestId('offline-banner')).toContainText('You are offline. This is your last-known information from');
  await page.goto('/apply/2');
  await expect(page.getByTestId('offline-notice')).toHaveText('You are offline. You can keep filling in your application; it is saved on this device. Submission waits for a connection.');
  await expect(page.getByLabel('First name')).toBeVisible();
  await page.getByLabel('First name').fill('Thandiwe');

  await context.setOffline(false);
  await expect(page.getByTestId('offline-notice')).toHaveCount(0);
  // No /api/ response is in any cache of the service worker.
  const cached = await page.evaluate(async () => (await Promise.all((await caches.keys()).map(async (k) => (await (await caches.open(k)).keys()).map((r) => r.url)))).flat());
  expect(cached.filter((u) => new URL(u).pathname.startsWith('/api/'))).toEqual([]);
  expect(cached.some((u) => new URL(u).pathname.startsWith('/about'))).toBe(true);

  // Log-out: the last-known personal data is erased from this device.
  expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('college.offline.')).length)).toBeGreaterThan(0);
  await page.goto('/dashboard/student/');
  await expect(page.getByRole('heading', { name: 'Welcome, Thandi' })).toBeVisible();
  await page.locator('[data-user-menu-button]').click();
  await page.locator('[data-user-menu] [data-logout]').click();
  // The log-out sends the page home while the dashboard sends it to /login: read the storage once navigation settles.
  await page.waitForURL(/\/(login\/?)?$/);
  const left = () => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('college.offline')).length).catch(() => -1);
  await expect.poll(left, { timeout: 20_000 }).toBe(0);
});
