/** Shared e2e fixtures: the admin the test server creates, and log-in helpers that use the real UI. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { simpleParser, type ParsedMail } from 'mailparser';

export const E2E_ADMIN = { email: 'admin@college.example', password: 'Admin-pass-2026' };
/** The e2e server's SMS_WEBHOOK_SECRET (the gateway's reply webhook, /api/sms/inbound). */
export const E2E_SMS_WEBHOOK_SECRET = 'e2e-sms-webhook-secret-0123456789';

/**
 * Closes a context whose service worker is allowed, waiting at most `timeoutMs` (ms). In one CI run (2026-11-25)
 * offline.spec's assertions had all passed after 9.3 s and Chromium then never finished closing its context (120 s,
 * the test's whole budget; the retry passed, and the browser itself closed in 0.4 s). What a test proves ends with
 * its last assertion, so a close that hangs is reported and left to the browser fixture, which closes the browser.
 * Resolves true when the context closed in time. Never throws.
 */
export async function closeServiceWorkerContext(context: BrowserContext, timeoutMs = 15_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([
    context.close().then(() => true, () => true),
    new Promise<false>((r) => { timer = setTimeout(() => r(false), timeoutMs); }),
  ]);
  clearTimeout(timer);
  if (!closed) console.warn(`[e2e] Chromium did not close a service-worker context within ${timeoutMs} ms; the browser fixture closes it`);
  return closed;
}

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

/** The port of this run's test server (E2E_PORT, default 4399): playwright.config.ts and serve.ts use the same. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4399);
/**
 * The test server's DATA_DIR (tests/e2e/serve.ts): one folder per port, emptied when the server starts, so a run
 * reads only its own server's files even when several runs share the machine.
 */
export const E2E_DATA_DIR = path.join(os.tmpdir(), `college-e2e-${E2E_PORT}`);

/**
 * The newest e-mail to `to` whose subject matches `subject`, as the recipient's mail program would read it: the
 * `.eml` files the test server's file mailer writes to DATA_DIR/outbox (DESIGN §2 Mail), parsed with mailparser
 * (headers decoded, quoted-printable undone, `text` the plain body). Waits up to `timeoutMs` (ms) for the outbox
 * worker (1 s interval); throws when no such mail arrives in time.
 */
export async function readMailTo(to: string, subject: RegExp, timeoutMs = 20_000): Promise<ParsedMail> {
  const outbox = path.join(E2E_DATA_DIR, 'outbox');
  const deadline = Date.now() + timeoutMs;
  const wanted = to.toLowerCase();
  while (Date.now() < deadline) {
    let files: string[] = [];
    try { files = fs.readdirSync(outbox).filter((f) => f.endsWith('.eml')).sort(); } catch { /* not created yet */ }
    // File names start with the ISO time of writing: the last match is the newest.
    for (const f of files.reverse()) {
      const mail = await simpleParser(fs.readFileSync(path.join(outbox, f)));
      const recipients = [mail.to ?? []].flat().flatMap((a) => a.value.map((v) => v.address?.toLowerCase()));
      if (recipients.includes(wanted) && subject.test(mail.subject ?? '')) return mail;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no e-mail to ${to} with a subject matching ${subject} in ${outbox} within ${timeoutMs} ms`);
}

/** A file for an upload slot, as Playwright's setInputFiles takes it. */
export interface WizardFile { name: string; mimeType: string; buffer: Buffer }
/** Step 1's own fields (spec §5 Personal Information); name, e-mail and phone come from the account. */
export interface PersonalDetails { dateOfBirth: string; nationality: string; addressLine1: string; city: string; state: string; postalCode: string; country: string }
/** Step 2's high school (spec §5 Academic History); `from`/`to` are years offered by the selects. */
export interface HighSchool { name: string; city: string; country: string; from: string; to: string; qualification: string; grade: string }
/** Step 4's card (spec §9 simulated payment). */
export interface Card { name: string; number: string; expiry: string; cvc: string }
/** What an applicant types into the application wizard (spec §2 steps 1–4). */
export interface WizardData extends PersonalDetails {
  highSchool: HighSchool;
  documents: { idDocument: WizardFile; transcripts: WizardFile };
  card: Card;
}

/** Fills the personal-details fields of the application form (the wizard's step 1, or the walk-in form). */
export async function fillPersonalDetails(page: Page, d: PersonalDetails): Promise<void> {
  await page.locator('#f-dateOfBirth').fill(d.dateOfBirth);
  await page.locator('#f-nationality').selectOption(d.nationality);
  await page.locator('#f-addressLine1').fill(d.addressLine1);
  await page.locator('#f-city').fill(d.city);
  await page.locator('#f-state').fill(d.state);
  await page.locator('#f-postalCode').fill(d.postalCode);
  await page.locator('#f-country').selectOption(d.country);
}

/** Fills the high-school fields of the application form (the wizard's step 2, or the walk-in form). */
export async function fillHighSchool(page: Page, hs: HighSchool): Promise<void> {
  for (const [field, value] of [['name', hs.name], ['qualification', hs.qualification], ['city', hs.city], ['country', hs.country], ['grade', hs.grade]] as const) {
    await page.locator(`#f-academicHistory-highSchool-${field}`).fill(value);
  }
  await page.locator('#f-academicHistory-highSchool-from').selectOption(hs.from);
  await page.locator('#f-academicHistory-highSchool-to').selectOption(hs.to);
}

/** Chooses the ID document and the qualifications file, waiting until each slot shows its file name (upload done). */
export async function attachRequiredDocuments(page: Page, docs: WizardData['documents']): Promise<void> {
  for (const slot of ['idDocument', 'transcripts'] as const) {
    await page.locator(`#f-documents-${slot}`).setInputFiles(docs[slot]);
    await expect(page.getByTestId(`file-${slot}`)).toHaveText(docs[slot].name);
  }
}

/** Types the card details of the payment step (not the payment-terms box, which some tests leave for later). */
export async function fillCard(page: Page, card: Card): Promise<void> {
  await page.getByLabel('Name on card').fill(card.name);
  await page.getByLabel('Card number').fill(card.number);
  await page.getByLabel('Expiry date (MM/YY)').fill(card.expiry);
  await page.getByLabel('CVC').fill(card.cvc);
}

/**
 * Fills the five steps of /apply like an applicant: personal details, high school, the two required uploads (waits
 * until each shows its file name), card payment with the terms, and the certification on Review & Submit. Leaves
 * the page on Review & Submit without submitting. Fails when a step's heading does not appear.
 */
export async function fillApplicationWizard(page: Page, data: WizardData): Promise<void> {
  const next = () => page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
  await fillPersonalDetails(page, data);
  await next();

  await expect(page.getByRole('heading', { name: 'Academic History' })).toBeVisible();
  await fillHighSchool(page, data.highSchool);
  await next();

  await expect(page.getByRole('heading', { name: 'Supporting Documents' })).toBeVisible();
  await attachRequiredDocuments(page, data.documents);
  await next();

  await expect(page.getByRole('heading', { name: 'Payment' })).toBeVisible();
  await fillCard(page, data.card);
  await page.locator('#f-payment-paymentTerms').check();
  await next();

  await expect(page.getByRole('heading', { name: 'Review & Submit' })).toBeVisible();
  await page.locator('#f-certification').check();
}

/** 'YYYY-MM-DD' of the first day from today + `from` whose weekday is in `days` (0 = Sunday), South African calendar. */
export function nextDate(from: number, days: number[]): string {
  const d = new Date(new Date(Date.now() + 2 * 3600_000).toISOString().slice(0, 10) + 'T00:00:00Z');
  d.setUTCDate(d.getUTCDate() + from);
  while (!days.includes(d.getUTCDay())) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** Fills the Assessment Centre form's fields after the name and e-mail with valid answers (the date is the test's own). */
export async function fillAssessmentDetails(page: Page): Promise<void> {
  await page.getByLabel('Phone Number').fill('0821234567');
  await page.getByLabel('Date of Birth').fill('2004-05-06');
  await page.getByLabel('ID Number').fill('0405065123086');
  await page.getByLabel('Preferred Campus').selectOption({ label: 'Biaba Likhade' });
  await page.getByLabel('Course Interest').selectOption('information-technology');
  await page.getByLabel('Assessment Type').selectOption('combined');
  await page.getByLabel('Highest Education Level').selectOption('grade-12');
  await page.getByLabel('Preferred Time').selectOption('morning');
}

/**
 * Sends wrong passwords for `email` from this request context's address until the API asks for the proof-of-work
 * (429 `challenge_required`, the login limits for shared addresses), at most 30; fails the test if it never asks
 * or answers anything but 401 before. `headers` carries the Origin of unsafe requests.
 */
export async function failLoginsUntilProofAsked(api: APIRequestContext, headers: Record<string, string>, email: string): Promise<void> {
  let asked = false;
  for (let i = 0; i < 30 && !asked; i++) {
    const res = await api.post('/api/auth/login', { headers, data: { email, password: `wrong-${i}-password` } });
    if (res.status() === 429) asked = (await res.json()).error.code === 'challenge_required';
    else expect(res.status()).toBe(401);
  }
  expect(asked, 'the API asked for the proof-of-work').toBe(true);
}
