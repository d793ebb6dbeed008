/**
 * POPIA §24 end to end (personal-data audit HIGH): a student with an application asks to delete the account, which
 * files an erasure request; an admin erases the personal data from /admin/students through the confirmation dialog
 * and sees the student as "Erased applicant" with the request done, and the student can no longer sign in.
 */
import { expect, test, request as playwrightRequest } from '@playwright/test';
import { E2E_ADMIN, logInThroughUi, uniqueEmail } from './fixtures.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

test('an admin erases a student\'s personal data from the students list after confirming; the record shows "Erased applicant"', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('erasure');
  const student = await playwrightRequest.newContext({ baseURL });
  let userId = 0;

  await test.step('a student applies, then asks to delete the account: an erasure request is filed', async () => {
    const reg = await student.post('/api/auth/register', { data: { firstName: 'Khanyisile', lastName: 'Aabrahams', email, password: 'secret123', confirmPassword: 'secret123', phone: '0827654321', terms: true } });
    expect(reg.status()).toBe(201);
    userId = (await reg.json()).user.id;
    const up = async (name: string) => (await (await student.post('/api/uploads', { multipart: { file: { name, mimeType: 'application/pdf', buffer: PDF } } })).json()).upload.id as string;
    const documents = { idDocument: await up('id.pdf'), transcripts: await up('results.pdf') };
    const app = await student.post('/api/applications', { data: {
      courseId: 1, firstName: 'Khanyisile', lastName: 'Aabrahams', email, phone: '0827654321', dateOfBirth: '2001-04-12', nationality: 'za',
      addressLine1: '12 Church Street', addressLine2: '', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za',
      academicHistory: { highSchool: { name: 'Mbilwi Secondary', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', qualification: 'NSC', grade: '72%' } },
      documents, payment: { paymentMethod: 'card', cardNumber: '4242424242424242', cardExpiry: '12/28', cardCvc: '123', cardName: 'K Aabrahams', paymentTerms: true },
      certification: true,
    } });
    expect(app.status()).toBe(201);
    const del = await student.post('/api/profile/delete', { data: { password: 'secret123' } });
    expect(del.status()).toBe(202);
  });

  const card = page.locator(`[data-student-id="${userId}"]`);
  await test.step('the admin sees the open request with its two decisions', async () => {
    await logInThroughUi(page, E2E_ADMIN.email, E2E_ADMIN.password, /\/dashboard\/admin/);
    await page.goto('/admin/students');
    await expect(card.getByRole('heading', { name: 'Khanyisile Aabrahams' })).toBeVisible();
    await expect(card).toContainText('Erasure request: waiting for a decision since');
    await expect(card.getByRole('button', { name: 'Decline request' })).toBeVisible();
  });

  await test.step('Cancel in the confirmation changes nothing and returns the focus to the button', async () => {
    await card.getByRole('button', { name: 'Erase personal data' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText('Erase the personal data of Khanyisile Aabrahams?');
    await expect(dialog).toContainText('Kept, without the name');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByRole('button', { name: 'Erase personal data' })).toBeFocused();
    await expect(card).toContainText('Khanyisile Aabrahams');
  });

  await test.step('confirmed, the data is erased: toast, the card now says "Erased applicant", request done, no buttons', async () => {
    await card.getByRole('button', { name: 'Erase personal data' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Erase personal data' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Personal data erased' })).toBeVisible();
    await expect(card.getByRole('heading', { name: 'Erased applicant' })).toBeVisible();
    await expect(card).toContainText(`erased-${userId}@erased.invalid`);
    await expect(card).toContainText('Erasure request: done on');
    await expect(card).toContainText('APP-');
    await expect(card.getByRole('button', { name: 'Erase personal data' })).toHaveCount(0);
    await expect(card.locator('[data-erasure-status]')).toBeFocused();
  });

  await test.step('the student can no longer sign in', async () => {
    expect((await student.get('/api/auth/me')).status()).toBe(401);
    expect((await student.post('/api/auth/login', { data: { email, password: 'secret123' } })).status()).toBe(401);
  });
  await student.dispose();
});
