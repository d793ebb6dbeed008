/**
 * The applicant's journey (issue #5) on the production build: the five-step wizard with real files, a reload in
 * the middle that resumes the draft, every step's checks with focus on the first error, a double-clicked submit
 * that creates one application, the dashboard, My Applications, the detail page and the missing-documents upload.
 */
import { expect, request, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { E2E_ADMIN, uniqueEmail } from './fixtures.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const BIG = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024 + 10)]);

/** Registers a student through the API in the page's own cookie jar (the UI for that is issue #4's). */
async function signUp(page: Page) {
  const email = uniqueEmail();
  const password = 'secret123';
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Thandi', lastName: 'Mokoena', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true },
  });
  expect(res.status()).toBe(201);
  return { email, password, user: (await res.json()).user as { id: number } };
}

/** No WCAG 2.2 A/AA violations inside <main> (the shared header and footer are checked by their owners). */
async function expectAccessible(page: Page) {
  const r = await new AxeBuilder({ page }).include('main').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  expect(r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function expectFocused(page: Page, selector: string) {
  await expect(page.locator(selector)).toBeFocused();
}

test('logged-out visitors are sent to /login: the wizard with a toast and the way back, the dashboard and My Applications', async ({ page }) => {
  await page.goto('/apply/2');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fapply%2F2$/);
  await expect(page.getByTestId('toast').getByText('Authentication required')).toBeVisible();
  await expect(page.getByTestId('toast').getByText('Please log in to submit an application')).toBeVisible();
  await page.goto('/my-applications');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/dashboard/student');
  await expect(page).toHaveURL(/\/login$/);
});

test('an applicant fills all five steps with real files, survives a reload, submits once and follows the application', async ({ page }) => {
  test.setTimeout(90_000);
  const { user, email, password } = await signUp(page);
  const alerts: string[] = [];
  page.on('dialog', (d) => { alerts.push(d.message()); void d.accept(); });

  await page.goto('/apply/2');
  await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
  await expect(page.getByTestId('selected-course')).toContainText('Applying for:');
  await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
  // Step 1 starts from the logged-in user.
  await expect(page.getByLabel('First name')).toHaveValue('Thandi');
  await expect(page.getByLabel('Phone')).toHaveValue('0821234567');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Please enter a valid date in YYYY-MM-DD format')).toBeVisible();
  await expect(page.getByText('Please select a nationality')).toBeVisible();
  await expect(page.getByText('Please select a country')).toBeVisible();
  await expectFocused(page, '#f-dateOfBirth');
  await expectAccessible(page);
  await page.getByLabel('Date of birth').fill('2001-04-12');
  await page.getByLabel('Nationality').selectOption('za');
  await page.getByLabel('Address line 1', { exact: true }).fill('12 Church Street');
  await page.getByLabel('City').fill('Thohoyandou');
  await page.getByLabel('State/Province').fill('Limpopo');
  await page.getByLabel('Postal code').fill('0950');
  await page.getByLabel('Country').selectOption('za');
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByRole('heading', { name: 'Academic History' })).toBeFocused();
  await page.getByRole('button', { name: 'Next' }).click();
  for (const m of ['High school name is required', 'City is required', 'Country is required', 'Start year is required', 'End year is required', 'Qualification is required', 'Grade is required']) {
    await expect(page.getByText(m, { exact: true })).toBeVisible();
  }
  await expectFocused(page, '#f-academicHistory-highSchool-name');
  // A dropped connection: typing goes on, the draft is kept on the device and synced once back online.
  await page.context().setOffline(true);
  await page.locator('#f-academicHistory-highSchool-name').fill('Mbilwi Secondary');
  await expect(page.getByTestId('draft-status')).toHaveText('Draft saved on this device; it will sync when you are back online.');
  await page.context().setOffline(false);
  await expect(page.getByTestId('draft-status')).toHaveText('Draft saved');
  expect((await (await page.request.get('/api/applications/draft?key=course-2')).json()).draft.data.academicHistory.highSchool.name).toBe('Mbilwi Secondary');
  await page.locator('#f-academicHistory-highSchool-qualification').fill('National Senior Certificate');
  await page.locator('#f-academicHistory-highSchool-city').fill('Thohoyandou');
  await page.locator('#f-academicHistory-highSchool-country').fill('South Africa');
  await page.locator('#f-academicHistory-highSchool-from').selectOption('2015');
  await page.locator('#f-academicHistory-highSchool-to').selectOption('2019');
  await page.locator('#f-academicHistory-highSchool-grade').fill('72%');
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByRole('heading', { name: 'Supporting Documents' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('ID document is required')).toBeVisible();
  await expect(page.getByText('Qualifications documents are required')).toBeVisible();
  await expectFocused(page, '#f-documents-idDocument');
  await page.locator('#f-documents-idDocument').setInputFiles({ name: 'too-big.pdf', mimeType: 'application/pdf', buffer: BIG });
  await expect.poll(() => alerts).toEqual(['File size exceeds 5MB limit']);
  await page.locator('#f-documents-idDocument').setInputFiles({ name: 'id-document.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(page.getByTestId('file-idDocument')).toHaveText('id-document.pdf');
  await page.locator('#f-documents-transcripts').setInputFiles({ name: 'matric.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByTestId('file-transcripts')).toHaveText('matric.png');
  await expect(page.getByTestId('draft-status')).toHaveText('Draft saved');

  // A reload (or a closed tab) resumes at the same step with everything entered so far.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Supporting Documents' })).toBeVisible();
  await expect(page.getByTestId('file-idDocument')).toHaveText('id-document.pdf');
  await expect(page.getByText('We restored the application you started.')).toBeVisible();
  await expectAccessible(page);
  // Another device (no local copy) resumes from the server copy.
  const other = await page.context().browser()!.newContext({ baseURL: new URL(page.url()).origin });
  const otherPage = await other.newPage();
  expect((await otherPage.request.post('/api/auth/login', { data: { email, password } })).status()).toBe(200);
  await otherPage.goto('/apply/2');
  await expect(otherPage.getByRole('heading', { name: 'Supporting Documents' })).toBeVisible();
  await expect(otherPage.getByTestId('file-transcripts')).toHaveText('matric.png');
  await other.close();
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByRole('heading', { name: 'Payment' })).toBeVisible();
  await expect(page.getByTestId('fee')).toHaveText('$50.00');
  await expect(page.getByText('no actual payment is processed in this demo')).toBeVisible();
  await page.getByLabel('PayPal').check();
  await expect(page.getByText('You will be redirected to PayPal')).toBeVisible();
  await page.getByLabel('Credit or debit card').check();
  await page.getByLabel('Name on card').fill('T Mokoena');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry date (MM/YY)').fill('12/28');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('You must agree to the payment terms')).toBeVisible();
  await expectFocused(page, '#f-payment-paymentTerms');
  await page.locator('#f-payment-paymentTerms').check();
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByRole('heading', { name: 'Review & Submit' })).toBeVisible();
  await expect(page.getByText('Ready to process')).toBeVisible();
  await expect(page.getByText('Card ending in 4242')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Submit Application' }).click();
  await expect(page.getByText('You must certify that the information is true')).toBeVisible();
  await page.locator('#f-certification').check();

  const submit = page.getByRole('button', { name: 'Submit Application' });
  const t0 = Date.now();
  await submit.dblclick();
  await expect(page).toHaveURL(/\/dashboard\/student$/);
  await expect(page.getByRole('heading', { name: 'Application progress' })).toBeVisible();
  console.info(`[measure] submit click → dashboard shown: ${Date.now() - t0} ms`);
  await expect(page.getByTestId('toast').getByText('Application submitted successfully')).toBeVisible();
  await expect(page.getByTestId('toast').getByText('Your application has been received and is under review.')).toBeVisible();

  const mine = await (await page.request.get('/api/applications')).json();
  expect(mine.applications.length).toBe(1);
  const app = mine.applications[0];
  expect(app).toMatchObject({ userId: user.id, courseId: 2, status: 'pending', paymentAmount: '50.00' });
  expect(JSON.stringify(mine)).not.toContain('4242424242424242');
  expect((await (await page.request.get('/api/applications/draft?key=course-2')).json()).draft).toBeNull();

  // Dashboard: milestones, latest notifications, mark all read, real tabs.
  for (const m of ['Submitted', 'Payment', 'Documents', 'Review', 'Decision']) await expect(page.getByRole('list', { name: 'Milestones' }).getByText(m)).toBeVisible();
  await expect(page.getByTestId('deadlines')).toContainText('Application deadline');
  await expect(page.getByTestId('notifications').first()).toContainText('has been received');
  await expectAccessible(page);
  await page.getByRole('tab', { name: /Notifications/ }).click();
  await page.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(page.getByRole('button', { name: 'Mark as read' })).toHaveCount(0);
  await page.getByRole('tab', { name: 'Documents' }).click();
  await expect(page.getByRole('link', { name: 'id-document.pdf' })).toBeVisible();
  await page.getByRole('tab', { name: 'Payments' }).click();
  await expect(page.getByText('Card ending in 4242')).toBeVisible();

  // The college asks for more documents.
  const admin = await request.newContext({ baseURL: page.url().replace(/\/dashboard.*$/, '') });
  expect((await admin.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
  expect((await admin.put(`/api/admin/applications/${app.id}/status`, { data: { status: 'documents_required' } })).status()).toBe(200);
  await admin.dispose();

  await page.goto('/my-applications');
  await expect(page.getByTestId('counter-total')).toContainText('1');
  await expect(page.getByTestId('counter-pending')).toContainText('1');
  await expect(page.getByText('Additional documents are required for your application. Please upload the required documents.')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('tab', { name: 'Completed' }).click();
  await expect(page.getByText('No applications found for this filter.')).toBeVisible();
  await page.getByRole('tab', { name: 'All' }).click();
  await page.getByRole('link', { name: /View Details/ }).click();
  await expect(page).toHaveURL(new RegExp(`/applications/${app.id}$`));
  await expect(page.getByTestId('timeline')).toContainText('Submitted (Pending)');
  await expect(page.getByTestId('timeline')).toContainText('Pending → Documents Required');
  await expectAccessible(page);
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: /id-document\.pdf/ }).click();
  expect((await download).suggestedFilename()).toBe('id-document.pdf');

  await page.locator('#f-documents-englishProficiency').setInputFiles({ name: 'matric-statement.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(page.getByTestId('file-englishProficiency')).toHaveText('matric-statement.pdf');
  await page.getByRole('button', { name: 'Send documents' }).click();
  await expect(page.getByTestId('timeline')).toContainText('Documents Required → Under Review');
  await expect(page.getByRole('link', { name: /matric-statement\.pdf/ })).toBeVisible();
});

test('without a course in the URL the wizard asks for one', async ({ page }) => {
  await signUp(page);
  await page.goto('/apply');
  await expect(page.getByLabel('Course')).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Please select a course')).toBeVisible();
  await expectFocused(page, '#f-courseId');
});
