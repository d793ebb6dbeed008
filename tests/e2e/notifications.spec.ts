/**
 * Student dashboard notifications at volume (volume audit item 2): the tab's unread badge and "Mark all as read"
 * follow the server's unreadCount over all notifications, not the loaded page (2 003 notifications, 1 337 unread,
 * the newest page all read → the badge said 0 and the button hid), and "Show older notifications" pages by id.
 * The API's answers are stubbed (page.route) so the numbers are exact without creating thousands of rows.
 */
import { expect, test } from '@playwright/test';
import type { Notification, NotificationList } from '../../api/contracts/notifications.ts';
import { uniqueEmail } from './fixtures.ts';

const note = (id: number, read: boolean): Notification => ({ id, userId: 1, message: `Notice number ${id}`, read, applicationId: null, createdAt: new Date(Date.UTC(2026, 0, 1) + id * 60_000).toISOString() });

test('the badge shows every unread notification; older ones load on request; Mark all as read clears the count', async ({ page }) => {
  const email = uniqueEmail('notes');
  const reg = await page.request.post('/api/auth/register', { data: { firstName: 'Thandi', lastName: 'Notes', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true } });
  expect(reg.status()).toBe(201);
  let unreadCount = 1337;
  const befores: string[] = [];
  await page.route('**/api/colfront/notifications**', async (route) => {
    const url = new URL(route.request().url());
    const before = url.searchParams.get('before');
    let body: NotificationList;
    if (!before) body = { notifications: Array.from({ length: 50 }, (_, i) => note(2003 - i, true)), unreadCount, hasMore: true };
    else {
      befores.push(before);
      const top = Number(before) - 1;
      body = { notifications: Array.from({ length: 50 }, (_, i) => note(top - i, false)), unreadCount, hasMore: befores.length < 2 };
    }
    await route.fulfill({ json: body });
  });
  await page.route('**/api/notifications/read-all', async (route) => { unreadCount = 0; await route.fulfill({ json: { updated: 1337 } }); });

  await page.goto('/dashboard/student');
  const tab = page.getByRole('tab', { name: /Notifications/ });
  await expect(tab).toHaveText(/1337\s*unread/);
  await tab.click();
  const panel = page.getByRole('tabpanel', { name: 'Notifications' });
  await expect(panel.getByRole('listitem')).toHaveCount(50);
  const markAll = panel.getByRole('button', { name: 'Mark all as read' });
  await expect(markAll).toBeVisible();

  const older = panel.getByRole('button', { name: 'Show older notifications' });
  await older.click();
  await expect(panel.getByRole('listitem')).toHaveCount(100);
  await expect(panel.getByText('Notice number 1953')).toBeVisible();
  await older.click();
  await expect(panel.getByRole('listitem')).toHaveCount(150);
  expect(befores).toEqual(['1954', '1904']);
  await expect(older).toHaveCount(0);

  await markAll.click();
  await expect(tab).not.toHaveText(/unread/);
  await expect(markAll).toHaveCount(0);
  await expect(panel.getByRole('button', { name: /^Mark as read/ })).toHaveCount(0);
});
