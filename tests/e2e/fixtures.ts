/** Shared e2e fixtures: the admin the test server creates, and log-in helpers that use the real UI. */
import { expect, type Page } from '@playwright/test';

export const E2E_ADMIN = { email: 'admin@college.example', password: 'Admin-pass-2026' };

let n = 0;
export const uniqueEmail = (prefix = 'applicant') => `${prefix}.${Date.now()}.${++n}@example.com`;

/** Logs in through /login and waits for the dashboard. */
export async function logInThroughUi(page: Page, email: string, password: string, expectPath: RegExp = /\/dashboard\//) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: /^Log in$/i }).click();
  await expect(page).toHaveURL(expectPath);
}

/**
 * The newest e-mail sent to `to` (subject matching `subject`), read from the `.eml` files the test server's file
 * mailer writes to DATA_DIR/outbox (DESIGN §2 Mail). The server's DATA_DIR is a fresh os.tmpdir()/college-e2e-*
 * directory; the unique recipient address picks the right file even when several servers run on one machine.
 * Waits up to `timeoutMs` for the outbox worker (1 s interval). Returns the decoded text body.
 */
export async function readMailTo(to: string, subject: RegExp, timeoutMs = 20_000): Promise<string> {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const deadline = Date.now() + timeoutMs;
  const toLine = new RegExp(`^To: .*${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'mi');
  while (Date.now() < deadline) {
    const dirs = fs.readdirSync(os.tmpdir()).filter((d) => d.startsWith('college-e2e-')).map((d) => path.join(os.tmpdir(), d, 'outbox'));
    const found: { mtime: number; text: string }[] = [];
    for (const dir of dirs) {
      let files: string[] = [];
      try { files = fs.readdirSync(dir).filter((f) => f.endsWith('.eml')); } catch { continue; }
      for (const f of files) {
        const full = path.join(dir, f);
        const raw = fs.readFileSync(full, 'utf8');
        if (!toLine.test(raw)) continue;
        const [head, ...body] = raw.split(/\r?\n\r?\n/);
        if (!subject.test(head!)) continue;
        let text = body.join('\n\n');
        if (/quoted-printable/i.test(head!)) text = text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16)));
        found.push({ mtime: fs.statSync(full).mtimeMs, text });
      }
    }
    if (found.length) return found.sort((a, b) => b.mtime - a.mtime)[0]!.text;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no e-mail to ${to} matching ${subject} within ${timeoutMs} ms`);
}

/** A file for an upload slot, as Playwright's setInputFiles takes it. */
export interface WizardFile { name: string; mimeType: string; buffer: Buffer }
/** What an applicant types into the application wizard (spec §2 steps 1–4); step 1's name, e-mail and phone come from the account. */
export interface WizardData {
  dateOfBirth: string; nationality: string; addressLine1: string; city: string; state: string; postalCode: string; country: string;
  highSchool: { name: string; city: string; country: string; from: string; to: string; qualification: string; grade: string };
  documents: { idDocument: WizardFile; transcripts: WizardFile };
  card: { name: string; number: string; expiry: string; cvc: string };
}

/**
 * Fills the five steps of /apply like an applicant: personal details, high school, the two required uploads (waits
 * until each shows its file name), card payment with the terms, and the certification on Review & Submit. Leaves
 * the page on Review & Submit without submitting. Fails when a step's heading does not appear.
 */
export async function fillApplicationWizard(page: Page, data: WizardData): Promise<void> {
  const next = () => page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
  await page.getByLabel('Date of birth').fill(data.dateOfBirth);
  await page.getByLabel('Nationality').selectOption(data.nationality);
  await page.getByLabel('Address line 1', { exact: true }).fill(data.addressLine1);
  await page.getByLabel('City').fill(data.city);
  await page.getByLabel('State/Province').fill(data.state);
  await page.getByLabel('Postal code').fill(data.postalCode);
  await page.getByLabel('Country').selectOption(data.country);
  await next();

  await expect(page.getByRole('heading', { name: 'Academic History' })).toBeVisible();
  const hs = data.highSchool;
  for (const [field, value] of [['name', hs.name], ['city', hs.city], ['country', hs.country], ['qualification', hs.qualification], ['grade', hs.grade]] as const) {
    await page.locator(`#f-academicHistory-highSchool-${field}`).fill(value);
  }
  await page.locator('#f-academicHistory-highSchool-from').selectOption(hs.from);
  await page.locator('#f-academicHistory-highSchool-to').selectOption(hs.to);
  await next();

  await expect(page.getByRole('heading', { name: 'Supporting Documents' })).toBeVisible();
  for (const slot of ['idDocument', 'transcripts'] as const) {
    await page.locator(`#f-documents-${slot}`).setInputFiles(data.documents[slot]);
    await expect(page.getByTestId(`file-${slot}`)).toHaveText(data.documents[slot].name);
  }
  await next();

  await expect(page.getByRole('heading', { name: 'Payment' })).toBeVisible();
  await page.getByLabel('Name on card').fill(data.card.name);
  await page.getByLabel('Card number').fill(data.card.number);
  await page.getByLabel('Expiry date (MM/YY)').fill(data.card.expiry);
  await page.getByLabel('CVC').fill(data.card.cvc);
  await page.locator('#f-payment-paymentTerms').check();
  await next();

  await expect(page.getByRole('heading', { name: 'Review & Submit' })).toBeVisible();
  await page.locator('#f-certification').check();
}
