/**
 * No lost work in the course form ("no lost work" audit, as the announcement form): text the admin types while a
 * course save is in flight stays in the form, marked not saved, instead of closing with it; a new course saved that
 * way becomes the edit of that course, so saving again updates it and never creates a second one. The save is held
 * with hold() (a gate the test opens, no timers).
 */
import { test, expect, type Locator, type Page } from '@playwright/test';
import { adminLogin, toast } from './admin-seed.ts';
import { hold } from './slow-network.ts';

type StoredCourse = { id: number; title: string; description: string };
const allCourses = async (page: Page) => (await (await page.request.get('/api/courses?all=1')).json()).courses as StoredCourse[];

async function fillCourse(dialog: Locator, fields: Record<string, string>): Promise<void> {
  for (const [label, value] of Object.entries(fields)) {
    if (label === 'Department') await dialog.getByLabel(label).selectOption(value);
    else await dialog.getByLabel(label).fill(value);
  }
}

test('course › edit: text typed while the save is in flight stays, marked not saved; Save changes then saves it', async ({ page }) => {
  await adminLogin(page.request);
  const title = `Welding ${Date.now()}`;
  const form = { title, description: 'Arc and MIG welding for beginners in Thohoyandou.', duration: 6, department: 'Technology', tuitionFee: 'R5,000', startDate: 'July 2027', isActive: true };
  const created = (await (await page.request.post('/api/courses', { data: form })).json()).course as { id: number };
  await page.goto('/admin/courses');
  await page.getByRole('button', { name: `Edit ${title}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit course' });
  await dialog.getByLabel('Description').fill('Arc and MIG welding for beginners at the Thohoyandou workshop.');
  const put = await hold(page, `**/api/courses/${created.id}`, 'PUT');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect.poll(() => put.seen.n).toBe(1);
  await dialog.getByLabel('Title').fill(`${title} (evening classes)`);
  put.release();
  await expect(toast(page, 'Course updated')).toBeVisible();
  await expect(dialog.getByLabel('Title')).toHaveValue(`${title} (evening classes)`);
  await expect(dialog.getByLabel('Description')).toHaveValue('Arc and MIG welding for beginners at the Thohoyandou workshop.');
  await expect(dialog.getByTestId('newer-unsaved')).toBeVisible();
  const between = (await allCourses(page)).find((c) => c.id === created.id)!;
  expect(between).toMatchObject({ title, description: 'Arc and MIG welding for beginners at the Thohoyandou workshop.' });
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toHaveCount(0);
  expect((await allCourses(page)).find((c) => c.id === created.id)).toMatchObject({ title: `${title} (evening classes)` });
});

test('course › create: text typed while the create is in flight stays, the form then edits the new course (no duplicate)', async ({ page }) => {
  await adminLogin(page.request);
  const title = `Plumbing ${Date.now()}`;
  await page.goto('/admin/courses');
  await page.getByRole('button', { name: 'Add course' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add course' });
  await fillCourse(dialog, { Title: title, Description: 'Install and repair water pipes and geysers.', 'Duration (months)': '5',
    Department: 'Technology', 'Tuition fee': 'R4,000', 'Start date': 'March 2027' });
  const post = await hold(page, '**/api/courses', 'POST');
  await dialog.getByRole('button', { name: 'Create course' }).click();
  await expect.poll(() => post.seen.n).toBe(1);
  await dialog.getByLabel('Description').fill('Install and repair water pipes, geysers and solar water heaters.');
  post.release();
  await expect(toast(page, 'Course created')).toBeVisible();
  const edit = page.getByRole('dialog', { name: 'Edit course' });
  await expect(edit.getByLabel('Description')).toHaveValue('Install and repair water pipes, geysers and solar water heaters.');
  await expect(edit.getByTestId('newer-unsaved')).toBeVisible();
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(toast(page, 'Course updated')).toBeVisible();
  await expect(edit).toHaveCount(0);
  const all = (await allCourses(page)).filter((c) => c.title === title);
  expect(all.map((c) => c.description)).toEqual(['Install and repair water pipes, geysers and solar water heaters.']);
});
