/**
 * No lost work around an announcement's e-mails ("no lost work" audit): text the admin types while a save is in
 * flight, or after "Saved, but the e-mails were not sent." before trying again, stays in the form until it is saved
 * or the admin agrees to discard it. Nothing is mailed but the text on the screen: with changes newer than the save,
 * the e-mails wait for "Save and send e-mails", which saves before POST /notify. After a 409 and Reload, a later save
 * clears the Reloaded box (its "Saved version" is no longer saved). The save is held with hold() (a gate the test
 * opens, no timers); /notify fails with a 503 until the test unroutes it.
 */
import { test, expect, type Page } from '@playwright/test';
import { adminLogin, toast } from './admin-seed.ts';
import { hold } from './slow-network.ts';

const NOTIFY = '**/api/announcements/*/notify';
const failNotify = (page: Page) => page.route(NOTIFY, (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { message: 'Mail is down' } }) }));
const stored = async (page: Page, id: number) => (await (await page.request.get('/api/admin/announcements')).json()).announcements.find((a: { id: number }) => a.id === id) as { title: string; content: string; updatedAt: string };
/** The PUTs and POST /notify of announcement `id` that `page` sends from now on, in order ('PUT' | 'notify'). */
function callsTo(page: Page, id: number): string[] {
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().endsWith(`/api/announcements/${id}`)) calls.push('PUT');
    if (r.method() === 'POST' && r.url().endsWith(`/api/announcements/${id}/notify`)) calls.push('notify');
  });
  return calls;
}
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
  const calls = callsTo(page, id);
  await dialog.getByRole('button', { name: 'Save and send e-mails', exact: true }).click();
  await expect(toast(page, 'Email notifications sent')).toBeVisible();
  expect((await stored(page, id)).content).toBe('Bursary forms are due on 31 January at 16:00.');
  await expect(dialog).toHaveCount(0);
  // Saved first, then mailed: the other order would mail the text saved before the edit.
  expect(calls).toEqual(['PUT', 'notify']);
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

test('announcements › edit with e-mail, the admin types during the save: nothing is mailed until "Save and send e-mails" saves what is on screen', async ({ page }) => {
  const title = `Fees reminder ${Date.now()}`;
  const { id, dialog } = await openEdit(page, title, 'Second-semester fees are due on 15 July.');
  await dialog.getByLabel('Content').fill('Second-semester fees are due on 18 July.');
  await dialog.getByLabel('Send e-mail to all students').check();
  const calls = callsTo(page, id);
  const put = await hold(page, `**/api/announcements/${id}`, 'PUT');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await confirmMail(page);
  await expect.poll(() => put.seen.n).toBe(1);
  await dialog.getByLabel('Content').fill('Second-semester fees are due on 18 July at 12:00.');
  put.release();
  await expect(toast(page, 'Announcement updated')).toBeVisible();
  const box = dialog.getByTestId('email-failed');
  await expect(box).toContainText('Saved, but the e-mails were not sent.');
  await expect(box).toContainText('not saved yet');
  expect(calls).toEqual(['PUT']);
  await expect(dialog.getByLabel('Content')).toHaveValue('Second-semester fees are due on 18 July at 12:00.');
  await box.getByRole('button', { name: 'Save and send e-mails', exact: true }).click();
  await expect(toast(page, 'Email notifications sent')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  expect(calls).toEqual(['PUT', 'PUT', 'notify']);
  expect((await stored(page, id)).content).toBe('Second-semester fees are due on 18 July at 12:00.');
});

test('announcements › after a 409 and Reload, a save with newer typing clears the Reloaded box: no stale "Use saved version"', async ({ page, playwright, baseURL }) => {
  const title = `Graduation ${Date.now()}`;
  const { id, dialog } = await openEdit(page, title, 'Graduation is in the main hall.');
  const created = await stored(page, id);
  await dialog.getByLabel('Content').fill('My content typed here.');
  const other = await playwright.request.newContext({ baseURL });
  await adminLogin(other);
  expect((await other.put(`/api/announcements/${id}`, { data: { title, content: 'Other admin content.', imageUrl: '', active: true, expectedUpdatedAt: created.updatedAt } })).status()).toBe(200);
  await other.dispose();
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await dialog.getByTestId('edit-conflict').getByRole('button', { name: 'Reload' }).click();
  await expect(dialog.getByTestId('edit-kept')).toContainText('Saved version: Other admin content.');
  const put = await hold(page, `**/api/announcements/${id}`, 'PUT');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect.poll(() => put.seen.n).toBe(1);
  await dialog.getByLabel('Title').fill(`${title} (Saturday)`);
  put.release();
  await expect(toast(page, 'Announcement updated')).toBeVisible();
  await expect(dialog.getByTestId('newer-unsaved')).toBeVisible();
  expect((await stored(page, id)).content).toBe('My content typed here.');
  await expect(dialog.getByTestId('edit-kept')).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: /Use saved version/ })).toHaveCount(0);
});
