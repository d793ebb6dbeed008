/**
 * The applications list keeps its search, filters, sort, page size and page in the address (audit C item 3): Back
 * from another page and a reload show the same rows, and a link with a query opens the list filtered.
 */
import { test, expect } from '@playwright/test';
import { adminLogin, applicationsTagged } from './admin-seed.ts';
import { uniqueSurname } from './admin-seed.ts';

test('applications › filters and page survive leaving and Back, and a reload; a URL with a query is applied', async ({ page, playwright, baseURL }) => {
  test.setTimeout(150_000);
  const surname = uniqueSurname();
  await applicationsTagged(() => playwright.request.newContext({ baseURL }), surname, 11);
  await adminLogin(page.request);

  await page.goto('/admin/applications');
  await page.getByLabel('Search').fill(surname);
  await page.getByLabel('Status').selectOption('pending');
  await page.getByLabel('Rows per page').selectOption('10');
  await expect(page.getByTestId('page-range')).toHaveText('Showing 1–10 of 11');
  await page.getByRole('navigation', { name: 'Pagination' }).getByRole('button', { name: 'Next' }).click();
  await expect(page.getByTestId('page-range')).toHaveText('Showing 11–11 of 11');
  await expect(page).toHaveURL(/[?&]page=2(&|$)/);

  await page.goto('/admin/courses');
  await page.goBack();
  await expect(page.getByLabel('Search')).toHaveValue(surname);
  await expect(page.getByLabel('Status')).toHaveValue('pending');
  await expect(page.getByTestId('page-range')).toHaveText('Showing 11–11 of 11');

  await page.reload();
  await expect(page.getByTestId('page-range')).toHaveText('Showing 11–11 of 11');

  await page.goto(`/admin/applications?q=${surname}&status=pending&page=2&pageSize=10&sort=applicant`);
  await expect(page.getByLabel('Search')).toHaveValue(surname);
  await expect(page.getByLabel('Rows per page')).toHaveValue('10');
  await expect(page.getByTestId('page-range')).toHaveText('Showing 11–11 of 11');
  await expect(page.getByRole('columnheader', { name: /Applicant/ })).toHaveAttribute('aria-sort', 'ascending');
  // Sorted by applicant (first names StudentA…StudentK): page 2 holds the last one.
  await expect(page.getByTestId('app-row')).toContainText('StudentK');
});

test('students › the search and page survive leaving and Back', async ({ page }) => {
  await adminLogin(page.request);
  await page.goto('/admin/students');
  await page.getByLabel('Search students').fill('workday');
  await expect(page).toHaveURL(/[?&]q=workday(&|$)/);
  await page.goto('/admin/courses');
  await page.goBack();
  await expect(page.getByLabel('Search students')).toHaveValue('workday');
});
