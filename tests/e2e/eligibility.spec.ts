/** Issue #18: the "Check if you qualify" calculator on /courses and on a course page (no React, loaded on first click). */
import { expect, test, type Page } from '@playwright/test';
import { E2E_ADMIN } from './fixtures.ts';

async function fillRow(page: Page, n: number, subject: string, percent: string, name?: string) {
  await page.getByLabel(`Subject ${n}`, { exact: true }).selectOption(subject);
  if (name) await page.getByLabel(`Name of subject ${n}`).fill(name);
  await page.getByLabel(`Percentage for subject ${n}`).fill(percent);
}

test('course page › structured requirements next to the text, and a verdict with reasons from the calculator', async ({ page }) => {
  await page.goto('/courses');
  await page.getByRole('link', { name: 'View Details for Bachelor of Science in Information Systems' }).click();
  await expect(page.getByRole('heading', { name: 'Entry Requirements' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Minimum NSC results' })).toContainText('Minimum APS 28');
  await expect(page.getByRole('list', { name: 'Minimum NSC results' })).toContainText('Mathematics 60 %');

  const scriptsBefore = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => /eligibility-calculator/.test(e.name)).length);
  expect(scriptsBefore).toBe(0);
  await page.getByRole('button', { name: 'Check if you qualify' }).click();
  await expect(page.getByLabel('Subject 1', { exact: true })).toBeFocused();

  // Nothing entered: one message, focus stays on the first row.
  await page.getByRole('button', { name: 'Check my results' }).click();
  await expect(page.getByText('Add at least one subject')).toBeVisible();

  await fillRow(page, 1, 'Mathematics', '45');
  await fillRow(page, 2, 'English Home Language', '130');
  await page.getByRole('button', { name: 'Check my results' }).click();
  await expect(page.getByLabel('Percentage for subject 2')).toBeFocused();
  await expect(page.getByText('Percentage must be a whole number from 0 to 100')).toBeVisible();

  await page.getByLabel('Percentage for subject 2').fill('65');
  await fillRow(page, 3, 'Other', '70', 'Latin');
  await fillRow(page, 4, 'Life Orientation', '90');
  await page.getByRole('button', { name: 'Check my results' }).click();
  const result = page.locator('[data-result]');
  await expect(result).toContainText('Your APS: 14');
  await expect(result).toContainText('You do not meet the entry requirements for Bachelor of Science in Information Systems yet:');
  await expect(result).toContainText('APS 14 — 28 needed');
  await expect(result).toContainText('Mathematics 45 % — 60 % needed');

  await page.getByLabel('Percentage for subject 1').fill('75');
  for (const [n, s] of [[5, 'Physical Sciences'], [6, 'Geography'], [7, 'Accounting']] as const) await fillRow(page, n, s, '80');
  await page.getByRole('button', { name: 'Check my results' }).click();
  await expect(result).toContainText('Your APS: 38');
  await expect(result).toContainText('You meet the entry requirements for Bachelor of Science in Information Systems.');
});

test('/courses › APS and a verdict for every course, with links; rows can be added and removed by keyboard', async ({ page }) => {
  await page.goto('/courses');
  await page.getByRole('button', { name: 'Check if you qualify' }).click();
  await fillRow(page, 1, 'Mathematics', '55');
  await fillRow(page, 2, 'English First Additional Language', '62');
  await page.getByRole('button', { name: 'Remove subject 7' }).click();
  await page.getByRole('button', { name: 'Add subject' }).click();
  await page.getByRole('button', { name: 'Add subject' }).click();
  await expect(page.getByLabel('Subject 8', { exact: true })).toBeFocused();
  await expect(page.getByRole('button', { name: 'Add subject' })).toBeEnabled();
  await page.getByRole('button', { name: 'Add subject' }).click();
  await expect(page.getByRole('button', { name: 'Add subject' })).toBeDisabled();

  await page.getByRole('button', { name: 'Check my results' }).click();
  const result = page.locator('[data-result]');
  await expect(result).toContainText('Your APS: 9');
  await expect(result).toContainText(/You meet the entry requirements of \d+ of \d+ courses\./);
  await expect(result.getByRole('link', { name: 'Photography' })).toHaveAttribute('href', /\/courses\/\d+$/);
  await expect(result.getByRole('listitem').filter({ hasText: 'Bachelor of Science in Information Systems' })).toContainText('not yet: APS 9 — 28 needed; Mathematics 55 % — 60 % needed');
});

test('admin course form › edits the minimum APS and subject requirements; the API and the calculator use them', async ({ page }) => {
  expect((await page.request.post('/api/auth/login', { data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password } })).status()).toBe(200);
  await page.goto('/admin/courses');
  await page.getByRole('button', { name: 'Edit Photography' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Minimum APS').fill('43');
  await dialog.getByRole('button', { name: 'Add subject requirement' }).click();
  await dialog.getByLabel('Required subject 1').selectOption('Visual Arts');
  await dialog.getByLabel('Minimum %').fill('60');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog.getByText('Minimum APS must be a whole number from 0 to 42')).toBeVisible();
  await expect(dialog.getByLabel('Minimum APS')).toBeFocused();
  await dialog.getByLabel('Minimum APS').fill('18');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Course updated').first()).toBeVisible();

  const courses = (await (await page.request.get('/api/courses')).json()).courses as { id: number; title: string; minimumAps: number; subjectRequirements: unknown[] }[];
  const photo = courses.find((c) => c.title === 'Photography')!;
  expect(photo).toMatchObject({ minimumAps: 18, subjectRequirements: [{ subject: 'Visual Arts', minimumPercent: 60 }] });
  const verdict = await (await page.request.post('/api/eligibility', { data: { subjects: [{ subject: 'Visual Arts', percent: 55 }], courseId: photo.id } })).json();
  expect(verdict.courses[0]).toEqual({ id: photo.id, eligible: false, reasons: ['APS 4 — 18 needed', 'Visual Arts 55 % — 60 % needed'] });
});
