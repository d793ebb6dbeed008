/**
 * The announcement is saved but its e-mails fail (audit C item 6): the form stays open, says so, and offers to
 * send the e-mails again.
 */
import { test, expect } from '@playwright/test';
import { adminLogin, toast } from './admin-seed.ts';

test('announcements › /notify fails: "Saved, but the e-mails were not sent.", the form stays open, "Send e-mails" retries', async ({ page }) => {
  await adminLogin(page.request);
  const title = `Registration week ${Date.now()}`;
  const created = (await (await page.request.post('/api/announcements', { data: { title, content: 'Registration opens on Monday at 08:00.', imageUrl: '', active: true } })).json()).announcement as { id: number };
  await page.goto('/admin/announcements');
  await page.getByRole('button', { name: `Edit ${title}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit announcement' });
  await dialog.getByLabel('Content').fill('Registration opens on Monday at 07:30.');
  await dialog.getByLabel('Send e-mail to all students').check();
  await page.route('**/api/announcements/*/notify', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { message: 'Mail is down' } }) }));
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await page.getByRole('alertdialog', { name: 'Send this announcement by e-mail?' }).getByRole('button', { name: /^Send e-mail to \d+ students?$/ }).click();
  await expect(toast(page, 'Announcement updated')).toBeVisible();
  await expect(dialog.getByText('Saved, but the e-mails were not sent.')).toBeVisible();
  await expect(dialog).toBeVisible();
  await page.unroute('**/api/announcements/*/notify');
  await dialog.getByRole('button', { name: 'Send e-mails' }).click();
  await expect(toast(page, 'Email notifications sent')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  const stored = (await (await page.request.get('/api/admin/announcements')).json()).announcements.find((a: { id: number }) => a.id === created.id);
  expect(stored.content).toBe('Registration opens on Monday at 07:30.');
  expect((await page.request.delete(`/api/announcements/${created.id}`)).status()).toBe(204);
});
