/**
 * The wizard's first reads (issue #17: Lighthouse mobile performance on /apply): opening /apply/{id} signed in
 * reads each thing it needs once — the course, the applicant's applications, the profile's NSC results, the server
 * draft and the application fee — and the fee read before the session check answered is still kept on the device
 * for this user, so the Payment step shows it offline (issue #16).
 */
import { expect, test } from '@playwright/test';
import { uniqueEmail } from './fixtures.ts';

test('opening the wizard reads the fee, the course, the applications, the NSC results and the draft once each', async ({ page }) => {
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Lerato', lastName: 'Ndlovu', email: uniqueEmail('reads'), password: 'secret123', confirmPassword: 'secret123', phone: '0831234567', terms: true },
  });
  expect(res.status()).toBe(201);
  const userId = (await res.json()).user.id as number;
  const reads: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (r.method() === 'GET' && url.pathname.startsWith('/api/') && url.pathname !== '/api/auth/me') reads.push(url.pathname + url.search);
  });
  await page.goto('/apply/1');
  await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
  await expect(page.getByTestId('selected-course')).toBeVisible();
  const count = (path: string) => reads.filter((r) => r === path).length;
  const counts = () => ({
    fee: count('/api/settings/application-fee'), course: count('/api/courses/1'), mine: count('/api/applications?mine=1'),
    nsc: count('/api/profile/nsc-results'), draft: count('/api/applications/draft?key=course-1'),
  });
  // Every read made first: Playwright's 'networkidle' fires once per page load and stays fired, so on a loaded
  // machine a 500 ms pause before the island's first fetch (module evaluation, hydration) let it resolve at once.
  await expect.poll(counts).toEqual({ fee: 1, course: 1, mine: 1, nsc: 1, draft: 1 });
  await page.waitForLoadState('networkidle');
  expect(counts()).toEqual({ fee: 1, course: 1, mine: 1, nsc: 1, draft: 1 });
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('college.offline.application-fee') ?? 'null'));
  expect(kept).toMatchObject({ userId, data: expect.stringMatching(/^\d+\.\d{2}$/) });
});

test('the step schemas load once the browser is idle after the form shows, and then check the step', async ({ page }) => {
  // Idle callbacks wait until the test runs them, so "not yet idle" lasts as long as the test needs.
  await page.addInitScript(() => {
    const held: (() => void)[] = [];
    (window as unknown as { __idle: (() => void)[] }).__idle = held;
    window.requestIdleCallback = ((cb: IdleRequestCallback) => held.push(() => cb({ didTimeout: false, timeRemaining: () => 50 }))) as typeof requestIdleCallback;
  });
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Lerato', lastName: 'Ndlovu', email: uniqueEmail('schemas'), password: 'secret123', confirmPassword: 'secret123', phone: '0831234567', terms: true },
  });
  expect(res.status()).toBe(201);
  const schemas: string[] = [];
  page.on('request', (r) => { if (/\/_astro\/step-schemas\.[^/]*\.js$/.test(new URL(r.url()).pathname)) schemas.push(new URL(r.url()).pathname); });
  await page.goto('/apply/1');
  await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(schemas).toEqual([]);
  await expect.poll(async () => {
    await page.evaluate(() => { for (const run of (window as unknown as { __idle: (() => void)[] }).__idle.splice(0)) run(); });
    return schemas.length;
  }).toBe(1);
  await page.getByLabel('First name').fill('');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByLabel('First name')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
});
