/**
 * The applicant's journey (issue #5) on the production build: the five-step wizard with real files, a reload in
 * the middle that resumes the draft, every step's checks with focus on the first error, a double-clicked submit
 * that creates one application, the dashboard, My Applications, the detail page and the missing-documents upload.
 */
import { expect, request, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { E2E_ADMIN, attachRequiredDocuments, fillCard, fillHighSchool, fillPersonalDetails, uniqueEmail, type WizardData } from './fixtures.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const BIG = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024 + 10)]);

/** Thandi's answers to the wizard (spec §5). */
const THANDI: WizardData = {
  dateOfBirth: '2001-04-12', nationality: 'za', addressLine1: '12 Church Street', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za',
  highSchool: { name: 'Mbilwi Secondary', qualification: 'National Senior Certificate', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', grade: '72%' },
  documents: { idDocument: { name: 'id-document.pdf', mimeType: 'application/pdf', buffer: PDF }, transcripts: { name: 'matric.png', mimeType: 'image/png', buffer: PNG } },
  card: { name: 'T Mokoena', number: '4242 4242 4242 4242', expiry: '12/28', cvc: '123' },
};

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
  await expect(page).toHaveURL(/\/login\?redirect=%2Fmy-applications$/);
  await page.goto('/dashboard/student');
  await expect(page).toHaveURL(/\/login$/);
});

test('an applicant fills all five steps with real files, survives a reload, submits once and follows the application', async ({ page }) => {
  test.setTimeout(90_000);
  const { user, email, password } = await signUp(page);
  const alerts: string[] = [];
  page.on('dialog', (d) => { alerts.push(d.message()); void d.accept(); });
  const next = () => page.getByRole('button', { name: 'Next' }).click();

  await test.step('step 1, Personal Information: starts from the account, says what is missing, then moves on', async () => {
    await page.goto('/apply/2');
    await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
    await expect(page.getByTestId('selected-course')).toContainText('Applying for:');
    await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await expect(page.getByLabel('First name')).toHaveValue('Thandi');
    await expect(page.getByLabel('Phone')).toHaveValue('0821234567');
    await next();
    await expect(page.getByText('Please enter a valid date in YYYY-MM-DD format')).toBeVisible();
    await expect(page.getByText('Please select a nationality')).toBeVisible();
    await expect(page.getByText('Please select a country')).toBeVisible();
    await expectFocused(page, '#f-dateOfBirth');
    await expectAccessible(page);
    // Typed, not picked: a South African day-first date is refused in the spec's words, and kept for correcting.
    await page.getByLabel('Date of birth').fill('12/04/2001');
    await next();
    await expect(page.getByText('Please enter a valid date in YYYY-MM-DD format')).toBeVisible();
    await expect(page.getByLabel('Date of birth')).toHaveValue('12/04/2001');
    await expectFocused(page, '#f-dateOfBirth');
    await fillPersonalDetails(page, THANDI);
    await next();
  });

  await test.step('step 2, Academic History: every missing field named; typing offline keeps the draft on the device until back online', async () => {
    await expect(page.getByRole('heading', { name: 'Academic History' })).toBeFocused();
    await next();
    for (const m of ['High school name is required', 'City is required', 'Country is required', 'Start year is required', 'End year is required', 'Qualification is required', 'Grade is required']) {
      await expect(page.getByText(m, { exact: true })).toBeVisible();
    }
    await expectFocused(page, '#f-academicHistory-highSchool-name');
    await page.context().setOffline(true);
    await page.locator('#f-academicHistory-highSchool-name').fill(THANDI.highSchool.name);
    await expect(page.getByTestId('draft-status')).toHaveText('Draft saved on this device; it will sync when you are back online.');
    await page.context().setOffline(false);
    await expect(page.getByTestId('draft-status')).toHaveText('Draft saved');
    expect((await (await page.request.get('/api/applications/draft?key=course-2')).json()).draft.data.academicHistory.highSchool.name).toBe('Mbilwi Secondary');
    await fillHighSchool(page, THANDI.highSchool);
    await next();
  });

  await test.step('step 3, Supporting Documents: both required, a file over 5 MB refused, two real files uploaded', async () => {
    await expect(page.getByRole('heading', { name: 'Supporting Documents' })).toBeVisible();
    await next();
    await expect(page.getByText('ID document is required')).toBeVisible();
    await expect(page.getByText('Qualifications documents are required')).toBeVisible();
    // Focus goes to the slot's visible button; the hidden file inputs are no tab stops (WCAG 2.4.3, 2.4.7).
    await expect(page.getByRole('button', { name: 'Choose a file for ID Document' })).toBeFocused();
    await expect(page.locator('#f-documents-idDocument')).toHaveAttribute('tabindex', '-1');
    await expect(page.locator('#f-documents-idDocument-camera')).toHaveAttribute('tabindex', '-1');
    await page.locator('#f-documents-idDocument').setInputFiles({ name: 'too-big.pdf', mimeType: 'application/pdf', buffer: BIG });
    // The spec's alert is the slot's own (role=alert), with what to do next; no browser pop-up.
    await expect(page.locator('[data-slot=idDocument]').getByRole('alert')).toContainText('File size exceeds 5MB limit');
    expect(alerts).toEqual([]);
    await attachRequiredDocuments(page, THANDI.documents);
    // After an upload the file's Replace button has the focus (the second slot's upload leaves it there: the
    // applicant was not in that slot), and a status line says each is done.
    await expect(page.getByRole('button', { name: 'Replace ID Document' })).toBeFocused();
    await expect(page.getByRole('status').filter({ hasText: `${THANDI.documents.idDocument.name} uploaded` })).toHaveCount(1);
    await expect(page.getByRole('status').filter({ hasText: `${THANDI.documents.transcripts.name} uploaded` })).toHaveCount(1);
    // Remove → Cancel keeps the file and focuses its Remove; Yes, remove → Choose a file.
    await page.getByRole('button', { name: 'Remove ID Document' }).click();
    await page.getByRole('group', { name: /^Remove / }).getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('button', { name: 'Remove ID Document' })).toBeFocused();
    await page.getByRole('button', { name: 'Remove ID Document' }).click();
    await page.getByRole('button', { name: 'Yes, remove' }).click();
    await expect(page.getByRole('button', { name: 'Choose a file for ID Document' })).toBeFocused();
    await page.locator('#f-documents-idDocument').setInputFiles(THANDI.documents.idDocument);
    await expect(page.getByTestId('file-idDocument')).toHaveText(THANDI.documents.idDocument.name);
    await expect(page.getByTestId('draft-status')).toHaveText('Draft saved');
  });

  await test.step('a reload resumes at the same step, and another device resumes from the server copy', async () => {
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Supporting Documents' })).toBeVisible();
    await expect(page.getByTestId('file-idDocument')).toHaveText('id-document.pdf');
    await expect(page.getByText('We restored the application you started.')).toBeVisible();
    // Start over asks first; the focus stays in the notice (it fell to the page when the buttons swapped).
    await page.getByRole('button', { name: 'Start over' }).click();
    await expect(page.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('button', { name: 'Start over' })).toBeFocused();
    await expectAccessible(page);
    const other = await page.context().browser()!.newContext({ baseURL: new URL(page.url()).origin });
    const otherPage = await other.newPage();
    expect((await otherPage.request.post('/api/auth/login', { data: { email, password } })).status()).toBe(200);
    await otherPage.goto('/apply/2');
    await expect(otherPage.getByRole('heading', { name: 'Supporting Documents' })).toBeVisible();
    await expect(otherPage.getByTestId('file-transcripts')).toHaveText('matric.png');
    await other.close();
    await next();
  });

  await test.step('step 4, Payment: the $50.00 fee, PayPal or card, and the payment terms required', async () => {
    await expect(page.getByRole('heading', { name: 'Payment' })).toBeVisible();
    await expect(page.getByTestId('fee')).toHaveText('$50.00');
    await expect(page.getByText('no actual payment is processed in this demo')).toBeVisible();
    await page.getByLabel('PayPal').check();
    await expect(page.getByText('You will be redirected to PayPal')).toBeVisible();
    await page.getByLabel('Credit or debit card').check();
    await fillCard(page, THANDI.card);
    await next();
    await expect(page.getByText('You must agree to the payment terms')).toBeVisible();
    await expectFocused(page, '#f-payment-paymentTerms');
    await page.locator('#f-payment-paymentTerms').check();
    await next();
  });

  const app = await test.step('step 5, Review & Submit: certification required; a double-click submits one application', async () => {
    await expect(page.getByRole('heading', { name: 'Review & Submit' })).toBeVisible();
    for (const step of ['Personal Information', 'Academic History', 'Supporting Documents', 'Payment']) {
      const edit = await page.getByRole('button', { name: `Edit ${step}` }).boundingBox();
      expect(Math.min(edit!.width, edit!.height), `Edit ${step}: a target of at least 24 px (WCAG 2.5.8)`).toBeGreaterThanOrEqual(24);
    }
    await expect(page.getByText('Ready to process')).toBeVisible();
    await expect(page.getByText('Card ending in 4242')).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await expect(page.getByText('You must certify that the information is true')).toBeVisible();
    await page.locator('#f-certification').check();

    // The login ended while the applicant was away (2 hours without a request): Submit asks them to log in again,
    // in place, and then goes through; the double-click still makes one application.
    expect((await page.request.post('/api/auth/logout')).status()).toBeLessThan(300);
    const submit = page.getByRole('button', { name: 'Submit Application' });
    await submit.dblclick();
    const again = page.getByRole('dialog', { name: 'Your session has ended' });
    await expect(again.getByLabel('Email')).toHaveValue(email);
    await again.getByLabel('Password').fill(password);
    const t0 = Date.now();
    await again.getByRole('button', { name: 'Log in and save' }).click();
    await expect(page).toHaveURL(/\/dashboard\/student$/);
    await expect(page.getByRole('heading', { name: 'Application progress' })).toBeVisible();
    console.info(`[measure] log in again and submit → dashboard shown: ${Date.now() - t0} ms`);
    await expect(page.getByTestId('toast').getByText('Application submitted successfully')).toBeVisible();
    await expect(page.getByTestId('toast').getByText('Your application has been received and is under review.')).toBeVisible();

    const mine = await (await page.request.get('/api/applications')).json();
    expect(mine.applications.length).toBe(1);
    expect(mine.applications[0]).toMatchObject({ userId: user.id, courseId: 2, status: 'pending', paymentAmount: '50.00' });
    expect(JSON.stringify(mine)).not.toContain('4242424242424242');
    expect((await (await page.request.get('/api/applications/draft?key=course-2')).json()).draft).toBeNull();
    return mine.applications[0] as { id: number };
  });

  await test.step('the dashboard shows milestones and notifications, marks all read, and has Documents and Payments tabs', async () => {
    for (const m of ['Submitted', 'Payment', 'Documents', 'Review', 'Decision']) await expect(page.getByRole('list', { name: 'Milestones' }).getByText(m)).toBeVisible();
    await expect(page.getByTestId('deadlines')).toContainText('Application deadline');
    await expect(page.getByTestId('notifications').first()).toContainText('has been received');
    await expectAccessible(page);
    // Each Mark as read names its notification; after one, focus moves on (next button or the list heading).
    await page.getByTestId('notifications').getByRole('button', { name: /^Mark as read: .*has been received/ }).first().click();
    await expect(page.locator(':focus')).toHaveAccessibleName(/^Mark as read: |^Latest notifications$/);
    await page.getByRole('tab', { name: /Notifications/ }).click();
    await expect(page.getByRole('heading', { name: 'Notifications', exact: true })).toBeVisible();
    // 'Mark all as read' shows while any is unread (the one above may have been the only one).
    if (await page.getByRole('button', { name: 'Mark as read' }).count()) await page.getByRole('button', { name: 'Mark all as read' }).click();
    await expect(page.getByRole('button', { name: 'Mark as read' })).toHaveCount(0);
    await page.getByRole('tab', { name: 'Documents' }).click();
    await expect(page.getByRole('link', { name: 'id-document.pdf' })).toBeVisible();
    await page.getByRole('tab', { name: 'Payments' }).click();
    await expect(page.getByText('Card ending in 4242')).toBeVisible();
  });

  await test.step('the college asks for more documents: My Applications and the detail page say so', async () => {
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
  });

  await test.step('the applicant sends the extra document and the application goes back under review', async () => {
    await page.locator('#f-documents-englishProficiency').setInputFiles({ name: 'matric-statement.pdf', mimeType: 'application/pdf', buffer: PDF });
    await expect(page.getByTestId('file-englishProficiency')).toHaveText('matric-statement.pdf');
    await page.getByRole('button', { name: 'Send documents' }).click();
    await expect(page.getByTestId('timeline')).toContainText('Documents Required → Under Review');
    await expect(page.getByRole('link', { name: /matric-statement\.pdf/ })).toBeVisible();
  });
});

test("the browser's Back goes to the previous step and keeps what was typed; Forward checks the step first", async ({ page }) => {
  await signUp(page);
  const heading = (name: string) => expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
  await page.goto('/courses/3');
  await page.goto('/apply/3');
  await heading('Personal Information');
  await fillPersonalDetails(page, THANDI);
  await page.getByRole('button', { name: 'Next' }).click();
  await heading('Academic History');
  await fillHighSchool(page, THANDI.highSchool);
  await page.getByRole('button', { name: 'Next' }).click();
  await heading('Supporting Documents');

  // Back (a phone's Back gesture) is Previous: the page stays, the answers stay.
  await page.goBack();
  await heading('Academic History');
  await expect(page).toHaveURL(/\/apply\/3$/);
  await expect(page.locator('#f-academicHistory-highSchool-name')).toHaveValue(THANDI.highSchool.name);
  await page.goBack();
  await heading('Personal Information');
  await expect(page.locator('#f-addressLine1')).toHaveValue(THANDI.addressLine1);

  // Forward is Next: with a required answer removed it stays, says why and focuses it.
  await page.locator('#f-addressLine1').fill('');
  await page.goForward();
  await expect(page.locator('#f-addressLine1')).toBeFocused();
  await expect(page.locator('#f-addressLine1')).toHaveAttribute('aria-invalid', 'true');
  await heading('Personal Information');
  // Answered again, Forward moves on, twice; the two steps were not lost.
  await page.locator('#f-addressLine1').fill(THANDI.addressLine1);
  await page.goForward();
  await heading('Academic History');
  await page.goForward();
  await heading('Supporting Documents');

  // Back from the first step leaves the wizard for the page before it, as it always did.
  await page.goBack();
  await page.goBack();
  await heading('Personal Information');
  await page.goBack();
  await expect(page).toHaveURL(/\/courses\/3$/);
});

test('without a course in the URL the wizard asks for one', async ({ page }) => {
  await signUp(page);
  await page.goto('/apply');
  await expect(page.getByLabel('Course')).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Please select a course')).toBeVisible();
  await expectFocused(page, '#f-courseId');
});

/**
 * Opens `url` with the session check (GET /api/auth/me) held until `reads` have gone out (or 5 s), waits for
 * `ready`, and returns which of `reads` were sent before the check answered, sorted. On a slow network that is the
 * round trip the page no longer waits for (issue #17).
 */
async function readsBeforeSession(page: Page, url: string, reads: string[], ready: () => Promise<void>): Promise<string[]> {
  const sent: string[] = [];
  let answered = false;
  const onRequest = (r: { url(): string }) => {
    const u = new URL(r.url());
    if (!answered && reads.includes(u.pathname + u.search) && !sent.includes(u.pathname + u.search)) sent.push(u.pathname + u.search);
  };
  page.on('request', onRequest);
  await page.route('**/api/auth/me', async (route) => {
    for (const until = Date.now() + 5000; sent.length < reads.length && Date.now() < until;) await new Promise((r) => setTimeout(r, 50));
    const answer = await route.fetch();
    answered = true;
    await route.fulfill({ response: answer });
  });
  await page.goto(url);
  await ready();
  await page.unroute('**/api/auth/me');
  page.off('request', onRequest);
  return sent.sort();
}

test('account pages send their first reads while the session check is still under way: the wizard, the dashboard, My Applications', async ({ page }) => {
  await signUp(page);
  const wizard = ['/api/applications/draft?key=course-1', '/api/applications?mine=1', '/api/courses/1', '/api/profile/nsc-results'];
  expect(await readsBeforeSession(page, '/apply/1', wizard, () => expect(page.getByLabel('First name')).toHaveValue('Thandi'))).toEqual(wizard);
  const dashboard = ['/api/colfront/applications', '/api/colfront/notifications'];
  expect(await readsBeforeSession(page, '/dashboard/student', dashboard, () => expect(page.getByText('You have not applied for a course yet.')).toBeVisible())).toEqual(dashboard);
  const mine = ['/api/colfront/applications?mine=1'];
  expect(await readsBeforeSession(page, '/my-applications', mine, () => expect(page.getByText(/^You have not applied for a course yet/)).toBeVisible())).toEqual(mine);
});
