/**
 * /profile on a 360 px phone does not save over newer details (issue #16, no lost work): a page opened before an
 * application submit (which fills the profile's empty date of birth, nationality and address) or before another
 * tab's save, then saved, shows "Your details were changed since you opened this page…" and keeps what was typed;
 * Reload takes the newer values and keeps the typed ones; the next save keeps both. And a read-only date of birth
 * that the stored passport number did not give (the submit filled it) is not said to come from the ID number.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { PROFILE_EDIT_CONFLICT as CONFLICT } from '#contracts/auth.ts';
import { signUp, pdfOf } from './slow-network.ts';

test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

async function openProfile(page: Page) {
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Your details' })).toBeVisible({ timeout: 60_000 });
}
const saveButton = (page: Page) => page.getByRole('button', { name: 'Save changes' });
const profileNow = async (page: Page) => (await (await page.request.get('/api/profile')).json()).user;
/** Submits an application for course 1 born 2001-04-12, nationality za, living in Thohoyandou (its step 1 fills the profile's empty details). */
async function submitApplication(request: APIRequestContext) {
  const pdf = `data:application/pdf;base64,${pdfOf(2048).toString('base64')}`;
  const submitted = await request.post('/api/applications', { data: {
    courseId: 1, phone: '0821234567', dateOfBirth: '2001-04-12', nationality: 'za', addressLine1: '12 Church Street', addressLine2: '',
    city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za',
    academicHistory: { highSchool: { name: 'Mbilwi Secondary', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', qualification: 'NSC', grade: '72%' } },
    documents: { idDocument: pdf, transcripts: pdf },
    payment: { paymentMethod: 'card', cardNumber: '4242424242424242', cardExpiry: '12/28', cardCvc: '123', cardName: 'T Mokoena', paymentTerms: true }, certification: true,
  } });
  expect(submitted.status()).toBe(201);
}

test('a profile page opened before an application submit, saved after it: the message, nothing typed lost, nothing filled erased', async ({ page, context }) => {
  await signUp(page);
  await openProfile(page);
  await page.getByLabel('Last name').fill('Mokoena-Mudau');
  await page.getByLabel('Name', { exact: true }).fill('Mpho Mokoena');

  // Another tab submits an application: its step 1 fills the empty date of birth, nationality and address.
  const other = await context.newPage();
  await submitApplication(other.request);
  await other.close();

  await saveButton(page).click();
  const notice = page.getByTestId('edit-conflict');
  await expect(notice).toContainText(CONFLICT);
  await expect(notice.getByRole('button', { name: 'Reload' })).toBeFocused();
  await expect(page.getByLabel('Last name')).toHaveValue('Mokoena-Mudau');
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Mpho Mokoena');
  // Nothing was written: the submit's details are still there.
  expect(await profileNow(page)).toMatchObject({ lastName: 'Mokoena', city: 'Thohoyandou', nationality: 'za', dateOfBirth: '2001-04-12', emergencyContactName: null });

  await notice.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByTestId('edit-kept')).toContainText('Reloaded. The form shows the latest saved version with your changes kept. Save again to keep them.');
  await expect(page.getByTestId('edit-conflict')).toHaveCount(0);
  await expect(page.getByLabel('City')).toHaveValue('Thohoyandou');
  await expect(page.getByLabel('Address line 1')).toHaveValue('12 Church Street');
  await expect(page.getByLabel('Nationality')).toHaveValue('za');
  await expect(page.getByLabel('Date of birth')).toHaveValue('2001-04-12');
  await expect(page.getByLabel('Last name')).toHaveValue('Mokoena-Mudau');

  await saveButton(page).click();
  await expect(page.getByTestId('toast').getByText('Profile updated')).toBeVisible();
  expect(await profileNow(page)).toMatchObject({
    lastName: 'Mokoena-Mudau', emergencyContactName: 'Mpho Mokoena', city: 'Thohoyandou', addressLine1: '12 Church Street',
    nationality: 'za', dateOfBirth: '2001-04-12', country: 'za',
  });
});

test('two tabs editing the profile: the second save is refused, Reload names the field both changed, and nothing is overwritten unasked', async ({ page, context }) => {
  await signUp(page);
  await openProfile(page);
  const second = await context.newPage();
  await openProfile(second);

  await second.getByLabel('City').fill('Musina');
  await second.locator('#pf-phone').fill('0729998888');
  await saveButton(second).click();
  await expect(second.getByTestId('toast').getByText('Profile updated')).toBeVisible();

  await page.getByLabel('City').fill('Polokwane');
  await saveButton(page).click();
  await expect(page.getByTestId('edit-conflict')).toContainText(CONFLICT);
  await expect(page.getByLabel('City')).toHaveValue('Polokwane');
  expect(await profileNow(page)).toMatchObject({ city: 'Musina', phone: '0729998888' });

  await page.getByTestId('edit-conflict').getByRole('button', { name: 'Reload' }).click();
  const kept = page.getByTestId('edit-kept');
  await expect(kept).toContainText('Your changes below are kept; someone else saved something different in these fields.');
  await expect(kept).toContainText('City');
  await expect(kept).toContainText('Saved version: Musina');
  await expect(page.getByLabel('City')).toHaveValue('Polokwane');
  // The other tab's phone, which this page did not change, comes in.
  await expect(page.locator('#pf-phone')).toHaveValue('0729998888');

  await saveButton(page).click();
  await expect(page.getByTestId('toast').getByText('Profile updated')).toBeVisible();
  await expect(page.getByTestId('edit-kept')).toHaveCount(0);
  expect(await profileNow(page)).toMatchObject({ city: 'Polokwane', phone: '0729998888' });
});

test('a password changed on the same page does not make the next details save a conflict: the details did not change', async ({ page }) => {
  await signUp(page);
  await openProfile(page);
  await page.getByLabel('Current password').fill('secret123');
  await page.getByLabel('New password', { exact: true }).fill('secret456');
  await page.getByLabel('Confirm new password').fill('secret456');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByTestId('toast').getByText('Password changed')).toBeVisible();

  await page.getByLabel('City').fill('Louis Trichardt');
  await saveButton(page).click();
  await expect(page.getByTestId('toast').getByText('Profile updated')).toBeVisible();
  await expect(page.getByTestId('edit-conflict')).toHaveCount(0);
  expect(await profileNow(page)).toMatchObject({ city: 'Louis Trichardt' });
});

test('a passport number and no nationality: the date of birth the submit filled is shown as saved, not as from the ID number, and choosing a nationality makes it editable', async ({ page }) => {
  await signUp(page);
  expect((await page.request.put('/api/profile', { data: { firstName: 'Thandi', lastName: 'Mokoena', phone: '0821234567', idNumber: 'P12345678' } })).status()).toBe(200);
  await submitApplication(page.request);
  expect(await profileNow(page)).toMatchObject({ nationality: null, idNumber: 'P12345678', dateOfBirth: '2001-04-12' });

  await openProfile(page);
  const dob = page.getByLabel('Date of birth');
  await expect(dob).toHaveValue('2001-04-12');
  await expect(dob).not.toBeEditable();
  await expect(dob).toHaveAccessibleDescription('Saved with your details. To change it, choose your nationality.');

  await page.getByLabel('Nationality').selectOption('other');
  await expect(dob).toBeEditable();
  await expect(dob).toHaveValue('2001-04-12');
});
