/**
 * A second application starts from the first one's personal details (spec §5 step 1 "Defaults from the logged-in
 * user"; §4 User has the date of birth, nationality and address). Audit on a phone: after submitting /apply/1,
 * /apply/3 (no draft) filled only name, e-mail and phone, so every further application meant retyping seven
 * fields. The submit now fills the profile's empty fields with step 1's answers, and the wizard reads them back.
 */
import { expect, test } from '@playwright/test';
import { fillApplicationWizard, uniqueEmail, type WizardData } from './fixtures.ts';

test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const NALEDI: WizardData = {
  dateOfBirth: '2003-02-17', nationality: 'za', addressLine1: '7 Sibasa Road', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za',
  highSchool: { name: 'Thohoyandou Secondary', city: 'Thohoyandou', country: 'South Africa', from: '2016', to: '2020', qualification: 'National Senior Certificate', grade: '70%' },
  documents: { idDocument: { name: 'id.pdf', mimeType: 'application/pdf', buffer: PDF }, transcripts: { name: 'results.pdf', mimeType: 'application/pdf', buffer: PDF } },
  card: { name: 'N Mudau', number: '4242 4242 4242 4242', expiry: '12/29', cvc: '123' },
};

test('after one application on a phone, the next course\'s step 1 shows the date of birth, nationality and address', async ({ page }) => {
  test.setTimeout(90_000);
  const email = uniqueEmail('second');
  const reg = await page.request.post('/api/auth/register', {
    data: { firstName: 'Naledi', lastName: 'Mudau', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true },
  });
  expect(reg.status()).toBe(201);

  await page.goto('/apply/1');
  await expect(page.getByLabel('First name')).toHaveValue('Naledi');
  await expect(page.locator('#f-dateOfBirth')).toHaveValue('');
  await fillApplicationWizard(page, NALEDI);
  await page.getByRole('button', { name: 'Submit Application' }).click();
  await expect(page).toHaveURL(/\/dashboard\/student$/);
  await expect(page.getByTestId('toast').getByText('Application submitted successfully')).toBeVisible();

  await page.goto('/apply/3');
  await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
  await expect(page.getByText('We restored the application you started.')).toHaveCount(0);
  await expect(page.getByLabel('First name')).toHaveValue('Naledi');
  await expect(page.getByLabel('Phone')).toHaveValue('0821234567');
  for (const [field, value] of [
    ['dateOfBirth', NALEDI.dateOfBirth], ['nationality', NALEDI.nationality], ['addressLine1', NALEDI.addressLine1], ['addressLine2', ''],
    ['city', NALEDI.city], ['state', NALEDI.state], ['postalCode', NALEDI.postalCode], ['country', NALEDI.country],
  ] as const) {
    await expect(page.locator(`#f-${field}`), field).toHaveValue(value);
  }
  // Step 1 is complete as shown: Next goes on to Academic History with nothing to retype.
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Academic History' })).toBeVisible();
});
