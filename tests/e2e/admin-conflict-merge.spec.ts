/**
 * No lost work on an edit conflict (audit C item 1): after a 409, Reload keeps the fields this admin changed, takes
 * the saved values for the rest, says where the saved version differs from what is kept, and Save then succeeds.
 */
import { test, expect } from '@playwright/test';
import { adminLogin, toast } from './admin-seed.ts';

test('course › A changes the description, B renames and deactivates; A reloads: A\'s description stays, B\'s title and Active are taken, Save keeps both', async ({ page, playwright, baseURL }) => {
  await adminLogin(page.request);
  const title = `Beekeeping ${Date.now()}`;
  const form = { title, description: 'Keep bees and harvest honey in the Vhembe district.', duration: 3, department: 'Business', tuitionFee: 'R2,000', startDate: 'June 2027', isActive: true };
  const created = (await (await page.request.post('/api/courses', { data: form })).json()).course as { id: number; updatedAt: string };
  await page.goto('/admin/courses');
  await page.getByRole('button', { name: `Edit ${title}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit course' });
  const mine = 'Keep bees, harvest honey and sell it at the Thohoyandou market.';
  await dialog.getByLabel('Description').fill(mine);

  const other = await playwright.request.newContext({ baseURL });
  await adminLogin(other);
  const renamed = `${title} (short course)`;
  expect((await other.put(`/api/courses/${created.id}`, { data: { ...form, title: renamed, description: 'Bees, by B.', isActive: false, expectedUpdatedAt: created.updatedAt } })).status()).toBe(200);
  await other.dispose();

  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog.getByTestId('edit-conflict')).toBeVisible();
  await dialog.getByRole('button', { name: 'Reload' }).click();
  await expect(dialog.getByLabel('Description')).toHaveValue(mine);
  await expect(dialog.getByLabel('Title')).toHaveValue(renamed);
  await expect(dialog.getByLabel(/^Active/)).not.toBeChecked();
  const kept = dialog.getByTestId('edit-kept');
  await expect(kept).toContainText('Saved version: Bees, by B.');
  await expect(kept.getByRole('button', { name: 'Use saved version' })).toHaveCount(1);
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(toast(page, 'Course updated')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  const stored = (await (await page.request.get(`/api/courses/${created.id}`)).json()).course;
  expect(stored).toMatchObject({ title: renamed, description: mine, isActive: false });
});

test('announcement › Reload keeps the typed content, takes the other title; "Use saved version" puts the saved content back', async ({ page, playwright, baseURL }) => {
  await adminLogin(page.request);
  const title = `Exam timetable ${Date.now()}`;
  const form = { title, content: 'The exam timetable is on the notice board.', imageUrl: '', active: false };
  const created = (await (await page.request.post('/api/announcements', { data: form })).json()).announcement as { id: number; updatedAt: string };
  await page.goto('/admin/announcements');
  await page.getByRole('button', { name: `Edit ${title}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit announcement' });
  const mine = 'The exam timetable is on the notice board and on this site.';
  await dialog.getByLabel('Content').fill(mine);

  const other = await playwright.request.newContext({ baseURL });
  await adminLogin(other);
  const renamed = `${title} (final)`;
  const theirs = 'The final exam timetable is at reception.';
  expect((await other.put(`/api/announcements/${created.id}`, { data: { ...form, title: renamed, content: theirs, expectedUpdatedAt: created.updatedAt } })).status()).toBe(200);
  await other.dispose();

  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await dialog.getByRole('button', { name: 'Reload' }).click();
  await expect(dialog.getByLabel('Content')).toHaveValue(mine);
  await expect(dialog.getByLabel('Title')).toHaveValue(renamed);
  await expect(dialog.getByTestId('edit-kept')).toContainText(`Saved version: ${theirs}`);
  await dialog.getByTestId('edit-kept').getByRole('button', { name: 'Use saved version' }).click();
  await expect(dialog.getByLabel('Content')).toHaveValue(theirs);
  await dialog.getByLabel('Content').fill(mine);
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(toast(page, 'Announcement updated')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  const stored = (await (await page.request.get('/api/admin/announcements')).json()).announcements.find((a: { id: number }) => a.id === created.id);
  expect(stored).toMatchObject({ title: renamed, content: mine });
  expect((await page.request.delete(`/api/announcements/${created.id}`)).status()).toBe(204);
});
