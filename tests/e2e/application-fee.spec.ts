/**
 * The fee an applicant agrees to is the fee charged (audit: the wizard showed a fixed $50.00 while the server
 * charged the admin setting). An admin sets the fee: the wizard's Payment and Review steps show it. The admin changes
 * it again while the applicant is on Review & Submit: Submit stores nothing, takes them back to Payment with the new
 * fee, the message and the agreement unticked; once they agree again, the application is stored with that fee.
 * The walk-in desk form likewise shows the fee charged and refuses to store an application after a change.
 * The fee is set back to 50.00 at the end (the e2e server is shared by the other specs).
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { attachRequiredDocuments, E2E_ADMIN, fillCard, fillHighSchool, fillPersonalDetails, logInThroughUi, uniqueEmail, type WizardData } from './fixtures.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const DATA: WizardData = {
  dateOfBirth: '2001-04-12', nationality: 'za', addressLine1: '12 Church Street', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za',
  highSchool: { name: 'Mbilwi Secondary', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', qualification: 'NSC', grade: '72%' },
  documents: { idDocument: { name: 'id.pdf', mimeType: 'application/pdf', buffer: PDF }, transcripts: { name: 'matric.pdf', mimeType: 'application/pdf', buffer: PDF } },
  card: { name: 'T Mokoena', number: '4242 4242 4242 4242', expiry: '12/28', cvc: '123' },
};

let admin: APIRequestContext | null = null;
let origin = '';

/** Sets the application fee on /api/admin/settings as the e2e admin, keeping the other settings. */
async function setFee(fee: string): Promise<void> {
  const current = (await (await admin!.get('/api/admin/settings')).json()).settings;
  const res = await admin!.put('/api/admin/settings', { data: { ...current, applicationFee: fee }, headers: { origin } });
  expect(res.status()).toBe(200);
}

test.afterAll(async () => {
  if (admin) { await setFee('50.00'); await admin.dispose(); }
});

async function adminApi(playwright: { request: { newContext: (o: { baseURL: string; extraHTTPHeaders: Record<string, string> }) => Promise<APIRequestContext> } }, baseURL: string | undefined): Promise<void> {
  if (admin) return;
  origin = new URL(baseURL!).origin;
  admin = await playwright.request.newContext({ baseURL: origin, extraHTTPHeaders: { origin } });
  expect((await admin.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
}

test('an admin changes the fee: the wizard shows it at Payment and Review; a change mid-draft is shown and agreed to again, then charged', async ({ page, playwright, baseURL }) => {
  await adminApi(playwright, baseURL);
  await setFee('75.5');

  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Thandi', lastName: 'Mokoena', email: uniqueEmail('fee'), password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true },
  });
  expect(res.status()).toBe(201);
  const heading = (name: string) => expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
  const next = () => page.getByRole('button', { name: 'Next' }).click();
  await page.goto('/apply/2');
  await heading('Personal Information');
  await fillPersonalDetails(page, DATA);
  await next();
  await heading('Academic History');
  await fillHighSchool(page, DATA.highSchool);
  await next();
  await heading('Supporting Documents');
  await attachRequiredDocuments(page, DATA.documents);
  await next();

  await heading('Payment');
  await expect(page.getByTestId('fee')).toHaveText('$75.50');
  await expect(page.locator('label[for="f-payment-paymentTerms"]')).toHaveText('I agree to the payment terms and understand that the $75.50 application fee is non-refundable.');
  await fillCard(page, DATA.card);
  await page.locator('#f-payment-paymentTerms').check();
  await next();
  await heading('Review & Submit');
  const feeRow = page.locator('dt', { hasText: 'Application fee' }).locator('xpath=following-sibling::dd[1]');
  await expect(feeRow).toHaveText('$75.50');
  await page.locator('#f-certification').check();

  // The admin changes the fee while the applicant is about to submit: nothing is stored, they are asked again.
  await setFee('80');
  await page.getByRole('button', { name: 'Submit Application' }).click();
  await heading('Payment');
  const notice = page.getByTestId('fee-changed');
  await expect(notice).toHaveText('The application fee changed to $80.00. Please review and confirm the new fee.');
  await expect(notice).toBeFocused();
  await expect(page.getByTestId('fee')).toHaveText('$80.00');
  await expect(page.locator('#f-payment-paymentTerms')).not.toBeChecked();
  expect((await (await page.request.get('/api/applications')).json()).applications).toEqual([]);

  await next();
  await expect(page.getByText('You must agree to the payment terms')).toBeVisible();
  await page.locator('#f-payment-paymentTerms').check();
  await next();
  await heading('Review & Submit');
  await expect(feeRow).toHaveText('$80.00');
  await page.getByRole('button', { name: 'Submit Application' }).click();
  await expect(page).toHaveURL(/\/dashboard\/student$/);
  const mine = (await (await page.request.get('/api/applications')).json()).applications;
  expect(mine).toHaveLength(1);
  expect(mine[0]).toMatchObject({ courseId: 2, paymentAmount: '80.00' });
});

test('the walk-in desk form shows the fee charged; a change before Submit stores nothing and shows the new fee to confirm', async ({ page, playwright, baseURL }) => {
  await adminApi(playwright, baseURL);
  await setFee('62');
  await logInThroughUi(page, E2E_ADMIN.email, E2E_ADMIN.password, /\/dashboard\/admin/);
  await page.goto('/admin/applications/new');
  await page.getByLabel('First name').fill('Mpho');
  await page.getByLabel('Last name').fill('Ndlovu');
  await page.getByLabel('Email').fill(uniqueEmail('walkin-fee'));
  await page.getByLabel('Phone').fill('0721234567');
  await page.getByLabel('Campus').selectOption({ label: 'Siloam' });
  await page.getByLabel(/agrees that the college keeps their details/).check();
  await page.getByRole('button', { name: 'Create account' }).click();
  const terms = page.locator('label[for="f-payment-paymentTerms"]');
  await expect(terms).toHaveText('The applicant paid the non-refundable application fee of $62.00 at the desk.');

  await page.locator('#f-courseId').selectOption({ label: 'Bachelor of Science in Information Systems (Degree)' });
  await fillPersonalDetails(page, DATA);
  await fillHighSchool(page, DATA.highSchool);
  await attachRequiredDocuments(page, DATA.documents);
  await page.locator('#f-payment-paymentTerms').check();
  await page.locator('#f-certification').check();
  await setFee('64');
  await page.getByRole('button', { name: 'Submit Application' }).click();
  await expect(page.getByText('The application fee changed to $64.00. Please review and confirm the new fee.').first()).toBeVisible();
  await expect(terms).toHaveText('The applicant paid the non-refundable application fee of $64.00 at the desk.');
  await expect(page.locator('#f-payment-paymentTerms')).not.toBeChecked();
  await expect(page.locator('#f-payment-paymentTerms')).toBeFocused();
  await page.locator('#f-payment-paymentTerms').check();
  await page.getByRole('button', { name: 'Submit Application' }).click();
  await expect(page.getByRole('heading', { name: /^Application APP-\d+ submitted$/ })).toBeVisible();
});
