/**
 * "No lost work" at log-out (issue #16; audit, November 2026): on a 360 px phone an applicant types a grade and taps
 * "Open menu" → "Log out" before the wizard's 1.2 s pause has sent it. The log-out first sends what is waiting and
 * only then ends the session and erases this device's draft copies; a change that cannot be sent is not erased
 * without asking. Meanwhile the draft status line does not claim 'Draft saved'. A log-out in another tab of the
 * browser asks the wizard's tab to send its waiting change first, so it asks nothing when that tab could send it.
 */
import { expect, test, type Page, type Route } from '@playwright/test';
import { logInThroughUi } from './fixtures.ts';
import { DRAFT_SAVE_PAUSE_MS } from '../../api/contracts/application-steps.ts';
import { DRAFT, logOutInOpenMenu, openAt, PASSWORD, sessionEndedDialog, signUp, wizardAndSecondTab } from './wizard-draft.ts';

test.use({ viewport: { width: 360, height: 740 } });

const GRADE = '#f-academicHistory-highSchool-grade';

async function logOutFromDrawer(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.locator('[data-drawer] [data-logout]').click();
}

/** The wizard's server draft (a predicate: a glob's '?' is not a literal question mark). */
const isDraft = (u: URL) => u.pathname === '/api/applications/draft';
/** Log-out sends the page home while the wizard, seeing nobody signed in, sends it to /login: either will do. */
// The two navigations race, and the one that loses is aborted, so the address is read rather than waited for.
const loggedOutAway = (page: Page) => expect.poll(() => new URL(page.url()).pathname, { timeout: 20_000 }).not.toMatch(/^\/apply/);
const serverGrade = async (page: Page) => (await (await page.request.get(DRAFT)).json()).draft?.data?.academicHistory?.highSchool?.grade;
const localDrafts = (page: Page) => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('apply-draft:')).map((k) => localStorage.getItem(k)).join()).catch(() => '(navigating)');

test('a grade typed just before "Log out" is on the server and in the field after logging in again', async ({ page }) => {
  const email = await signUp(page, 'logout-pending');
  await openAt(page, 1, 'Academic History');

  await page.locator(GRADE).fill('88%');
  await logOutFromDrawer(page);
  await loggedOutAway(page);

  await logInThroughUi(page, email, PASSWORD);
  expect(await serverGrade(page)).toBe('88%');
  await page.goto('/apply/2');
  await expect(page.getByRole('heading', { name: 'Academic History' })).toBeVisible({ timeout: 60_000 });
  await expect(page.locator(GRADE)).toHaveValue('88%');
});

test('the status says "Saving draft…" until the change is on the server, and the log-out waits for that save', async ({ page }) => {
  await signUp(page, 'logout-pending');
  await openAt(page, 1, 'Academic History');
  const order: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((r) => { release = r; });
  await page.route(isDraft, async (route: Route) => {
    if (route.request().method() !== 'PUT') return route.fallback();
    order.push('draft put');
    await held;
    const res = await route.fetch();
    order.push(`draft saved ${res.status()}`);
    await route.fulfill({ response: res });
  });
  page.on('request', (r) => { if (r.url().includes('/auth/logout')) order.push('logout'); });

  await page.locator(GRADE).fill('91%');
  // Read once, at once: the save is held above, so 'Draft saved' now could only be untrue.
  expect(await page.getByTestId('draft-status').textContent()).toBe('Saving draft…');
  await logOutFromDrawer(page);
  await expect.poll(() => order).toContain('draft put');
  expect(order).not.toContain('logout');
  await expect(page.getByTestId('draft-status')).toHaveText('Saving draft…');
  release();
  await loggedOutAway(page);
  expect(order).toEqual(['draft put', 'draft saved 200', 'logout']);
  await expect.poll(() => localDrafts(page)).toBe('');
});

test('a change that cannot be sent is not erased without asking: Cancel stays logged in with it, OK logs out and erases it', async ({ page }) => {
  await signUp(page, 'logout-pending');
  await openAt(page, 1, 'Academic History');
  await page.route(isDraft, (route) => (route.request().method() === 'PUT' ? route.abort('internetdisconnected') : route.fallback()));

  await page.locator(GRADE).fill('77%');
  // Answered as it opens: a dialog nobody answers holds the page, and the click that opened it, forever.
  const asked: { type: string; message: string }[] = [];
  page.once('dialog', (d) => { asked.push({ type: d.type(), message: d.message() }); void d.dismiss(); });
  await logOutFromDrawer(page);
  await expect.poll(() => asked.length).toBe(1);
  expect(asked[0]!.type).toBe('confirm');
  expect(asked[0]!.message).toContain('not reached your account');
  // Cancel: still logged in on the wizard, the change kept on this device.
  await expect(page.locator('[data-drawer] [data-logout]')).toBeEnabled();
  expect((await page.request.get('/api/auth/me')).status()).toBe(200);
  expect(page.url()).toContain('/apply/2');
  await expect(page.locator(GRADE)).toHaveValue('77%');
  expect(await localDrafts(page)).toContain('77%');

  // OK: the person chose to log out and erase it from this (perhaps shared) device.
  page.once('dialog', (d) => void d.accept());
  await page.locator('[data-drawer] [data-logout]').click();
  await loggedOutAway(page);
  expect((await page.request.get('/api/auth/me')).status()).toBe(401);
  await expect.poll(() => localDrafts(page)).toBe('');
});

test('"Log out" in another tab while the wizard waits to save: no question, the change reaches the server first', async ({ page: tabA, request }) => {
  const { email, tabB, asked } = await wizardAndSecondTab(tabA, 'logout-other-tab');
  const order: string[] = [];
  tabA.on('request', (r) => { if (isDraft(new URL(r.url())) && r.method() === 'PUT') order.push('tab A saves'); });

  // Tab A's pause never ends by itself here (its 1.2 s timers are not scheduled), so only tab B's request can send
  // the change: on a slow machine the pause could otherwise end before the click, and the test prove nothing.
  await tabA.evaluate((ms) => {
    const w = window as unknown as { setTimeout: typeof setTimeout; keptSetTimeout?: typeof setTimeout };
    w.keptSetTimeout = w.setTimeout;
    w.setTimeout = ((fn: () => void, delay?: number, ...rest: unknown[]) => (delay === ms ? 0 : w.keptSetTimeout!(fn, delay, ...rest))) as typeof setTimeout;
  }, DRAFT_SAVE_PAUSE_MS);
  await tabA.locator(GRADE).fill('93%');
  await expect(tabA.getByTestId('draft-status')).toHaveText('Saving draft…');
  order.push('log out in tab B');
  await logOutInOpenMenu(tabB, asked);
  expect(asked).toEqual([]);
  expect(order.slice(0, 2)).toEqual(['log out in tab B', 'tab A saves']);
  await tabA.evaluate(() => { const w = window as unknown as { setTimeout: typeof setTimeout; keptSetTimeout: typeof setTimeout }; w.setTimeout = w.keptSetTimeout; });
  expect((await tabB.request.get('/api/auth/me')).status()).toBe(401);

  // The account has tab A's change (a log-in of its own, apart from the browser's).
  expect((await request.post('/api/auth/login', { data: { email, password: PASSWORD } })).status()).toBe(200);
  expect((await (await request.get(DRAFT)).json()).draft?.data?.academicHistory?.highSchool?.grade).toBe('93%');

  // Tab A is now a page whose session ended, as after any log-out: its next change asks to log in again, and is kept.
  await tabA.locator(GRADE).fill('95%');
  const again = sessionEndedDialog(tabA);
  await expect(again).toBeVisible();
  await expect(tabA.getByTestId('draft-status')).toContainText('log in again');
  await again.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await again.getByRole('button', { name: 'Log in and save' }).click();
  await expect(tabA.getByTestId('draft-status')).toHaveText('Draft saved');
  expect((await (await request.get(DRAFT)).json()).draft?.data?.academicHistory?.highSchool?.grade).toBe('95%');
});

test('"Log out" in another tab while the wizard cannot reach the server still asks first, and Cancel keeps both', async ({ page: tabA }) => {
  const { tabB, asked } = await wizardAndSecondTab(tabA, 'logout-other-tab-offline');
  await tabA.route(isDraft, (route) => (route.request().method() === 'PUT' ? route.abort('internetdisconnected') : route.fallback()));

  await tabA.locator(GRADE).fill('64%');
  await logOutInOpenMenu(tabB, asked);
  expect(asked).toHaveLength(1);
  expect(asked[0]).toContain('not reached your account');
  expect((await tabB.request.get('/api/auth/me')).status()).toBe(200);
  await expect(tabB.locator('[data-drawer] [data-logout]')).toBeEnabled();
  await expect(tabA.getByTestId('draft-status')).toContainText('on this device');
  await expect(tabA.locator(GRADE)).toHaveValue('64%');
  expect(await localDrafts(tabA)).toContain('64%');
});
