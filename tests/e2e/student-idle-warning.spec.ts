/**
 * "Are you still there?" before a student's idle log-out (WCAG 2.2.1 Timing Adjustable; site/islands/ui/idle-watch.ts
 * started by ui/use-session.ts for a student, ui/IdleWarning.tsx). A student's login ends after 2 hours without
 * activity (api/contracts/session-idle.ts IDLE_LIMIT_MS.student; since c6eb83d the polls of an unattended tab no longer
 * count), so the warning is due 2 minutes before that: the page's clock is Playwright's (page.clock), moved on by
 * fastForward; the server's own clock does not move, so what is checked is what the page does.
 */
import { test, expect, type Page } from '@playwright/test';
import { uniqueEmail } from './fixtures.ts';

/** Registers (and so signs in) a new student, then opens `path` on Playwright's clock and waits for its reads to end. */
async function openStudentPage(page: Page, baseURL: string, path: string): Promise<void> {
  const reg = await page.request.post('/api/auth/register', { headers: { origin: baseURL }, data: { firstName: 'Idle', lastName: 'Student', email: uniqueEmail('idle'), password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true } });
  expect(reg.status()).toBe(201);
  await page.clock.install();
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  // The pages' polls (applications, notifications) would come back from a server whose clock did not move, with
  // nearly 2 hours left: on a real clock they report the time truly left. Held off here, the page keeps the deadline
  // of its last real request.
  await page.route(/\/api\/colfront\/(applications|notifications)/, (r) => (r.request().method() === 'GET' ? r.abort() : r.continue()));
}

const warning = (page: Page) => page.getByRole('alertdialog', { name: 'Are you still there?' });

test('student dashboard, 1 h 58 min without activity: the warning gives the student limit, "Stay logged in" keeps the student signed in past the old deadline', async ({ page, baseURL }) => {
  await openStudentPage(page, baseURL!, '/dashboard/student');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Idle' })).toBeVisible();
  await page.clock.fastForward('01:57:00');
  await expect(warning(page)).toHaveCount(0);
  await page.clock.fastForward('01:05');
  const dialog = warning(page);
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('For your security, you are logged out after 2 hours without activity. You will be logged out at');
  await expect(dialog.getByRole('timer')).toHaveText(/^Time left: 1 min \d\d s$/);
  await expect(dialog.getByRole('button', { name: 'Stay logged in' })).toBeFocused();
  const check = page.waitForResponse((r) => r.url().endsWith('/api/auth/me') && r.status() === 200);
  await page.keyboard.press('Enter');
  await check;
  await expect(dialog).toHaveCount(0);
  await page.clock.fastForward('03:00');
  await expect(warning(page)).toHaveCount(0);
  await expect(page.getByRole('dialog', { name: 'Your session has ended' })).toHaveCount(0);
  expect((await page.request.get('/api/auth/me')).status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Idle' })).toBeVisible();
});
