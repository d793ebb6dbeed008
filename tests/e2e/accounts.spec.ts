/**
 * Accounts journeys (issue #4) against the production build: simple registration, the 'Student Registration'
 * wizard, login with same-site and off-site redirects, and forgotten password → e-mailed link → new password.
 * Pages built by other slices (/apply, dashboards) are checked by URL only.
 * The reset link is read from the .eml file the server's file mailer writes to DATA_DIR/outbox (readMailTo).
 */
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import fs from 'node:fs';
import { E2E_ADMIN, uniqueEmail, readMailTo, logInThroughUi } from './fixtures.ts';
import { isValidSaIdNumber } from '../../api/contracts/auth.ts';

const VALID_SA_ID = '0104125800086';

/**
 * Clicks the header's Courses link and answers a "Leave site?" prompt with Stay: 'asked' when the page asked
 * (and was kept), 'left' when it went to /courses without asking.
 */
async function leaveByLink(page: Page): Promise<'asked' | 'left'> {
  let asked = false;
  const onDialog = (d: import('@playwright/test').Dialog) => { if (d.type() === 'beforeunload') asked = true; void d.dismiss(); };
  page.on('dialog', onDialog);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Courses' }).click({ noWaitAfter: true });
  await expect.poll(() => asked || page.url().endsWith('/courses')).toBe(true);
  page.off('dialog', onDialog);
  return asked ? 'asked' : 'left';
}

async function fillSimple(page: Page, email: string, password: string) {
  await page.getByLabel('First name').fill('Thandi');
  await page.getByLabel('Last name').fill('Mokoena');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByLabel('Phone').fill('0821234567');
}

/** Student Registration, step 2 (Address): types the address (spec §3 registration fields). */
async function typeRegisterAddress(page: Page, a: { line1: string; city: string; state: string; postalCode: string; country: string }) {
  await page.getByLabel('Address line 1').fill(a.line1);
  await page.getByLabel('City').fill(a.city);
  await page.getByLabel('State/Province').fill(a.state);
  await page.getByLabel('Postal code').fill(a.postalCode);
  await page.getByLabel('Country').selectOption(a.country);
}

/** Student Registration, step 3 (Academic history): types the high school group's seven fields. */
async function typeRegisterHighSchool(page: Page, hs: { name: string; city: string; country: string; qualification: string; from: string; to: string; grade: string }) {
  const school = page.getByRole('group', { name: 'High school' });
  await school.getByLabel('High school name').fill(hs.name);
  await school.getByLabel('City').fill(hs.city);
  await school.getByLabel('Country').fill(hs.country);
  await school.getByLabel('Qualification').fill(hs.qualification);
  await school.getByLabel('Start year').fill(hs.from);
  await school.getByLabel('End year').fill(hs.to);
  await school.getByLabel('Grade or average').fill(hs.grade);
}

/** Student Registration, step 4 (Emergency contact): types it and goes on to step 5. */
async function typeRegisterEmergency(page: Page, name: string, phone: string, relation: string) {
  await page.getByLabel('Emergency contact name').fill(name);
  await page.getByLabel('Emergency contact phone').fill(phone);
  await page.getByLabel('Relationship').fill(relation);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Step 5 of 5')).toBeVisible();
}

/** Student Registration, step 5: picks the first course, agrees and completes; lands on the student dashboard. */
async function completeRegistration(page: Page) {
  const course = page.getByLabel('Course');
  await expect(course).toBeEnabled();
  await course.selectOption({ index: 1 });
  await page.getByRole('checkbox', { name: 'I agree to the Terms and Conditions and Privacy Policy' }).check();
  await page.getByRole('button', { name: 'Complete Registration' }).click();
  await expect(page).toHaveURL(/\/dashboard\/student$/);
}

test('simple registration: spec messages, a picked course leads to /apply/{id}, a taken e-mail gets "Registration failed"', async ({ page }) => {
  await page.goto('/register');
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('First name must be at least 2 characters')).toBeVisible();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  await expect(page.getByText('Phone number must be at least 10 characters')).toBeVisible();
  await expect(page.getByText('You must agree to the terms and conditions')).toBeVisible();
  await expect(page.getByLabel('First name')).toBeFocused();

  const email = uniqueEmail('simple');
  await fillSimple(page, email, 'secret123');
  await page.getByLabel('Confirm password').fill('secret124');
  await page.getByRole('checkbox', { name: /I agree to the terms and conditions/ }).check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await expect(page.getByLabel('Confirm password')).toBeFocused();
  await page.getByLabel('Confirm password').fill('secret123');

  const course = page.getByLabel('Course (optional)');
  await expect(course.locator('option')).not.toHaveCount(1);
  await expect(course.locator('option').first()).toHaveText('No course yet');
  const courseId = await course.locator('option').nth(1).getAttribute('value');
  await course.selectOption(courseId!);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(new RegExp(`/apply/${courseId}$`));

  // The same address in capitals is the same account: 409 → the spec's failure toast. Signed out first: a
  // signed-in person on a registration page is sent to their dashboard (issue #14 point 11).
  await page.evaluate(() => localStorage.removeItem('authToken'));
  await page.request.post('/api/auth/logout');
  await page.goto('/register-simple');
  await fillSimple(page, email.toUpperCase(), 'secret123');
  await page.getByRole('checkbox', { name: /I agree to the terms and conditions/ }).check();
  await page.getByRole('button', { name: 'Create account' }).click();
  const toast = page.getByTestId('toast').filter({ hasText: 'Registration failed' });
  await expect(toast).toContainText('Could not create account');
  await expect(page).toHaveURL(/\/register-simple$/);
  // The field says what to do next (usability audit, November 2026): log in, or reset the password.
  const emailError = page.locator('#reg-email-error');
  await expect(emailError).toHaveText('If you already have an account with this e-mail, log in or reset your password.');
  await expect(emailError.getByRole('link', { name: 'reset your password' })).toHaveAttribute('href', /^\/forgot-password/);
  await expect(emailError.getByRole('link', { name: 'log in' })).toHaveAttribute('href', /^\/login/);
  await expect(page.getByLabel('Email')).toHaveAccessibleDescription('If you already have an account with this e-mail, log in or reset your password.');
});

test('simple registration without a course goes to the student dashboard', async ({ page }) => {
  await page.goto('/register');
  await fillSimple(page, uniqueEmail('nocourse'), 'secret123');
  await expect(page.getByLabel('Course (optional)')).toHaveValue('none');
  await page.getByRole('checkbox', { name: /I agree to the terms and conditions/ }).check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/dashboard\/student$/);
});

test('Student Registration wizard: per-step checks, ID → birth date and Luhn, then /dashboard/student', async ({ page }) => {
  expect(isValidSaIdNumber(VALID_SA_ID)).toBe(true);
  expect(isValidSaIdNumber('0104125800085')).toBe(false);
  await page.goto('/register');
  await page.getByRole('link', { name: 'Use the full student registration' }).click();
  await expect(page).toHaveURL(/\/register\?mode=full$/);
  await expect(page.getByRole('heading', { name: 'Student Registration' })).toBeVisible();
  await expect(page.getByText('Step 1 of 5')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('First name must be at least 2 characters')).toBeVisible();
  await expect(page.getByText('Please select a nationality')).toBeVisible();
  await expect(page.getByText('Step 1 of 5')).toBeVisible();

  // Nothing typed yet: a link away just goes.
  await page.getByRole('link', { name: 'Use the short form' }).click();
  await expect(page).toHaveURL(/\/register$/);
  await page.goBack();
  await expect(page.getByText('Step 1 of 5')).toBeVisible();
  await page.getByLabel('First name').fill('Lufuno');
  // A registration is kept nowhere until it is sent: with answers typed, a link away asks first.
  expect(await leaveByLink(page)).toBe('asked');
  await expect(page.getByLabel('First name')).toHaveValue('Lufuno');
  await page.getByLabel('Last name').fill('Netshiavha');
  await page.getByLabel('Email').fill(uniqueEmail('wizard'));
  await page.getByLabel('Password', { exact: true }).fill('secret123');
  await page.getByLabel('Confirm password').fill('secret123');
  await page.getByLabel('Phone').fill('0821234567');
  await page.getByLabel('Nationality').selectOption('za');
  await page.getByLabel('ID number').fill('0104125800085');
  const dob = page.getByLabel('Date of birth');
  // The date of birth comes only from a valid ID number (issue #14 point 5): a wrong check digit leaves it empty.
  await expect(dob).toHaveValue('');
  await expect(dob).toHaveAttribute('readonly', '');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('This South African ID number is not valid: check the 13 digits')).toBeVisible();
  await expect(page.getByLabel('ID number')).toBeFocused();
  await page.getByLabel('ID number').fill(VALID_SA_ID);
  await expect(dob).toHaveValue('2001-04-12');
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByText('Step 2 of 5')).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Address is required')).toBeVisible();
  await typeRegisterAddress(page, { line1: '12 Church Street', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za' });
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByText('Step 3 of 5')).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('High school name is required')).toBeVisible();
  await typeRegisterHighSchool(page, { name: 'Mbilwi Secondary', city: 'Thohoyandou', country: 'South Africa', qualification: 'NSC', from: '2015', to: '2019', grade: '72%' });
  const school = page.getByRole('group', { name: 'High school' });
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByText('Step 4 of 5')).toBeVisible();
  // The browser's Back is Previous (a phone's Back gesture), and Forward is Next; what was typed stays.
  await page.goBack();
  await expect(page.getByText('Step 3 of 5')).toBeVisible();
  await expect(page).toHaveURL(/\/register\?mode=full$/);
  await expect(school.getByLabel('High school name')).toHaveValue('Mbilwi Secondary');
  await page.goForward();
  await expect(page.getByText('Step 4 of 5')).toBeVisible();
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page.getByText('Step 3 of 5')).toBeVisible();
  await expect(school.getByLabel('High school name')).toHaveValue('Mbilwi Secondary');
  await page.getByRole('button', { name: 'Next' }).click();
  await typeRegisterEmergency(page, 'Mpho Netshiavha', '0827654321', 'Mother');
  await page.getByRole('button', { name: 'Complete Registration' }).click();
  await expect(page.getByText('Please select a course')).toBeVisible();
  await expect(page.getByText('You must agree to the Terms and Conditions and Privacy Policy')).toBeVisible();
  await completeRegistration(page);
});

test('Student Registration wizard: a UK applicant with a passport number types the date of birth and reaches /dashboard/student', async ({ page }) => {
  await page.goto('/register?mode=full');
  await expect(page.getByRole('heading', { name: 'Student Registration' })).toBeVisible();
  await page.getByLabel('First name').fill('Oliver');
  await page.getByLabel('Last name').fill('Bennett');
  await page.getByLabel('Email').fill(uniqueEmail('uk-wizard'));
  await page.getByLabel('Password', { exact: true }).fill('secret123');
  await page.getByLabel('Confirm password').fill('secret123');
  await page.getByLabel('Phone').fill('+447700900123');
  await page.getByLabel('Nationality').selectOption('uk');
  await page.locator('#wiz-idNumber').fill('P12345678');
  const dob = page.getByLabel('Date of birth');
  await expect(dob).toBeEditable();
  await expect(page.getByLabel('Passport or ID number')).toHaveValue('P12345678');
  // An empty date of birth gets its own message, and focus goes to it.
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Date of birth is required')).toBeVisible();
  await expect(dob).toBeFocused();
  await dob.fill('2999-01-01');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Please enter a valid date of birth')).toBeVisible();
  await dob.fill('1998-03-15');
  // South Africa fills the date from the ID number (read-only); choosing the UK again brings back what was typed.
  await page.getByLabel('Nationality').selectOption('za');
  await expect(dob).toHaveAttribute('readonly', '');
  await expect(dob).toHaveValue('');
  await page.getByLabel('Nationality').selectOption('uk');
  await expect(dob).toBeEditable();
  await expect(dob).toHaveValue('1998-03-15');
  await expect(page.getByLabel('Passport or ID number')).toHaveValue('P12345678');
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByText('Step 2 of 5')).toBeVisible();
  await typeRegisterAddress(page, { line1: '221 Baker Street', city: 'London', state: 'Greater London', postalCode: 'NW1 6XE', country: 'uk' });
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByText('Step 3 of 5')).toBeVisible();
  await typeRegisterHighSchool(page, { name: 'Camden School', city: 'London', country: 'United Kingdom', qualification: 'A-levels', from: '2012', to: '2016', grade: 'AAB' });
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByText('Step 4 of 5')).toBeVisible();
  await typeRegisterEmergency(page, 'Emma Bennett', '+447700900456', 'Sister');
  await completeRegistration(page);
  const me = await page.request.get('/api/profile');
  expect((await me.json()).user).toMatchObject({ nationality: 'uk', idNumber: 'P12345678', dateOfBirth: '1998-03-15' });
});

test('login: spec messages and failure toast, same-site redirect honoured, off-site redirect ignored, admins to /dashboard/admin', async ({ page }) => {
  const email = uniqueEmail('login');
  const api = page.request;
  expect((await api.post('/api/auth/register', { data: { firstName: 'Thandi', lastName: 'Mokoena', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true } })).status()).toBe(201);
  await page.context().clearCookies();

  await page.goto('/login');
  await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
  await expect(page.getByRole('main').getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
  await expect(page.getByRole('main').getByRole('link', { name: 'Terms and Conditions' })).toHaveAttribute('href', '/terms');
  await expect(page.getByRole('main').getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('wrong-password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Login failed' })).toContainText('Invalid email or password');
  // The toast goes after 5 s: the form says it too, marks the fields and puts the focus back on the e-mail.
  const form = page.getByRole('form', { name: 'Log in' });
  await expect(form.getByRole('alert')).toHaveText('Invalid email or password');
  await expect(page.getByLabel('Email')).toBeFocused();
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('aria-invalid', 'true');

  await page.goto('/login?redirect=%2Fprofile');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('secret123');
  await page.getByLabel('Remember me').check();
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible();
  await expect(page.getByTestId('toast').filter({ hasText: 'Login successful' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Thandi Mokoena' })).toBeVisible();
  await page.getByRole('button', { name: 'Thandi Mokoena' }).click();
  await page.getByRole('button', { name: 'Log out', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);

  for (const offSite of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
    await page.goto(`/login?redirect=${encodeURIComponent(offSite)}`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/dashboard\/student$/);
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
  }

  await logInThroughUi(page, E2E_ADMIN.email, E2E_ADMIN.password, /\/dashboard\/admin$/);
});

test('forgot password: neutral answer, e-mailed link sets a new password and logs out every session', async ({ page, browser }) => {
  const email = uniqueEmail('reset');
  const reg = await page.request.post('/api/auth/register', { data: { firstName: 'Rudzani', lastName: 'Mudau', email, password: 'old-password', confirmPassword: 'old-password', phone: '0821234567', terms: true } });
  expect(reg.status()).toBe(201);
  // A second browser stays logged in with the old password until the reset.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await logInThroughUi(otherPage, email, 'old-password', /\/dashboard\/student$/);
  await page.context().clearCookies();

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toContainText('If an account exists for that e-mail address');

  const mail = await readMailTo(email, /^Reset your password$/);
  const link = /(http:\/\/\S+\/reset-password#token=[\w-]+)/.exec(mail.text ?? '')?.[1];
  expect(link).toBeTruthy();
  await page.goto(new URL(link!).pathname + new URL(link!).hash);
  await expect(page).toHaveURL(/\/reset-password$/); // the token leaves the address bar
  await page.getByLabel('New password', { exact: true }).fill('new-password');
  await page.getByLabel('Confirm new password').fill('different');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel('Confirm new password').fill('new-password');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId('toast').filter({ hasText: 'Password changed' })).toBeVisible();

  expect((await otherPage.request.get('/api/auth/me')).status()).toBe(401);
  await other.close();

  // The link works once.
  await page.goto(new URL(link!).pathname + new URL(link!).hash);
  await page.getByLabel('New password', { exact: true }).fill('third-password');
  await page.getByLabel('Confirm new password').fill('third-password');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('This reset link is invalid or has expired')).toBeVisible();
  // The page also serves the 7-day set-password link of a walk-in account: it says both lifetimes, not only 1 hour.
  await expect(page.getByText('A password reset link works once and for 1 hour; a link to set your first password works once and for 7 days.')).toBeVisible();

  await logInThroughUi(page, email, 'new-password', /\/dashboard\/student$/);
});

test('profile: edit details, download my data, delete the account — and the account pages pass axe', async ({ page }) => {
  for (const path of ['/login', '/register', '/register?mode=full', '/forgot-password']) {
    await page.goto(path);
    await expect(page.locator('form button[type="submit"]')).toBeEnabled();
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa']).analyze();
    expect(violations.map((v) => `${path}: ${v.id}`)).toEqual([]);
  }

  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fprofile$/);
  const email = uniqueEmail('profile');
  await page.goto('/register');
  await fillSimple(page, email, 'secret123');
  await page.getByRole('checkbox', { name: /I agree to the terms and conditions/ }).check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/dashboard\/student$/);

  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible();
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa']).analyze();
  expect(violations.map((v) => `/profile: ${v.id}`)).toEqual([]);
  await page.getByLabel('First name').fill('Rudzani');
  await page.getByLabel('Nationality').selectOption('za');
  await page.getByLabel('ID number').fill(VALID_SA_ID);
  await expect(page.getByLabel('Date of birth')).toHaveValue('2001-04-12');
  // Unsaved changes: following a link away asks first; staying keeps them.
  expect(await leaveByLink(page)).toBe('asked');
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByLabel('First name')).toHaveValue('Rudzani');
  // The login ends before Save: "Your session has ended" over the form. Cancel keeps the changes on screen, unsaved;
  // logging in again saves them.
  expect((await page.request.post('/api/auth/logout')).status()).toBeLessThan(300);
  await page.getByRole('button', { name: 'Save changes' }).click();
  const again = page.getByRole('dialog', { name: 'Your session has ended' });
  await expect(again.getByLabel('Password')).toBeFocused();
  const onDialog = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa']).analyze();
  expect(onDialog.violations.map((v) => `session ended: ${v.id}`)).toEqual([]);
  await again.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Update failed' })).toBeVisible();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByLabel('First name')).toHaveValue('Rudzani');
  // Back is Cancel too, on the same page.
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(again).toBeVisible();
  await page.goBack();
  await expect(again).toHaveCount(0);
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByLabel('First name')).toHaveValue('Rudzani');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await again.getByLabel('Password').fill('secret123');
  await again.getByRole('button', { name: 'Log in and save' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Profile updated' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Rudzani Mokoena' })).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download my data' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(await fs.promises.readFile((await file.path())!, 'utf8'));
  expect(data.user).toMatchObject({ email, firstName: 'Rudzani', idNumber: VALID_SA_ID });
  expect(data.consents[0].acceptedAt).toBeTruthy();

  await page.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
  // Back answers the question with Cancel (a phone's Back gesture) and stays on the profile.
  await expect(dialog).toBeVisible();
  await page.goBack();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/profile$/);
  await page.getByRole('button', { name: 'Delete my account' }).click();
  await dialog.getByLabel('Your password').fill('wrong-password');
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(dialog.getByText('Password is incorrect')).toBeVisible();
  await dialog.getByLabel('Your password').fill('secret123');
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect((await page.request.post('/api/auth/login', { data: { email, password: 'secret123' } })).status()).toBe(401);
});

test("a shared computer: after log-out, the browser's Back does not show the last person's pages", async ({ playwright, baseURL }) => {
  // Playwright turns the back/forward cache off by default; people's browsers have it on.
  const executablePath = ['/usr/bin/chromium', '/usr/lib/chromium/chromium'].find((p) => fs.existsSync(p));
  const browser = await playwright.chromium.launch({ ...(executablePath ? { executablePath } : {}), args: ['--no-sandbox', '--disable-gpu'], ignoreDefaultArgs: ['--disable-back-forward-cache'] });
  const page = await (await browser.newContext({ baseURL, serviceWorkers: 'block' })).newPage();
  const email = uniqueEmail('shared');
  const res = await page.request.post('/api/auth/register', { headers: { origin: baseURL! }, data: { firstName: 'Lindiwe', lastName: 'Khumalo', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true } });
  expect(res.status()).toBe(201);
  // An application started: the wizard keeps a draft on the device and on the server.
  const street = `${Date.now() % 100000} Mvudi Street`;
  await page.goto('/apply/1');
  await page.locator('#f-addressLine1').fill(street);
  await expect(page.getByTestId('draft-status')).toHaveText('Draft saved');
  await page.goto('/dashboard/student');
  await expect(page.getByText('Lindiwe').first()).toBeVisible();
  await page.goto('/profile');
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.evaluate(() => { (window as unknown as { kept: boolean }).kept = true; });

  await page.locator('[data-user-menu-button]').click();
  await page.locator('[data-user-menu] [data-logout]').click();
  await expect(page).not.toHaveURL(/\/profile$/);

  await page.goBack({ waitUntil: 'commit' });
  // The profile is not shown again from memory: it loads afresh, finds nobody signed in and asks to log in.
  await expect(page).toHaveURL(/\/login\?redirect=%2Fprofile$/);
  await expect(page.getByText(email)).toHaveCount(0);
  await expect(page.getByText('Lindiwe')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { kept?: boolean }).kept ?? false)).toBe(false);
  // Nor the page before it, left while still signed in.
  await page.goBack({ waitUntil: 'commit' });
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Lindiwe')).toHaveCount(0);
  // Nothing of hers stays in the browser's storage either: not the draft, not her e-mail address.
  const stored = await page.evaluate(() => Object.entries(localStorage).map(([k, v]) => `${k}=${v}`));
  expect(stored.filter((e) => e.includes(street) || e.includes(email) || e.startsWith('apply-draft:'))).toEqual([]);
  // Her draft was not lost: it waits on the server for her next log-in.
  await logInThroughUi(page, email, 'secret123');
  await page.goto('/apply/1');
  await expect(page.locator('#f-addressLine1')).toHaveValue(street);
  await browser.close();
});

test('profile › a UK applicant sees the typed date of birth editable, changes it, and it stays after a reload and in the application', async ({ page }) => {
  const email = uniqueEmail('uk-profile');
  const reg = await page.request.post('/api/auth/comprehensive-register', { data: {
    firstName: 'Oliver', lastName: 'Bennett', email, password: 'secret123', confirmPassword: 'secret123', phone: '+447700900123',
    nationality: 'uk', idNumber: 'P12345678', dateOfBirth: '1998-03-15',
    addressLine1: '221 Baker Street', addressLine2: '', city: 'London', state: 'Greater London', postalCode: 'NW1 6XE', country: 'uk',
    academicHistory: { highSchool: { name: 'Camden School', city: 'London', country: 'United Kingdom', from: '2012', to: '2016', qualification: 'A-levels', grade: 'AAB' } },
    emergencyContactName: 'Emma Bennett', emergencyContactPhone: '+447700900456', emergencyContactRelation: 'Sister', courseId: 1, termsAndConditions: true,
  } });
  expect(reg.status()).toBe(201);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible();
  await expect(page.getByLabel('Passport or ID number')).toHaveValue('P12345678');
  const dob = page.getByLabel('Date of birth');
  await expect(dob).toBeEditable();
  await expect(dob).toHaveValue('1998-03-15');
  // The registration rule and message.
  await dob.fill('2999-01-01');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Please enter a valid date of birth')).toBeVisible();
  await expect(dob).toBeFocused();
  await dob.fill('1997-11-02');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Profile updated' })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Date of birth')).toHaveValue('1997-11-02');
  await expect(page.getByLabel('Date of birth')).toBeEditable();
  await expect(page.getByLabel('Passport or ID number')).toHaveValue('P12345678');
  // Application step 1 takes it from the account.
  await page.goto('/apply/1');
  await expect(page.locator('#f-dateOfBirth')).toHaveValue('1997-11-02');
});

test('profile › NSC results: added, shown as APS, saved for later applications; unsaved results ask before the page is left', async ({ page }) => {
  const email = uniqueEmail('nsc-profile');
  const reg = await page.request.post('/api/auth/register', { data: { firstName: 'Mpho', lastName: 'Ndlovu', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true } });
  expect(reg.status()).toBe(201);
  await page.goto('/profile');
  const card = page.getByRole('region', { name: 'NSC results' });
  await card.getByRole('button', { name: 'Add subject' }).click();
  await expect(card.locator('#profile-nsc-0-subject')).toBeFocused();
  await card.locator('#profile-nsc-0-subject').selectOption('Mathematics');
  await card.locator('#profile-nsc-0-percent').fill('65');
  await expect(card.getByTestId('nsc-aps')).toHaveText('APS so far: 5');
  expect(await leaveByLink(page)).toBe('asked');
  await expect(card.locator('#profile-nsc-0-percent')).toHaveValue('65');

  await card.getByRole('button', { name: 'Save NSC results' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'NSC results saved' })).toBeVisible();
  const saved = (await (await page.request.get('/api/profile/nsc-results')).json()).nscResults;
  expect(saved).toMatchObject([{ subject: 'Mathematics', percent: 65 }]);
  expect(await leaveByLink(page)).toBe('left');
});
