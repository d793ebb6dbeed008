/**
 * Findings of an audit of an admin's working day: a draft announcement e-mailed to every student unasked, a
 * department typo becoming a public department, a course picture left out of the build without a word, and
 * dashboard counts and rows that led nowhere.
 */
import { test, expect } from '@playwright/test';
import { adminLogin, toast } from './admin-seed.ts';

test('announcements › e-mail is off while Active is unticked, and a mass e-mail is confirmed with the number of students first', async ({ page }) => {
  await adminLogin(page.request);
  await page.goto('/admin/announcements');
  await page.getByRole('button', { name: 'New announcement' }).click();
  const dialog = page.getByRole('dialog', { name: 'New announcement' });
  const title = `Open day ${Date.now()}`;
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Content').fill('Visit any campus on Saturday from 9:00.');
  const email = dialog.getByLabel('Send e-mail to all students');

  const notify = dialog.getByLabel('Send a portal notification to all students');
  await notify.check();
  await dialog.getByLabel('Active (shown on the public site)').uncheck();
  await expect(email).toBeDisabled();
  await expect(email).toHaveAccessibleDescription('Only an active announcement can be e-mailed: tick Active first.');
  await expect(notify).toBeDisabled();
  await expect(notify).not.toBeChecked();
  await expect(notify).toHaveAccessibleDescription('Only an active announcement can be sent as a notification: tick Active first.');

  await dialog.getByLabel('Active (shown on the public site)').check();
  await expect(email).toBeEnabled();
  await email.check();
  await dialog.getByRole('button', { name: 'Create announcement' }).click();
  const n = (await (await page.request.get('/api/admin/announcements/recipients')).json()).students as number;
  const who = `${n} student${n === 1 ? '' : 's'}`;
  const confirm = page.getByRole('alertdialog', { name: 'Send this announcement by e-mail?' });
  await expect(confirm).toContainText(`${who} will receive an e-mail.`);

  // Keep editing: nothing is saved or sent.
  await confirm.getByRole('button', { name: 'Keep editing' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(dialog).toBeVisible();
  const list = async () => (await (await page.request.get('/api/admin/announcements')).json()).announcements as { id: number; title: string }[];
  expect((await list()).filter((a) => a.title === title)).toHaveLength(0);

  await dialog.getByRole('button', { name: 'Create announcement' }).click();
  await confirm.getByRole('button', { name: `Send e-mail to ${who}` }).click();
  await expect(toast(page, 'Email notifications sent')).toContainText(`${who} will receive an e-mail.`);
  const created = (await list()).find((a) => a.title === title)!;
  expect((await page.request.delete(`/api/announcements/${created.id}`)).status()).toBe(204);
});

test('courses › Department is a choice of the listed departments, not free text', async ({ page }) => {
  await adminLogin(page.request);
  await page.goto('/admin/courses');
  await page.getByRole('button', { name: 'Add course' }).click();
  const department = page.getByRole('dialog', { name: 'Add course' }).getByRole('combobox', { name: 'Department' });
  await expect(department.locator('option')).toHaveText(['Choose a department', 'Business', 'Technology', 'Healthcare', 'Arts and Design']);
  const typo = await page.request.post('/api/courses', { data: { title: 'Typo course', description: 'A course with a typo.', duration: 3, department: 'busines', tuitionFee: 'R1', startDate: 'June' } });
  expect(typo.status()).toBe(400);
  expect((await typo.json()).error.fields.department).toBe('Choose one of the departments: Business, Technology, Healthcare, Arts and Design.');
});

test('dashboard › status counts and recent applications open the list; "(1 course)"; the build status names a left-out course picture', async ({ page }) => {
  await adminLogin(page.request);
  await page.route('**/api/admin/stats', async (route) => {
    const stats = await (await route.fetch()).json();
    stats.departments[0].courses = 1;
    if (!stats.recentApplications.length) {
      stats.recentApplications = [{ id: 7, status: 'pending', createdAt: new Date().toISOString(), applicant: { name: 'Thandi Mokoena' }, course: { id: 1, title: 'Business Management', department: 'Business' } }];
    }
    await route.fulfill({ json: stats });
  });
  await page.route('**/api/admin/site-build', (route) => route.fulfill({ json: { building: false, build: {
    id: 9, status: 'ok', reason: 'course 1 updated', startedAt: new Date().toISOString(), finishedAt: new Date().toISOString(), durationMs: 4200, error: null,
    leftOut: [{ course: 'Beekeeping basics', url: 'http://localhost:4372/favicon.svg', reason: 'localhost is not a public address (127.0.0.1)' }],
  } } }));
  await page.goto('/dashboard/admin');

  await expect(page.getByTestId('status-pending')).toHaveAttribute('href', '/admin/applications?status=pending');
  const first = page.getByTestId('recent-app').first();
  const ref = (await first.locator('.font-mono').textContent())!;
  await expect(first.getByRole('link', { name: `Open ${ref}` })).toHaveAttribute('href', `/admin/applications?q=${ref}`);
  await expect(page.getByTestId('dept').first()).toContainText('(1 course)');
  await expect(page.getByTestId('build-status')).toContainText('but 1 course picture could not be used');
  await expect(page.getByTestId('build-status')).toContainText('Beekeeping basics (localhost is not a public address (127.0.0.1))');

  await page.getByTestId('status-pending').click();
  await expect(page).toHaveURL(/\/admin\/applications\?status=pending$/);
  await expect(page.getByLabel('Status')).toHaveValue('pending');
});
