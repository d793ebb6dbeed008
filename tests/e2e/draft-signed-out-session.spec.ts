/**
 * A draft kept on this device after its save answered 401 ('signed-out', README "no lost work") is sent again only
 * after a real log-in: a session-store update for the same account that is no log-in — here the session check run
 * again when the browser comes back online, which answers with the device's last-known user when the server cannot
 * be reached — neither resends it (another 401) nor reopens "Your session has ended" after the person cancelled it.
 */
import { expect, test } from '@playwright/test';
import { logInAgainSendsDraft, openAt, recordDraftPuts, sessionEndedDialog, signUp } from './wizard-draft.ts';

test.use({ viewport: { width: 360, height: 740 } });

test('a session update that is no log-in does not resend a signed-out draft nor reopen the log-in dialog', async ({ page, context }) => {
  test.setTimeout(120_000);
  await signUp(page, 'signed-out-session');
  // Seen once online, so that this device knows its last user.
  await openAt(page, 1, 'Academic History');

  // The session check cannot reach the server: the page runs on the last-known user and checks again once online.
  await page.route('**/api/auth/me', (route) => route.abort('internetdisconnected'));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Academic History' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('draft-status')).toHaveText('Draft saved');

  const puts = recordDraftPuts(page);
  await context.clearCookies({ name: 'college.sid' });
  await page.locator('#f-academicHistory-highSchool-grade').fill('72%');
  const again = sessionEndedDialog(page);
  await expect(again).toBeVisible();
  expect(puts).toEqual([401]);
  await again.getByRole('button', { name: 'Cancel' }).click();
  await expect(again).toHaveCount(0);
  await expect(page.getByTestId('draft-status')).toContainText('log in again');

  // Back online: the session check runs again, fails, and sets the same last-known user once more. No log-in.
  const checked = page.waitForEvent('requestfailed', (r) => r.url().includes('/api/auth/me'));
  await page.evaluate(() => { window.dispatchEvent(new Event('online')); });
  await checked;

  // A real log-in (the status line's "Log in again") then sends the draft: one 401 in all, and the draft saved.
  await logInAgainSendsDraft(page, '72%');
  expect(puts).toEqual([401, 200]);
});
