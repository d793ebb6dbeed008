/**
 * Reports tab at a college's volume (performance audit item 1: 300 courses and ~4 years of weeks froze the tab for
 * 5–7 s, every table rendered every row). The reports answer is replaced by one of that size (page.route): the
 * API cannot make applications in 199 different weeks, and the API's own figures are tested in admin.test.ts.
 * Each table shows its first 15 rows until "Show all N rows"; the weekly charts draw the last 52 weeks and say so.
 */
import { test, expect } from '@playwright/test';
import type { Reports } from '#contracts/reports.ts';
import { adminLogin } from './admin-seed.ts';

const COURSES = 300;
const WEEKS = 199;

/** A reports answer with COURSES courses, 8 departments and WEEKS Monday weeks from 2023-01-02. */
function volumeReports(): Reports {
  const week = (i: number) => new Date(Date.UTC(2023, 0, 2 + 7 * i)).toISOString().slice(0, 10);
  return {
    byStatus: [{ status: 'pending', label: 'Pending', count: 60_000 }, { status: 'accepted', label: 'Accepted', count: 40_000 }],
    byCourse: Array.from({ length: COURSES }, (_, i) => ({ courseId: i + 1, title: `Course ${i + 1}`, department: `Department ${i % 8}`, count: 1000 - i, eligible: 500, notEligible: 400 - i, unknown: 100 })),
    byDepartment: Array.from({ length: 8 }, (_, i) => ({ department: `Department ${i}`, count: 12_500 })),
    perWeek: Array.from({ length: WEEKS }, (_, i) => ({ week: week(i), count: 500 + i })),
    acceptanceOverTime: Array.from({ length: WEEKS }, (_, i) => ({ week: week(i), accepted: 200, total: 500, rate: 40 })),
    feesPerWeek: Array.from({ length: WEEKS }, (_, i) => ({ week: week(i), fees: '12500.00' })),
    feesCollected: '2487500.00',
  };
}

test('reports › 300 courses and 199 weeks: tables show 15 rows until Show all, weekly charts the last 52 weeks', async ({ page }) => {
  await adminLogin(page.request);
  await page.route('**/api/admin/reports', (route) => route.fulfill({ json: volumeReports() }));
  await page.goto('/admin#reports');
  const tables: [string, number][] = [
    ['Applications by status', 2], ['Applications by course', COURSES], ['Eligibility by course', COURSES], ['Applications by department', 8],
    ['Applications per week', WEEKS], ['Acceptance rate over time (%)', WEEKS], ['Fees collected per week', WEEKS],
  ];
  for (const [name, total] of tables) {
    const rows = page.getByRole('table', { name }).locator('tbody tr');
    await expect(rows, name).toHaveCount(Math.min(total, 15));
  }
  // Weeks read as the staff screens write dates (DESIGN §4 en-ZA), not as ISO.
  const firstWeek = page.getByRole('table', { name: 'Applications per week' }).locator('tbody tr').first();
  await expect(firstWeek).toContainText('02 Jan 2023');
  await expect(firstWeek).not.toContainText('2023-01-02');
  // Every chart is drawn in the end (one at a time after the first paint).
  await expect(page.locator('.recharts-surface')).toHaveCount(7);
  // The weekly charts draw a year and say so; their tables keep every week.
  const perWeek = page.getByRole('region', { name: 'Applications per week', exact: true });
  await expect(perWeek.getByText(`The chart shows the last 52 weeks; the table has all ${WEEKS}.`)).toBeVisible();
  await expect(page.getByText(`The chart shows the last 52 weeks; the table has all ${WEEKS}.`)).toHaveCount(3);

  const course = page.getByRole('region', { name: 'Applications by course', exact: true });
  await course.getByRole('button', { name: `Show all ${COURSES} rows` }).click();
  await expect(page.getByRole('table', { name: 'Applications by course' }).locator('tbody tr')).toHaveCount(COURSES);
  await expect(page.getByRole('table', { name: 'Applications by course' }).locator('tbody tr').last()).toContainText(`Course ${COURSES}`);
  await expect(page.getByRole('table', { name: 'Eligibility by course' }).locator('tbody tr')).toHaveCount(15);
  await course.getByRole('button', { name: 'Show the first 15 rows' }).click();
  await expect(page.getByRole('table', { name: 'Applications by course' }).locator('tbody tr')).toHaveCount(15);

  const weeks = page.getByRole('region', { name: 'Applications per week', exact: true });
  await weeks.getByRole('button', { name: `Show all ${WEEKS} rows` }).click();
  await expect(page.getByRole('table', { name: 'Applications per week' }).locator('tbody tr')).toHaveCount(WEEKS);
  // Small tables have no button.
  await expect(page.getByRole('region', { name: 'Applications by status', exact: true }).getByRole('button')).toHaveCount(0);
});
