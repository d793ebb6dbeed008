/**
 * "No lost work" QA audit (phone, 360 px, 2026-11-28), defect 1: a draft save that fails while the phone is online
 * (the server unreachable for a while) is retried by itself with back-off (draft-store.ts), and the status line
 * says it will keep trying — never that the phone is offline, which it is not. Before: 'Draft saved on this device;
 * it will sync when you are back online.' for a minute and more, and the server draft got the change only at the
 * next keystroke. The retries are driven by holding and failing the PUTs (page.route), not by waiting.
 */
import { expect, test, type Route } from '@playwright/test';
import { DRAFT, GRADE_FIELD, openAt, signUp } from './wizard-draft.ts';

test.use({ viewport: { width: 360, height: 740 } });

const RETRYING = 'Draft saved on this device; we will keep trying to save it to your account.';

test('a draft save that fails while online is retried by itself, and the status never says offline', async ({ page }) => {
  await signUp(page, 'draft-retry');
  await openAt(page, 1, 'Academic History');
  const status = page.getByTestId('draft-status');

  // The server cannot be reached: every draft PUT fails as a refused connection would, until `down` is false.
  let down = true;
  let failedPuts = 0;
  let sentAfterBack = 0;
  await page.route(`**${DRAFT}`, async (route: Route) => {
    if (route.request().method() !== 'PUT') return route.fallback();
    if (down) { failedPuts++; return route.abort('connectionrefused'); }
    sentAfterBack++;
    return route.fallback();
  });

  await page.locator(GRADE_FIELD).fill('72%');
  // Tried again without any keystroke (the first retry comes 2 s after the failure).
  await expect.poll(() => failedPuts, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  expect(await page.evaluate(() => navigator.onLine)).toBe(true);
  await expect(status).toHaveText(RETRYING);
  await expect(status).not.toContainText('back online');

  // The server is back; nothing more is typed. The next retry delivers the change.
  down = false;
  await expect.poll(() => sentAfterBack, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
  await expect(status).toHaveText('Draft saved');
  const read = async () => (await (await page.request.get(DRAFT)).json()).draft?.data?.academicHistory?.highSchool?.grade;
  await expect.poll(read).toBe('72%');
  await expect(page.locator(GRADE_FIELD)).toHaveValue('72%');
});

test('a failed save is sent again at once when the tab becomes visible again', async ({ page }) => {
  await signUp(page, 'draft-retry');
  // The page's clock is Playwright's: paused below, so no timed retry can be what sends the save again.
  await page.clock.install();
  await openAt(page, 1, 'Academic History');
  const status = page.getByTestId('draft-status');
  let down = true;
  let puts = 0;
  await page.route(`**${DRAFT}`, async (route: Route) => {
    if (route.request().method() !== 'PUT') return route.fallback();
    puts++;
    if (down) return route.abort('connectionrefused');
    return route.fallback();
  });
  await page.locator(GRADE_FIELD).fill('81%');
  await expect.poll(() => puts).toBe(1);
  await expect(status).toHaveText(RETRYING);
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 100));
  down = false;
  // The applicant switches back to the tab (the page hears visibilitychange with the document visible).
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expect.poll(() => puts).toBe(2);
  await expect(status).toHaveText('Draft saved');
  await expect.poll(async () => (await (await page.request.get(DRAFT)).json()).draft?.data?.academicHistory?.highSchool?.grade).toBe('81%');
  await page.clock.resume();
});
