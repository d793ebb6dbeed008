/**
 * "Are you still there?" before an admin's idle log-out (WCAG 2.2.1 Timing Adjustable; site/islands/ui/idle-watch.ts,
 * IdleWarning.tsx). The page's clock is Playwright's (page.clock), moved on by fastForward: the warning is due 2
 * minutes before the deadline the API reported (Server-Timing, 30 minutes after the page's last request); the server's
 * own clock does not move, so what is checked is what the page does: warn, extend, or end the login itself.
 */
import { test, expect, type Page } from '@playwright/test';
import { adminLogin } from './admin-seed.ts';

/** Opens /admin/courses signed in as the e2e admin, on Playwright's clock, and waits for its reads to end. */
async function openAdminPage(page: Page): Promise<void> {
  await adminLogin(page.request);
  await page.clock.install();
  await page.goto('/admin/courses');
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  await page.waitForLoadState('networkidle');
}

const warning = (page: Page) => page.getByRole('alertdialog', { name: 'Are you still there?' });

test('28 minutes without a request: the warning says when and why, "Stay logged in" is focused and keeps the admin signed in past the old deadline', async ({ page }) => {
  await openAdminPage(page);
  await page.clock.fastForward('27:00');
  await expect(warning(page)).toHaveCount(0);
  await page.clock.fastForward('01:05');
  const dialog = warning(page);
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('For your security, admins are logged out after 30 minutes without activity. You will be logged out at');
  await expect(dialog.getByRole('timer')).toHaveText(/^Time left: 1 min \d\d s$/);
  await expect(dialog.getByRole('button', { name: 'Stay logged in' })).toBeFocused();
  await expect(dialog.getByRole('button', { name: 'Log out' })).toBeVisible();
  const check = page.waitForResponse((r) => r.url().endsWith('/api/auth/me') && r.status() === 200);
  await page.keyboard.press('Enter');
  await check;
  await expect(dialog).toHaveCount(0);
  // 3 minutes on: past the deadline the warning gave, and nothing ended.
  await page.clock.fastForward('03:00');
  await expect(warning(page)).toHaveCount(0);
  await expect(page.getByRole('dialog', { name: 'Your session has ended' })).toHaveCount(0);
  expect((await page.request.get('/api/auth/me')).status()).toBe(200);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  // The next warning counts from "Stay logged in": 28 minutes after it.
  await page.clock.fastForward('25:00');
  await expect(warning(page)).toBeVisible();
});

test('a warning ignored: at the deadline the login ends and "Your session has ended" shows the idle log-out text', async ({ page }) => {
  await openAdminPage(page);
  await page.clock.fastForward('28:05');
  await expect(warning(page)).toBeVisible();
  await page.clock.fastForward('02:00');
  const ended = page.getByRole('dialog', { name: 'Your session has ended' });
  await expect(ended).toBeVisible();
  await expect(ended).toContainText('For your privacy, you are logged out after a while without activity.');
  await expect(warning(page)).toHaveCount(0);
  expect((await page.request.get('/api/auth/me')).status()).toBe(401);
});

test('two admin tabs of one browser share the deadline: "Stay logged in" in one closes the warning in the other', async ({ page, context }) => {
  await openAdminPage(page);
  const other = await context.newPage();
  await other.goto('/admin/students');
  await expect(other.getByRole('button', { name: 'Log out' })).toBeVisible();
  await other.waitForLoadState('networkidle');
  await page.clock.fastForward('28:10');
  await expect(warning(page)).toBeVisible();
  await expect(warning(other)).toBeVisible();
  await warning(other).getByRole('button', { name: 'Stay logged in' }).click();
  await expect(warning(other)).toHaveCount(0);
  await expect(warning(page)).toHaveCount(0);
  await page.clock.fastForward('03:00');
  await expect(warning(page)).toHaveCount(0);
  await expect(page.getByRole('dialog', { name: 'Your session has ended' })).toHaveCount(0);
});
