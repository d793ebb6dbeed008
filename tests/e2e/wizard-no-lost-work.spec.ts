/**
 * "No lost work" audit of the application wizard (360 px phone): an ended login during a draft save asks to log in
 * again (never "offline"), the browser's Back during Submit leaves the applicant on Review & Submit with the lasting
 * errors box, and a document still uploading is reported as uploading, not as missing.
 */
import { expect, test, type Route } from '@playwright/test';
import { logInAgainSendsDraft, openAt, recordDraftPuts, SCHOOL, sessionEndedDialog, signUp } from './wizard-draft.ts';

test.use({ viewport: { width: 360, height: 740 } });

test('an ended login during a draft save asks to log in again, and the draft then syncs', async ({ page, context }) => {
  const email = await signUp(page, 'no-lost-work');
  await openAt(page, 1, 'Academic History');
  const puts = recordDraftPuts(page);
  await context.clearCookies({ name: 'college.sid' });

  await page.locator('#f-academicHistory-highSchool-grade').fill('72%');
  const again = sessionEndedDialog(page);
  await expect(again).toBeVisible();
  expect(puts).toContain(401);
  await expect(page.getByTestId('draft-status')).not.toContainText('back online');

  // Cancelled: the answers stay on this device and the status says how to send them, not that the phone is offline.
  await again.getByRole('button', { name: 'Cancel' }).click();
  await expect(again).toHaveCount(0);
  await expect(page.getByTestId('draft-status')).toContainText('log in again');
  await expect(page.getByTestId('draft-status')).not.toContainText('back online');
  await expect(page.locator('#f-academicHistory-highSchool-grade')).toHaveValue('72%');
  const local = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('apply-draft:') && !k.includes(':held:')).map((k) => localStorage.getItem(k)).join());
  expect(local).toContain('72%');

  // Logging in again from the status line sends the draft.
  await logInAgainSendsDraft(page, '72%');
  expect(email).toContain('@');
});

test('the browser Back during Submit stays on Review & Submit, and a refusal shows the lasting errors box', async ({ page }) => {
  await signUp(page, 'no-lost-work');
  // Every step complete (Submit checks them all; the submission itself is answered below, so the ids need no files).
  const file = (id: string) => ({ id, name: `${id}.pdf`, size: 1000 });
  await openAt(page, 3, 'Payment', { academicHistory: { highSchool: { ...SCHOOL, grade: '72%' } }, documents: { idDocument: file('id-document-1'), transcripts: file('transcripts-1') } });
  await page.getByLabel('PayPal').check();
  await page.locator('#f-payment-paymentTerms').check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Review & Submit' })).toBeVisible();
  await page.locator('#f-certification').check();
  let answer!: () => void;
  const released = new Promise<void>((r) => { answer = r; });
  let arrived!: () => void;
  const posted = new Promise<void>((r) => { arrived = r; });
  await page.route('**/api/applications', async (route: Route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    arrived();
    await released;
    await route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ error: { code: 'course_closed', message: 'This course is no longer accepting applications. Your answers are kept.' } }) });
  });
  await page.getByRole('button', { name: 'Submit Application' }).click();
  await posted;
  await page.evaluate(() => history.back());
  // The Back is undone: the wizard stays on Review & Submit while the submission runs.
  await expect(page.getByRole('button', { name: 'Submitting...' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => (history.state as { applyStep?: number } | null)?.applyStep)).toBe(4);
  await expect(page.getByRole('heading', { name: 'Review & Submit' })).toBeVisible();
  answer();
  const box = page.locator('#submit-errors');
  await expect(box).toContainText('Your application was not submitted.');
  await expect(box).toContainText('no longer accepting applications');
  await expect(page.getByRole('heading', { name: 'Review & Submit' })).toBeVisible();
});

test('a document still uploading is reported as uploading, and its slot takes the focus', async ({ page }) => {
  await signUp(page, 'no-lost-work');
  await openAt(page, 2, 'Supporting Documents');
  // The upload's data request is held: the slot stays "Uploading…", as on a connection that dropped.
  await page.route('**/api/uploads/tus/**', (route) => { if (route.request().method() !== 'PATCH') return route.fallback(); });
  const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(700 * 1024, 0x20), Buffer.from('\n%%EOF\n')]);
  await page.locator('#f-documents-idDocument').setInputFiles({ name: 'id.pdf', mimeType: 'application/pdf', buffer: pdf });
  const slot = page.locator('[data-slot="idDocument"]');
  await expect(slot.getByRole('progressbar')).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(slot).toContainText('ID document is still uploading. Wait for it to finish, or stay on this page until you are back online.');
  await expect(slot).not.toContainText('ID document is required');
  await expect(page.getByRole('heading', { name: 'Supporting Documents' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('[data-slot="idDocument"]')))).toBe(true);
});
