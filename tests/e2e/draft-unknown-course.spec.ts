/**
 * "No lost work" QA audit (phone, 360 px, 2026-11-28), defect 2: /apply/{id} for a course that does not exist, or
 * that an admin deactivated. Before: the Course select said only 'Select a course', every draft save answered 404
 * 'Course Not Found' while the status said '…sync when you are back online', and after a real course was chosen the
 * saves still went to key=course-999999 (404 again), so the draft never reached the account. Now the applicant is told
 * (spec §8 'Course Not Found'; a closed course: the submit path's 'Applications for this course have closed…'), the
 * status line does not say offline, and once a course is chosen the draft moves to that course's key, with the URL.
 */
import { expect, test } from '@playwright/test';
import site from '../../content/site.json' with { type: 'json' };
import { adminLogin } from './admin-seed.ts';
import { recordDraftPuts, signUp } from './wizard-draft.ts';

test.use({ viewport: { width: 360, height: 740 } });

const CLOSED = `Applications for this course have closed. Your answers are saved — choose another course or contact the admissions office on ${site.telephone}.`;
const draftOf = async (page: import('@playwright/test').Page, key: string) => (await (await page.request.get(`/api/applications/draft?key=${key}`)).json()).draft;

test('an unknown course: Course Not Found, never "offline"; choosing a course saves the draft under it', async ({ page }) => {
  await signUp(page, 'draft-course');
  const puts = recordDraftPuts(page);
  await page.goto('/apply/999999');
  await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible({ timeout: 60_000 });
  await page.locator('#f-city').fill('Thohoyandou');
  const course = page.getByLabel('Course', { exact: true });
  const status = page.getByTestId('draft-status');
  await expect.poll(() => puts).toContain(404);
  await expect(status).not.toContainText('back online');
  await expect(status).toHaveText('Draft saved on this device; choose a course to save it to your account.');
  await expect(page.getByTestId('course-unavailable')).toContainText('Course Not Found');
  await expect(course).toHaveValue('');

  await course.selectOption('2');
  await expect(status).toHaveText('Draft saved');
  await expect.poll(async () => (await draftOf(page, 'course-2'))?.data?.city).toBe('Thohoyandou');
  expect((await draftOf(page, 'course-2')).data.courseId).toBe('2');
  expect(puts.filter((s) => s === 200).length).toBeGreaterThan(0);
  // The address follows the course, so a reload resumes the draft where it is kept.
  await expect(page).toHaveURL(/\/apply\/2\/?$/);
  await page.reload();
  await expect(page.locator('#f-city')).toHaveValue('Thohoyandou', { timeout: 60_000 });
  await expect(page.getByTestId('selected-course')).toBeVisible();
});

test('a course closed since the draft was started: the closed message; choosing another course moves the draft', async ({ page, request }) => {
  // A course of this test's own, closed by it: the e2e server's database is shared by every spec of the run, so
  // closing a seeded course would break the specs after this one that apply to it.
  await adminLogin(request);
  const created = await request.post('/api/courses', { data: { title: `Plumbing ${Date.now()}`, description: 'Domestic plumbing for beginners in Makhado.', duration: 6, department: 'Technology', tuitionFee: 'R5,000', startDate: 'July 2027', isActive: true } });
  expect(created.status()).toBe(201);
  const id = String(((await created.json()) as { course: { id: number } }).course.id);
  await signUp(page, 'draft-course');
  const put = await page.request.put(`/api/applications/draft?key=course-${id}`, { data: { step: 0, data: { courseId: id, city: 'Makhado', savedAt: new Date().toISOString() } } });
  expect(put.status()).toBe(200);
  expect((await request.post(`/api/courses/${id}/deactivate`)).status()).toBe(200);
  await page.goto(`/apply/${id}`);
  await expect(page.locator('#f-city')).toHaveValue('Makhado', { timeout: 60_000 });
  const status = page.getByTestId('draft-status');

  await page.locator('#f-city').fill('Louis Trichardt');
  await page.getByLabel('Course', { exact: true }).selectOption('2');
  await expect.poll(async () => (await draftOf(page, 'course-2'))?.data?.city).toBe('Louis Trichardt');
  await expect(status).toHaveText('Draft saved');
  // Moved, not copied: the closed course's draft is gone once the new one is on the server.
  await expect.poll(() => draftOf(page, `course-${id}`)).toBeNull();
  await expect(page).toHaveURL(/\/apply\/2\/?$/);
  // Why the link's course could not be kept: the message the submit path gives for a closed course.
  await expect(page.getByTestId('course-unavailable')).toContainText(CLOSED);
  await expect(page.getByText('Course Not Found')).toHaveCount(0);
});
