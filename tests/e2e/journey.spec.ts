/**
 * The foundation journey (issue #2), through the real UI of the production build:
 * 1. a visitor browses the catalogue, opens a course, registers and applies (all five steps, real files);
 * 2. an admin logs in and accepts the application;
 * 3. the student logs in again and sees it as accepted.
 */
import { expect, test } from '@playwright/test';
import { E2E_ADMIN, fillApplicationWizard, logInThroughUi, uniqueEmail } from './fixtures.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

test('a visitor browses, registers and applies; an admin accepts; the student sees Accepted', async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  // Every page is served with a hash-based script CSP; any blocked inline script would show up here.
  const cspViolations: string[] = [];
  const watch = (p: typeof page) => p.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) cspViolations.push(`${p.url()}: ${m.text()}`); });
  watch(page);
  const email = uniqueEmail('journey');
  const password = 'journey-pass-1';

  // 1. Browse: catalogue → course page → Apply Now → asked to log in → register instead.
  await page.goto('/courses');
  await expect(page.getByRole('heading', { name: 'Our Courses', level: 1 })).toBeVisible();
  await page.getByLabel('Search courses').fill('Software Development');
  await expect(page.getByText(/^Showing 1 of \d+ courses$/)).toBeVisible();
  await page.getByRole('link', { name: /View Details for Software Development/ }).click();
  await expect(page.getByRole('heading', { name: 'Software Development', level: 1 })).toBeVisible();
  const courseId = /\/courses\/(\d+)/.exec(page.url())![1];
  await page.getByRole('link', { name: 'Apply Now' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/login\\?redirect=%2Fapply%2F${courseId}$`));
  await expect(page.getByTestId('toast').getByText('Authentication required')).toBeVisible();

  await page.goto('/register');
  await page.getByLabel('First name').fill('Lerato');
  await page.getByLabel('Last name').fill('Ndlovu');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByLabel('Phone').fill('0831234567');
  await page.getByLabel('Course (optional)').selectOption(courseId);
  await page.getByRole('checkbox', { name: /I agree to the terms and conditions/ }).check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(new RegExp(`/apply/${courseId}$`));

  // The five steps.
  await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
  await expect(page.getByLabel('First name')).toHaveValue('Lerato');
  await fillApplicationWizard(page, {
    dateOfBirth: '2002-09-30', nationality: 'za', addressLine1: '4 Mvusuludzo Street', city: 'Makhado', state: 'Limpopo', postalCode: '0920', country: 'za',
    highSchool: { name: 'Makhado Secondary', city: 'Makhado', country: 'South Africa', from: '2016', to: '2020', qualification: 'National Senior Certificate', grade: '68%' },
    documents: { idDocument: { name: 'id.pdf', mimeType: 'application/pdf', buffer: PDF }, transcripts: { name: 'results.png', mimeType: 'image/png', buffer: PNG } },
    card: { name: 'L Ndlovu', number: '5555 5555 5555 4444', expiry: '10/29', cvc: '321' },
  });
  await expect(page.getByText('Ready to process')).toBeVisible();
  await page.getByRole('button', { name: 'Submit Application' }).click();
  await expect(page).toHaveURL(/\/dashboard\/student$/);
  await expect(page.getByTestId('toast').getByText('Application submitted successfully')).toBeVisible();

  const { applications } = await (await page.request.get('/api/applications')).json();
  expect(applications).toHaveLength(1);
  const appId = applications[0].id as number;
  expect(applications[0]).toMatchObject({ status: 'pending', courseId: Number(courseId) });

  // 2. An admin, in another browser, logs in and accepts it.
  const adminContext = await browser.newContext({ baseURL });
  const admin = await adminContext.newPage();
  watch(admin);
  await logInThroughUi(admin, E2E_ADMIN.email, E2E_ADMIN.password, /\/dashboard\/admin$/);
  await admin.goto('/admin/applications');
  const row = admin.getByTestId('app-row').filter({ hasText: `APP-${appId}` });
  await expect(row).toContainText('Lerato Ndlovu');
  await row.getByRole('button', { name: `Approve APP-${appId}` }).click();
  await admin.getByRole('alertdialog').getByRole('button', { name: 'Accept application' }).click();
  await expect(admin.getByTestId('toast').filter({ hasText: 'Application updated' })).toBeVisible();
  await expect(row).toContainText('Accepted');
  await adminContext.close();

  // 3. The student logs in afresh and sees it accepted.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await logInThroughUi(page, email, password, /\/dashboard\/student$/);
  await page.goto('/my-applications');
  await expect(page.getByTestId('counter-accepted')).toContainText('1');
  await page.getByRole('tab', { name: 'Accepted' }).click();
  await expect(page.getByText('Software Development')).toBeVisible();
  await expect(page.getByText('Accepted', { exact: true }).first()).toBeVisible();
  expect(cspViolations).toEqual([]);
});
