/**
 * Issue #18 point 6 end to end: an admin enters an application for a walk-in (account, NSC results, scanned
 * documents, campus); the person sets a password from the link sent by SMS (the short /r#token= link; the same
 * page as the e-mailed /reset-password link), logs in and follows the application, whose history says who entered
 * it and where.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_ADMIN, E2E_DATA_DIR, attachRequiredDocuments, fillHighSchool, fillPersonalDetails, logInThroughUi, readMailTo, uniqueEmail } from './fixtures.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** The body of the newest `kind` SMS to `to` (E.164) the file driver wrote to DATA_DIR/sms-outbox, waiting up to 20 s. */
async function readSmsTo(to: string, kind: string): Promise<string> {
  const dir = path.join(E2E_DATA_DIR, 'sms-outbox');
  let found: string | undefined;
  await expect.poll(() => {
    let files: string[] = [];
    try { files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().reverse(); } catch { /* not created yet */ }
    found = files.map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))).find((m) => m.to === to && m.kind === kind)?.body;
    return found;
  }, { timeout: 20_000, message: `an SMS (${kind}) to ${to} in ${dir}` }).toBeTruthy();
  return found!;
}

test('an admin enters a walk-in application; the applicant sets a password, logs in and sees it "entered by … at Siloam"', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('walkin');
  // A number of this run only, so its SMS is told apart from earlier runs' in the shared outbox folder.
  const phone = `072${String(Date.now() % 1e7).padStart(7, '0')}`;

  await test.step('the admin opens "New walk-in application" from the applications list', async () => {
    await logInThroughUi(page, E2E_ADMIN.email, E2E_ADMIN.password, /\/dashboard\/admin/);
    await page.goto('/admin/applications');
    await page.getByRole('link', { name: 'New walk-in application' }).click();
    await expect(page).toHaveURL(/\/admin\/applications\/new$/);
  });

  await test.step('1. the account: checks first, then created, and the set-password link also goes by SMS', async () => {
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('The applicant must agree to the Privacy Policy')).toBeVisible();
    await expect(page.getByLabel('First name')).toBeFocused();
    await page.getByLabel('First name').fill('Mpho');
    await page.getByLabel('Last name').fill('Ndlovu');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Phone').fill(phone);
    await page.getByLabel('Campus').selectOption({ label: 'Siloam' });
    await page.getByLabel(/agrees that the college keeps their details/).check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByTestId('walkin-account')).toContainText(`Mpho Ndlovu · ${email}`);
    // The account form and its Create account went: the focus is on step 2's heading, not <body>.
    await expect(page.getByRole('heading', { name: /^2\. Application, entered on the applicant's behalf/ })).toBeFocused();
    await expect(page.getByTestId('walkin-account')).toContainText(`It was also sent by SMS to ${phone.slice(0, 3)} ${phone.slice(3, 6)} ${phone.slice(6)}`);
  });

  await test.step('2. the application on their behalf: the wizard\'s own fields, prefilled from the account, with NSC results and scans', async () => {
    await expect(page.locator('#f-firstName')).toHaveValue('Mpho');
    await page.locator('#f-courseId').selectOption({ label: 'Bachelor of Science in Information Systems (Degree)' });
    await fillPersonalDetails(page, { dateOfBirth: '2003-02-14', nationality: 'za', addressLine1: '45 Market Street', city: 'Makhado', state: 'Limpopo', postalCode: '0920', country: 'za' });
    await fillHighSchool(page, { name: 'Makhado Secondary', qualification: 'National Senior Certificate', city: 'Makhado', country: 'South Africa', from: '2017', to: '2021', grade: '61%' });
    await page.getByRole('button', { name: 'Add subject' }).click();
    await expect(page.locator('#f-nsc-0-subject')).toBeFocused();
    await page.locator('#f-nsc-0-subject').selectOption('Mathematics');
    await page.locator('#f-nsc-0-percent').fill('52');
    await page.getByRole('button', { name: 'Add subject' }).click();
    await page.locator('#f-nsc-1-subject').selectOption('Physical Sciences');
    await page.locator('#f-nsc-1-percent').fill('61');
    await expect(page.getByTestId('nsc-aps')).toHaveText('APS so far: 9');
    // The admin's login ends while they type (30 minutes without a request): the first scan asks them to log in
    // again, in place, and is then stored; nothing typed above is lost.
    expect((await page.request.post('/api/auth/logout')).status()).toBeLessThan(300);
    await page.locator('#f-documents-idDocument').setInputFiles({ name: 'id-scan.pdf', mimeType: 'application/pdf', buffer: PDF });
    const again = page.getByRole('dialog', { name: 'Your session has ended' });
    await again.getByLabel('Password').fill(E2E_ADMIN.password);
    await again.getByRole('button', { name: 'Log in and save' }).click();
    await expect(page.getByTestId('file-idDocument')).toHaveText('id-scan.pdf');
    await expect(page.locator('#f-nsc-1-percent')).toHaveValue('61');
    await attachRequiredDocuments(page, {
      idDocument: { name: 'id-scan.pdf', mimeType: 'application/pdf', buffer: PDF },
      transcripts: { name: 'matric-scan.pdf', mimeType: 'application/pdf', buffer: PDF },
    });
    // Nothing of this is stored before it is submitted: leaving the page (here a reload) asks first.
    let asked = false;
    const onDialog = (d: import('@playwright/test').Dialog) => { if (d.type() === 'beforeunload') asked = true; void d.dismiss(); };
    page.on('dialog', onDialog);
    await page.evaluate(() => { setTimeout(() => location.reload(), 0); });
    await expect.poll(() => asked).toBe(true);
    page.off('dialog', onDialog);
    await expect(page.locator('#f-nsc-1-percent')).toHaveValue('61');
  });

  await test.step('the form warns (without blocking) that the results miss the course\'s entry requirements', async () => {
    const notice = page.getByTestId('eligibility-notice');
    await expect(notice).toContainText('Your NSC results do not meet the entry requirements for Bachelor of Science in Information Systems yet');
    await expect(notice).toContainText('APS 9 — 28 needed');
    await expect(notice).toContainText('Mathematics 52 % — 60 % needed');
  });

  const ref = await test.step('submitted once the payment terms and certification are ticked; the admin list shows its APS and eligibility', async () => {
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await expect(page.getByText('You must agree to the payment terms')).toBeVisible();
    await page.locator('#f-payment-paymentTerms').check();
    await page.locator('#f-certification').check();
    await page.getByRole('button', { name: 'Submit Application' }).click();
    const done = page.getByRole('heading', { name: /^Application APP-\d+ submitted$/ });
    await expect(done).toBeVisible();
    const id = (await done.textContent())!.match(/APP-(\d+)/)![1]!;

    // Submitted: the page is left without a question (an unanswered prompt would keep the admin here).
    await page.getByRole('link', { name: 'Back to applications' }).click();
    await expect(page).toHaveURL(/\/admin\/applications$/);
    await page.getByLabel('Search').fill(email);
    const row = page.getByTestId('app-row').filter({ hasText: `APP-${id}` });
    await expect(row).toContainText('9');
    await expect(row).toContainText('No');
    return id;
  });

  await test.step('3. the applicant sets a password from the link in the SMS, logs in and sees who entered the application where', async () => {
    const mail = await readMailTo(email, /Set your password/);
    expect(mail.text).toMatch(/https?:\/\/\S+\/reset-password#token=[\w-]{43}/);
    const sms = await readSmsTo(`+27${phone.slice(1)}`, 'set_password');
    expect(sms).toMatch(/^VSC: choose your password within 7 days: https?:\/\/\S+\/r#token=[\w-]{22} Reply STOP to opt out$/);
    const link = new URL(/https?:\/\/\S+\/r#token=[\w-]+/.exec(sms)![0]!);
    const applicant = await browser.newPage({ baseURL: new URL(page.url()).origin });
    await applicant.goto(link.pathname + link.hash);
    await expect(applicant.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await expect(applicant).toHaveURL(/\/r$/); // the token left the address bar
    await applicant.locator('#reset-password').fill('walk-in-pass-1');
    await applicant.locator('#reset-confirmPassword').fill('walk-in-pass-1');
    await applicant.getByRole('button', { name: 'Set new password' }).click();
    await expect(applicant).toHaveURL(/\/login/);
    await logInThroughUi(applicant, email, 'walk-in-pass-1', /\/dashboard\/student/);
    await applicant.goto(`/applications/${ref}`);
    await expect(applicant.getByTestId('entered-by')).toHaveText(`Entered by admin at Siloam`);
    await expect(applicant.getByText('id-scan.pdf')).toBeVisible();
    await applicant.close();
  });
});
