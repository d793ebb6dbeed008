/**
 * A wizard draft is saved only into the account it belongs to (security audit, November 2026, LOW: "a wizard draft
 * can be saved into another account on a shared computer"). The session cookie and the bearer token are the
 * browser's, shared by its tabs: here A's wizard tab stays open while A's session ends and B logs in "in another
 * tab" (B's cookie and token set in the same browser context, as api-client.ts stores them). A's answers must never
 * reach B's account — not from the wizard's own save, the page-close save, nor a session update taken for a log-in —
 * and they stay on this device until A logs in again; the wizard says another account is logged in (DRAFT_OTHER_USER),
 * and A's "Start over" never deletes B's draft.
 */
import { expect, test, type Page } from '@playwright/test';
import { DRAFT_OTHER_USER } from '../../api/contracts/application-steps.ts';
import { uniqueEmail } from './fixtures.ts';
import { DRAFT, PASSWORD, logInAgainSendsDraft, openAt, otherAccountDialog, recordDraftPuts, sessionEndedDialog, signUp } from './wizard-draft.ts';

test.use({ viewport: { width: 360, height: 740 } });

const ON_DEVICE = 'Draft saved on this device; log in again to save it to your account.';
const GRADE = '#f-academicHistory-highSchool-grade';

/**
 * A's session ends and B (a new applicant) logs in in another tab of this browser: B's session cookie and bearer
 * token replace A's. Returns B's e-mail, to read B's draft later whoever the browser is logged in as.
 */
async function otherPersonLogsIn(page: Page): Promise<string> {
  await page.context().clearCookies({ name: 'college.sid' });
  const email = uniqueEmail('other-account-b');
  const reg = await page.context().request.fetch('/api/auth/register', {
    method: 'POST', data: { firstName: 'Bongani', lastName: 'Zulu', email, password: PASSWORD, confirmPassword: PASSWORD, phone: '0821234568', terms: true },
  });
  expect(reg.status()).toBe(201);
  await page.context().clearCookies({ name: 'college.sid' });
  const login = await page.request.post('/api/colfront/auth/login', { data: { email, password: PASSWORD, rememberMe: false } });
  expect(login.status()).toBe(200);
  const { token } = await login.json() as { token: string };
  expect(token).toBeTruthy();
  await page.evaluate((t) => { localStorage.setItem('authToken', t); }, token);
  return email;
}

/**
 * The server draft of course 2 of the account `email` (null: none), read in a browser context of its own (a log-in
 * in the page's browser ends the session it replaces, B's token with it).
 */
async function draftOf(page: Page, email: string): Promise<unknown> {
  const ctx = await page.context().browser()!.newContext({ baseURL: new URL(page.url()).origin });
  try {
    expect((await ctx.request.post('/api/colfront/auth/login', { data: { email, password: PASSWORD, rememberMe: false } })).status()).toBe(200);
    const r = await ctx.request.get(DRAFT);
    expect(r.status()).toBe(200);
    return (await r.json() as { draft: unknown }).draft;
  } finally { await ctx.close(); }
}

test("A's wizard saving after B logged in on the same browser keeps A's answers on this device, never in B's account", async ({ page }) => {
  test.setTimeout(120_000);
  const emailA = await signUp(page, 'other-account-a');
  await openAt(page, 1, 'Academic History');
  const emailB = await otherPersonLogsIn(page);

  const puts = recordDraftPuts(page);
  await page.locator(GRADE).fill('72%');
  // Kept on this device, said so — another account is logged in, nobody was logged out — and "Another account is
  // logged in" (not "Your session has ended") offers to log in as A (the draft's owner), saying the same.
  await expect(page.getByTestId('draft-status')).toContainText(DRAFT_OTHER_USER);
  await expect(page.getByTestId('draft-status')).not.toContainText(ON_DEVICE);
  const again = otherAccountDialog(page);
  await expect(again).toBeVisible();
  await expect(sessionEndedDialog(page)).toHaveCount(0);
  await expect(again).toHaveAccessibleDescription(DRAFT_OTHER_USER);
  await expect(again.getByLabel('Email')).toHaveValue(emailA);
  expect(puts).toEqual([409]);
  expect(await draftOf(page, emailB)).toBeNull();
  const local = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('apply-draft:')).map((k) => localStorage.getItem(k)).join());
  expect(local).toContain('72%');
  await again.getByRole('button', { name: 'Cancel' }).click();

  // A logs in again: the draft goes to A's account.
  await logInAgainSendsDraft(page, '72%', otherAccountDialog(page));
  expect(puts).toEqual([409, 200]);
  expect(await draftOf(page, emailB)).toBeNull();
});

test("the page-close save of A's wizard is refused once B is logged in on the same browser", async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, 'other-account-hide');
  await openAt(page, 1, 'Academic History');
  // The wizard's own saves do not get through (no connection; it keeps trying: draft-store.ts), so the change waits
  // for the page-close save, the first PUT let through.
  let blocked = true;
  await page.route(`**${DRAFT}`, (route) => (route.request().method() === 'PUT' && blocked ? route.abort('internetdisconnected') : route.fallback()));
  await page.locator(GRADE).fill('64%');
  await expect(page.getByTestId('draft-status')).toContainText('Draft saved on this device; we will keep trying to save it to your account.');
  const emailB = await otherPersonLogsIn(page);
  blocked = false;

  // The page-close save, not a background retry of the wizard's (which would get the same 409): the page's fetch
  // marks keepalive requests, and only a marked PUT is waited for.
  await page.evaluate(() => {
    const f = window.fetch;
    window.fetch = (input, init) => {
      if (!init?.keepalive) return f(input, init);
      const headers = new Headers(init.headers);
      headers.set('X-Test-Keepalive', '1');
      return f(input, { ...init, headers });
    };
  });
  const hidden = page.waitForResponse((r) => r.url().includes('/api/applications/draft') && r.request().method() === 'PUT' && r.request().headers()['x-test-keepalive'] === '1');
  await page.evaluate(() => { window.dispatchEvent(new Event('pagehide')); });
  expect((await hidden).status()).toBe(409);
  expect(await draftOf(page, emailB)).toBeNull();
});

test("a session update for A that is no log-in, after B logged in on the same browser, does not send A's signed-out draft", async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, 'other-account-session');
  // Seen once online, so that this device knows A as its last user.
  await openAt(page, 1, 'Academic History');
  // The page's session checks do not reach the server (the draft store's own check, below, does).
  let pageChecksToFail = Infinity;
  await page.route('**/api/auth/me', (route) => (pageChecksToFail-- > 0 ? route.abort('internetdisconnected') : route.fallback()));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Academic History' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('draft-status')).toHaveText('Draft saved');

  const puts = recordDraftPuts(page);
  await page.context().clearCookies({ name: 'college.sid' });
  await page.locator(GRADE).fill('81%');
  const again = sessionEndedDialog(page);
  await expect(again).toBeVisible();
  await again.getByRole('button', { name: 'Cancel' }).click();
  expect(puts).toEqual([401]);

  // B logs in in another tab (a new token); then A's page runs its session check again and, not reaching the
  // server, sets A — the device's last-known user — once more. A new token and A on the page: the draft store asks
  // the server who is logged in, and the server answers B: no log-in by A, nothing sent.
  const emailB = await otherPersonLogsIn(page);
  pageChecksToFail = 1;
  const checked = page.waitForEvent('requestfailed', (r) => r.url().includes('/api/auth/me'));
  const storeAsked = page.waitForResponse((r) => r.url().includes('/api/auth/me') && r.status() === 200);
  await page.evaluate(() => { window.dispatchEvent(new Event('online')); });
  await checked;
  expect((await (await storeAsked).json() as { user: { email: string } }).user.email).toBe(emailB);
  await expect(page.getByTestId('draft-status')).toContainText(ON_DEVICE);

  // Only A's own log-in sends the draft, into A's account: one save, no 409 from B's session between (a resend on
  // B's answer would have been refused and reopened the dialog over the status line).
  await logInAgainSendsDraft(page, '81%');
  expect(puts).toEqual([401, 200]);
  expect(await draftOf(page, emailB)).toBeNull();
});

test("A's \"Start over\" after B logged in on the same browser does not delete B's draft", async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, 'other-account-start-over');
  await openAt(page, 1, 'Academic History');
  await page.reload();
  await expect(page.getByText('We restored the application you started.')).toBeVisible({ timeout: 60_000 });
  const emailB = await otherPersonLogsIn(page);
  // B's own draft of the same course, saved from B's tab.
  const mine = await page.request.put(DRAFT, { data: { step: 0, data: { courseId: '2', firstName: 'Bongani', savedAt: new Date().toISOString() } } });
  expect(mine.status()).toBe(200);
  const stored = (await mine.json() as { draft: unknown }).draft;

  const deleted = page.waitForResponse((r) => r.url().includes('/api/applications/draft') && r.request().method() === 'DELETE');
  await page.getByRole('button', { name: 'Start over' }).click();
  await page.getByRole('button', { name: 'Yes, start over' }).click();
  expect((await deleted).status()).toBe(409);
  // B's draft is still there (B's wizard may open on it after the reload, so its answers are compared).
  expect(await draftOf(page, emailB)).toMatchObject({ data: (stored as { data: object }).data });
});
