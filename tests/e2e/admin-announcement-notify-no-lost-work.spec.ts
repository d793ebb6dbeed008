/**
 * No lost work around an announcement's e-mails ("no lost work" audit): text the admin types while a save is in
 * flight, or after "Saved, but the e-mails were not sent." before trying again, stays in the form until it is saved
 * or the admin agrees to discard it. The save is held with hold() (a gate the test opens, no timers); /notify fails
 * with a 503 until the test unroutes it.
 */
import { test, expect, type Page } from '@playwright/test';
import { adminLogin, toast } from './admin-seed.ts';
import { hold } from './slow-network.ts';

const NOTIFY = '**/api/announcements/*/notify';
const failNotify = (page: Page) => page.route(NOTIFY, (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { message: 'Mail is down' } }) }));
const stored = async (page: Page, id: number) => (await (await page.request.get('/api/admin/announcements')).json()).announcements.find((a: { id: number }) => a.id === id) as { title: string; content: string };
const confirmMail = (page: Page) => page.getByRole('alertdialog', { name: 'Send this announcement by e-mail?' }).getByRole('button', { name: /^Send e-mail to \d+ students?$/ }).click();

async function openEdit(page: Page, title: string, content: string) {
  await adminLogin(page.request);
  const created = (await (await page.request.post('/api/announcements', { data: { title, content, imageUrl: '', active: true } })).json()).announcement as { id: number };
  await page.goto('/admin/announcements');
  await page.getByRole('button', { name: `Edit ${title}` }).click();
  return { id: created.id, dialog: page.getByRole('dialog', { name: 'Edit announcement' }) };
}

test('announcements › edit with e-mail: text typed while the save is in flight survives the save and the failed e-mails', async ({ page }) => {
  const title = `Open day ${Date.now()}`;
  const { id, dialog } = await openEdit(page, title, 'Open day is on Saturday at 09:00.');
  await dialog.getByLabel('Content').fill('Open day is on Saturday at 10:00.');
  await dialog.getByLabel('Send e-mail to all students').check();
  await failNotify(page);
  const put = await hold(page, `**/api/announcements/${id}`, 'PUT');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await confirmMail(page);
  await expect.poll(() => put.seen.n).toBe(1);
  await dialog.getByLabel('Title').fill(`${title} (Main campus)`);
  put.release();
  await expect(toast(page, 'Announcement updated')).toBeVisible();
  await expect(dialog.getByText('Saved, but the e-mails were not sent.')).toBeVisible();
  await expect(dialog.getByLabel('Title')).toHaveValue(`${title} (Main campus)`);
  await expect(dialog.getByLabel('Content')).toHaveValue('Open day is on Saturday at 10:00.');
  expect((await stored(page, id)).title).toBe(title);
  await expect(dialog.getByTestId('email-failed')).toContainText('not saved yet');
});

test('announcements › e-mails failed, the admin edits, then retries: the e-mail carries the edit and nothing is lost', async ({ page }) => {
  const title = `Bursary deadline ${Date.now()}`;
  const { id, dialog } = await openEdit(page, title, 'Bursary forms are due on 30 January.');
  await dialog.getByLabel('Content').fill('Bursary forms are due on 31 January.');
  await dialog.getByLabel('Send e-mail to all students').check();
  await failNotify(page);
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await confirmMail(page);
  await expect(dialog.getByText('Saved, but the e-mails were not sent.')).toBeVisible();
  await dialog.getByLabel('Content').fill('Bursary forms are due on 31 January at 16:00.');
  await page.unroute(NOTIFY);
  const notified: string[] = [];
  page.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith(`/api/announcements/${id}/notify`)) notified.push(r.url()); });
  await dialog.getByRole('button', { name: /send e-mails/i }).click();
  await expect(toast(page, 'Email notifications sent')).toBeVisible();
  expect((await stored(page, id)).content).toBe('Bursary forms are due on 31 January at 16:00.');
  await expect(dialog).toHaveCount(0);
  expect(notified).toHaveLength(1);
});

test('announcements › create with e-mail: text typed while the create is in flight stays, the form then edits the new announcement', async ({ page }) => {
  await adminLogin(page.request);
  const title = `Campus tour ${Date.now()}`;
  await page.goto('/admin/announcements');
  await page.getByRole('button', { name: 'New announcement' }).click();
  const dialog = page.getByRole('dialog', { name: 'New announcement' });
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Content').fill('Campus tours run every Friday at 14:00.');
  await dialog.getByLabel('Send e-mail to all students').check();
  const post = await hold(page, '**/api/announcements', 'POST');
  await dialog.getByRole('button', { name: 'Create announcement' }).click();
  await confirmMail(page);
  await expect.poll(() => post.seen.n).toBe(1);
  await dialog.getByLabel('Content').fill('Campus tours run every Friday at 14:00 from the main gate.');
  post.release();
  await expect(toast(page, 'Announcement created')).toBeVisible();
  await expect(toast(page, 'Email notifications sent')).toBeVisible();
  const edit = page.getByRole('dialog', { name: 'Edit announcement' });
  await expect(edit.getByLabel('Content')).toHaveValue('Campus tours run every Friday at 14:00 from the main gate.');
  await expect(edit.getByTestId('newer-unsaved')).toBeVisible();
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(toast(page, 'Announcement updated')).toBeVisible();
  await expect(edit).toHaveCount(0);
  const all = (await (await page.request.get('/api/admin/announcements')).json()).announcements.filter((a: { title: string }) => a.title === title);
  expect(all.map((a: { content: string }) => a.content)).toEqual(['Campus tours run every Friday at 14:00 from the main gate.']);
});

test('announcements › edit without e-mail: text typed while the save is in flight stays and closing asks first', async ({ page }) => {
  const title = `Library hours ${Date.now()}`;
  const { id, dialog } = await openEdit(page, title, 'The library opens at 08:00 on weekdays.');
  await dialog.getByLabel('Content').fill('The library opens at 07:30 on weekdays.');
  const put = await hold(page, `**/api/announcements/${id}`, 'PUT');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect.poll(() => put.seen.n).toBe(1);
  await dialog.getByLabel('Content').fill('The library opens at 07:30 on weekdays and 09:00 on Saturdays.');
  put.release();
  await expect(toast(page, 'Announcement updated')).toBeVisible();
  await expect(dialog.getByLabel('Content')).toHaveValue('The library opens at 07:30 on weekdays and 09:00 on Saturdays.');
  await expect(dialog.getByTestId('newer-unsaved')).toBeVisible();
  expect((await stored(page, id)).content).toBe('The library opens at 07:30 on weekdays.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('alertdialog', { name: 'Discard your changes?' })).toBeVisible();
});
