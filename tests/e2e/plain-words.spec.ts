/**
 * Plain words on screen (plain-language audit, November 2026): applicants never read a raw API error, an ISO date, a
 * "SHA-256" or a programme where the site says course; staff read statuses, payments and eligibility in the words the
 * applicant's pages use, times in South African time marked SAST, and one format for people's phone numbers.
 */
import { expect, test } from '@playwright/test';
import { appliedThenAdmin, openApplicationPanel, studentApplies, uniqueSurname } from './admin-seed.ts';
import { uniqueEmail } from './fixtures.ts';

const RAW_500 = { status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'internal', message: 'Internal error' } }) };

test('applicant › a failed load says what to do, never "API Error (500)"; the detail page writes dates and phones for people', async ({ page }) => {
  const id = await studentApplies(page.request, 1, 'Thandi', uniqueSurname());

  const list = /\/api\/colfront\/applications(\?|$)/;
  await page.route(list, (route) => route.fulfill(RAW_500));
  await page.goto('/my-applications');
  const alert = page.getByRole('alert').filter({ hasText: 'We could not load your applications' });
  await expect(alert).toContainText('We could not load your applications. Check your connection and press Try again.');
  await expect(alert).not.toContainText('API Error');
  await expect(alert.getByRole('button', { name: 'Try again' })).toBeVisible();
  await page.unroute(list);

  await page.route(`**/api/applications/${id}`, (route) => route.fulfill(RAW_500));
  await page.goto(`/applications/${id}`);
  const failed = page.getByRole('alert').filter({ hasText: 'The application could not be loaded.' });
  await expect(failed).toContainText('We could not load this application. Check your connection and press Try again.');
  await expect(failed).not.toContainText('Error');
  await page.unroute(`**/api/applications/${id}`);

  await failed.getByRole('button', { name: 'Try again' }).click();
  const personal = page.getByRole('region', { name: 'Personal information' });
  await expect(personal).toContainText('April 12, 2001');
  await expect(personal).not.toContainText('2001-04-12');
  await expect(personal).toContainText('082 123 4567');
  await expect(page.getByTestId('document-checklist')).toContainText('Received');
});

test('applicant › course names and the Privacy Policy: "course" not "programme", course levels capitalised, the consent date readable', async ({ page }) => {
  await page.goto('/courses');
  await expect(page.getByText('Find the course that fits your goals')).toBeVisible();
  await page.goto('/auth');
  await expect(page).toHaveTitle(/^Log in required/);
  for (const path of ['/contact', '/assessment-centre']) {
    await page.goto(path);
    await expect(page.getByRole('main').getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
  }
  await page.goto('/privacy');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy Policy');

  const reg = await page.request.post('/api/auth/register', { data: { firstName: 'Lufuno', lastName: 'Words', email: uniqueEmail('words'), password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true } });
  expect(reg.status()).toBe(201);
  await page.goto('/my-applications');
  await expect(page.getByText('Find a course and apply online in minutes.')).toBeVisible();
  await page.goto('/apply');
  await expect(page.getByLabel('Course').locator('option').nth(2)).toBeAttached();
  const options = await page.getByLabel('Course').locator('option').allTextContents();
  expect(options.some((o) => o.endsWith('(Diploma)'))).toBe(true);
  expect(options.filter((o) => /\((certificate|diploma|degree)\)$/.test(o))).toEqual([]);
  await page.goto('/profile');
  const data = page.getByRole('region', { name: 'Your data' });
  await expect(data).toContainText(/You agreed to our Privacy Policy \(the version of [A-Z][a-z]+ \d{1,2}, \d{4}\)/);
  await expect(data).not.toContainText(/version \d{4}-\d{2}-\d{2}/);
});

test('applicant › the dashboard\'s Profile tab writes the phone and date of birth for people, as the application page does', async ({ page }) => {
  const reg = await page.request.post('/api/auth/register', { data: { firstName: 'Mpho', lastName: 'Profile', email: uniqueEmail('profiletab'), password: 'secret123', confirmPassword: 'secret123', phone: '+27821234567', terms: true } });
  expect(reg.status()).toBe(201);
  const put = await page.request.put('/api/profile', { data: { firstName: 'Mpho', lastName: 'Profile', phone: '+27821234567', nationality: 'other', dateOfBirth: '2001-04-12' } });
  expect(put.status()).toBe(200);
  await page.goto('/dashboard/student');
  await page.getByRole('tab', { name: 'Profile' }).click();
  const profile = page.getByRole('tabpanel', { name: 'Profile' });
  await expect(profile).toContainText('082 123 4567');
  await expect(profile).toContainText('April 12, 2001');
  await expect(profile).not.toContainText('+27821234567');
  await expect(profile).not.toContainText('2001-04-12');
});

test('staff › the review panel speaks as the applicant pages do, times are SAST, the dashboard counts "1 student"', async ({ page, playwright, baseURL }) => {
  const id = await appliedThenAdmin(page, () => playwright.request.newContext({ baseURL }), 'Rudzani');

  await page.goto('/admin/applications');
  const panel = await openApplicationPanel(page, id);
  const payment = panel.locator('section[aria-labelledby="d-pay"]');
  await expect(payment).toContainText('Card ending in 4242');
  await expect(payment).toContainText('Payment date');
  await expect(payment.locator('dd').first()).toHaveText('Completed');
  await expect(payment).not.toContainText('••••');
  await expect(panel.getByTestId('detail-eligibility')).toContainText('Eligibility:');
  await expect(panel).not.toContainText('Meets the course requirements');
  await expect(panel.getByLabel('Notes (internal, never shown to the applicant)')).toBeVisible();
  await expect(panel).toContainText(/Submitted \d{2} [A-Z][a-z]{2,3} \d{4}, \d{2}:\d{2} SAST/);
  await expect(panel).toContainText('082 123 4567');
  await expect(panel).toContainText('12 Apr 2001');

  await page.goto('/admin/profile');
  await expect(page.getByRole('main')).toContainText(/Role\s*Admin/);
  await expect(page.getByRole('main')).not.toContainText('admin Account');

  await page.route('**/api/admin/stats', async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    body.totals.students = 1;
    await route.fulfill({ response: res, json: body });
  });
  await page.goto('/dashboard/admin');
  await expect(page.getByText(/^1 student · /)).toBeVisible();
});
