/**
 * An upload whose login has ended (phone audit 2026-11-28, 360 px; README "no lost work"): choosing a file on the
 * wizard's Supporting Documents step after the session ended opens "Your session has ended"; Cancel keeps the chosen
 * file as a pending upload (the slot says 'Not uploaded yet: log in again to send this file.', never the server's
 * 'Authentication required'), and the upload goes out after the next log-in — the slot's own "Log in again", or
 * after a reload once logged in (the file kept in this browser, lib/pending-uploads.ts). The dialog's text says why
 * the person was logged out: after a while without activity, or by a log-out in another tab of this browser.
 */
import crypto from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { openDocumentsStep, pdfOf } from './slow-network.ts';
import { logOutInOpenMenu, sessionEndedDialog } from './wizard-draft.ts';

test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

const WAITING = 'Not uploaded yet: log in again to send this file.';
const IDLE = 'For your privacy, you are logged out after a while without activity.';
const OTHER_TAB = 'You logged out in another tab or window.';
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** The sha256 of every upload of the page's account named `name`. */
async function uploadsNamed(page: Page, name: string): Promise<string[]> {
  const list = (await (await page.request.get('/api/uploads')).json()).uploads as { name: string; sha256: string }[];
  return list.filter((u) => u.name === name).map((u) => u.sha256);
}

/** Ends the page's session on the server (as an idle time-out does), chooses `file` as the ID document, and cancels the dialog. */
async function chooseAfterSessionEndedAndCancel(page: Page, file: Buffer): Promise<void> {
  await page.context().clearCookies({ name: 'college.sid' });
  await page.locator('#f-documents-idDocument').setInputFiles({ name: 'id-document.pdf', mimeType: 'application/pdf', buffer: file });
  const again = sessionEndedDialog(page);
  await expect(again).toBeVisible();
  await expect(again).toContainText(IDLE);
  await again.getByRole('button', { name: 'Cancel' }).click();
  await expect(again).toHaveCount(0);
}

test('Cancel keeps the chosen file, says to log in again, and the slot\'s "Log in again" sends it', async ({ page }) => {
  await openDocumentsStep(page);
  const file = pdfOf(100 * 1024);
  await chooseAfterSessionEndedAndCancel(page, file);

  const slot = page.locator('[data-slot=idDocument]');
  await expect(page.getByTestId('waiting-idDocument')).toHaveText(WAITING);
  await expect(slot).toContainText('id-document.pdf');
  await expect(slot).not.toContainText('Authentication required');
  const logIn = slot.getByRole('button', { name: /^Log in again/ });
  await expect(logIn).toBeFocused();

  await logIn.click();
  const again = sessionEndedDialog(page);
  await again.getByLabel('Password', { exact: true }).fill('secret123');
  await again.getByRole('button', { name: 'Log in and save' }).click();
  await expect(page.getByTestId('file-idDocument')).toHaveText('id-document.pdf');
  await expect(page.getByTestId('waiting-idDocument')).toHaveCount(0);
  expect(await uploadsNamed(page, 'id-document.pdf')).toEqual([sha(file)]);
});

test('a file kept after Cancel is sent once the person has logged in and reloads the page', async ({ page }) => {
  await openDocumentsStep(page);
  const email = (await (await page.request.get('/api/auth/me')).json()).user.email as string;
  const file = pdfOf(100 * 1024);
  await chooseAfterSessionEndedAndCancel(page, file);
  await expect(page.getByTestId('waiting-idDocument')).toHaveText(WAITING);

  // Logged in again (here without the page, as the log-in page would), then back on the wizard: the slot sends the kept file.
  expect((await page.request.post('/api/colfront/auth/login', { data: { email, password: 'secret123' } })).status()).toBe(200);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Supporting Documents' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('file-idDocument')).toHaveText('id-document.pdf');
  expect(await uploadsNamed(page, 'id-document.pdf')).toEqual([sha(file)]);
});

test('after a log-out in another tab the dialog says so; the file chosen meanwhile is kept and sent after logging in again', async ({ page }) => {
  test.setTimeout(120_000);
  await openDocumentsStep(page);
  const tabB = await page.context().newPage();
  await tabB.goto('/dashboard/student');
  await expect(tabB.getByRole('heading', { name: 'Welcome, Thandi' })).toBeVisible({ timeout: 60_000 });
  const asked: string[] = [];
  tabB.on('dialog', (d) => { asked.push(d.message()); void d.dismiss(); });
  await tabB.getByRole('button', { name: 'Open menu' }).click();
  await logOutInOpenMenu(tabB, asked);
  expect(asked).toEqual([]);

  const file = pdfOf(100 * 1024);
  await page.locator('#f-documents-idDocument').setInputFiles({ name: 'id-document.pdf', mimeType: 'application/pdf', buffer: file });
  const again = sessionEndedDialog(page);
  await expect(again).toBeVisible();
  await expect(again).toContainText(OTHER_TAB);
  await expect(again).not.toContainText(IDLE);
  await again.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('waiting-idDocument')).toHaveText(WAITING);

  await page.locator('[data-slot=idDocument]').getByRole('button', { name: /^Log in again/ }).click();
  await again.getByLabel('Password', { exact: true }).fill('secret123');
  await again.getByRole('button', { name: 'Log in and save' }).click();
  await expect(page.getByTestId('file-idDocument')).toHaveText('id-document.pdf');
  expect(await uploadsNamed(page, 'id-document.pdf')).toEqual([sha(file)]);
});
