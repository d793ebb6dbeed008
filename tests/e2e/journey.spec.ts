/**
 * The foundation journey (issue #2), through the real UI of the production build:
 * 1. a visitor browses the catalogue, opens a course, registers and applies (all five steps, real files);
 * 2. an admin logs in and accepts the application;
 * 3. the student logs in again and sees it as accepted.
 */
import { expect, test } from '@playwright/test';
import { E2E_ADMIN, logInThroughUi, uniqueEmail } from './fixtures.ts';

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
  await page.getByLabel('Date of birth').fill('2002-09-30');
  await page.getByLabel('Nationality').selectOption('za');
  await page.getByLabel('Address line 1', { exact: true }).fill('4 Mvusuludzo Street');
  await page.getByLabel('City').fill('Makhado');
  await page.getByLabel('State/Province').fill('Limpopo');
  await page.getByLabel('Postal code').fill('0920');
  await page.getByLabel('Country').selectOption('za');
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByRole('heading', { name: 'Academic History' })).toBeVisible();
  await page.locator('#f-academicHistory-highSchool-name').fill('Makhado Secondary');
  await page.locator('#f-academicHistory-highSchool-city').fill('Makhado');
  await page.locator('#f-academicHistory-highSchool-country').fill('South Africa');
  await page.locator('#f-academicHistory-highSchool-from').selectOption('2016');
  await page.locator('#f-academicHistory-highSchool-to').selectOption('2020');
  await page.locator('#f-academicHistory-highSchool-qualification').fill('National Senior Certificate');
  await page.locator('#f-academicHistory-highSchool-grade').fill('68%');
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByRole('heading', { name: 'Supporting Documents' })).toBeVisible();
  await page.locator('#f-documents-idDocument').setInputFiles({ name: 'id.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(page.getByTestId('file-idDocument')).toHaveText('id.pdf');
  await page.locator('#f-documents-transcripts').setInputFiles({ name: 'results.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByTestId('file-transcripts')).toHaveText('results.png');
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByRole('heading', { name: 'Payment' })).toBeVisible();
  await page.getByLabel('Name on card').fill('L Ndlovu');
  await page.getByLabel('Card number').fill('5555 5555 5555 4444');
  await page.getByLabel('Expiry date (MM/YY)').fill('10/29');
  await page.getByLabel('CVC').fill('321');
  await page.locator('#f-payment-paymentTerms').check();
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByRole('heading', { name: 'Review & Submit' })).toBeVisible();
  await expect(page.getByText('Ready to process')).toBeVisible();
  await page.locator('#f-certification').check();
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
