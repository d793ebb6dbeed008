/**
 * What a screen-reader user hears (screen-reader audit, 2026-11-27): the focus never falls to the page when a panel
 * closes after its application left a filtered list; the panel's name is not read twice, nor a document's label;
 * the notifications tab reads "Notifications, 1 unread"; the status boxes on My Applications are part of the page,
 * not assertive alerts fired on every visit.
 */
import { expect, test, type APIRequest, type Page } from '@playwright/test';
import { fillPersonalDetails } from './fixtures.ts';
import { adminLogin, appliedThenAdmin, openApplicationPanel, studentApplies, toast, uniqueSurname } from './admin-seed.ts';

/** The page's student applies to course 1 and an admin asks for documents (status documents_required, spec §4). */
async function applicationNeedsDocuments(page: Page, playwright: { request: APIRequest }, baseURL: string | undefined): Promise<number> {
  const id = await studentApplies(page.request, 1, 'Ndivhuwo', uniqueSurname());
  const admin = await playwright.request.newContext({ baseURL });
  await adminLogin(admin);
  expect((await admin.put(`/api/admin/applications/${id}/status`, { data: { status: 'documents_required', notes: '' } })).status()).toBe(200);
  await admin.dispose();
  return id;
}

test('admin › the panel and each of its documents are named once', async ({ page, playwright, baseURL }) => {
  const id = await appliedThenAdmin(page, () => playwright.request.newContext({ baseURL }), 'Tshilidzi');
  await page.goto('/admin/applications?status=pending');
  const panel = await openApplicationPanel(page, id);
  await expect(panel).toBeVisible();
  expect(await panel.getAttribute('aria-describedby')).toBeNull();
  const slotText = await panel.locator('[data-review-slot="idDocument"] > div').first().evaluate((el) => {
    const walk = (n: Node): string => n.nodeType === Node.TEXT_NODE ? n.textContent ?? '' : n instanceof Element && n.getAttribute('aria-hidden') === 'true' ? '' : Array.from(n.childNodes).map(walk).join('');
    return walk(el);
  });
  expect(slotText).toBe('ID Document: Received');
});

test('admin › closing the panel after its application left the Pending list gives the focus to the list, not the page', async ({ page, playwright, baseURL }) => {
  const id = await appliedThenAdmin(page, () => playwright.request.newContext({ baseURL }), 'Tshilidzi');
  await page.goto('/admin/applications?status=pending');
  const panel = await openApplicationPanel(page, id);
  await panel.getByRole('combobox', { name: 'Status', exact: true }).selectOption('accepted');
  await panel.getByRole('button', { name: 'Update status' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Accept application' }).click();
  await expect(toast(page, 'Application updated')).toContainText(`APP-${id} is now Accepted.`);
  await expect(page.getByRole('button', { name: `View APP-${id}` })).toHaveCount(0);
  await panel.getByRole('button', { name: 'Close' }).filter({ hasText: '×' }).first().click();
  await expect(panel).toBeHidden();
  const focused = await page.evaluate(() => {
    const a = document.activeElement;
    return { body: a === document.body, inMain: Boolean(a?.closest('main')) };
  });
  expect(focused).toEqual({ body: false, inMain: true });
});

test('student › the notifications tab reads "Notifications, 1 unread"', async ({ page, playwright, baseURL }) => {
  await applicationNeedsDocuments(page, playwright, baseURL);

  await page.goto('/dashboard/student');
  await expect(page.getByRole('tab', { name: /^Notifications ?, \d+ unread$/ })).toBeVisible();
});

test('student › My Applications\' status boxes are part of the page, not alerts', async ({ page, playwright, baseURL }) => {
  await applicationNeedsDocuments(page, playwright, baseURL);
  await page.goto('/my-applications');
  const box = page.getByText('Additional documents are required for your application. Please upload the required documents.');
  await expect(box).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Additional documents are required' })).toHaveCount(0);
});

test('admin › a quick Approve by keyboard leaves the focus on the list\'s heading when no pending row is left (e08b13d), not the page', async ({ page, playwright, baseURL }) => {
  const id = await appliedThenAdmin(page, () => playwright.request.newContext({ baseURL }), 'Mashudu');
  await page.goto('/admin/applications');
  await page.getByLabel('Search').fill(`APP-${id}`);
  await page.getByRole('button', { name: `Approve APP-${id}` }).focus();
  await page.keyboard.press('Enter');
  const ask = page.getByRole('alertdialog');
  await ask.getByRole('button', { name: 'Accept application' }).focus();
  await page.keyboard.press('Enter');
  await expect(toast(page, 'Application updated')).toContainText(`APP-${id} is now Accepted.`);
  await expect(page.getByRole('button', { name: `Approve APP-${id}` })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Applications', level: 1 })).toBeFocused();
});

test('applicant › each wizard step\'s heading, which takes the focus, says "Step n of 5"', async ({ page }) => {
  const reg = await page.request.post('/api/auth/register', { data: { firstName: 'Rotondwa', lastName: uniqueSurname(), email: `steps.${Date.now()}@example.com`, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true } });
  expect(reg.status()).toBe(201);
  await page.goto('/apply/1');
  const heading = page.getByRole('heading', { level: 2, name: 'Personal Information' });
  await expect(heading).toHaveAccessibleDescription('Step 1 of 5');
  await fillPersonalDetails(page, { dateOfBirth: '2002-09-30', nationality: 'za', addressLine1: '4 Mvusuludzo Street', city: 'Makhado', state: 'Limpopo', postalCode: '0920', country: 'za' });
  await page.getByRole('button', { name: 'Next' }).click();
  const next = page.getByRole('heading', { level: 2, name: 'Academic History' });
  await expect(next).toBeFocused();
  await expect(next).toHaveAccessibleDescription('Step 2 of 5');
});

test('applicant › each document in the checklist is named once, with its state ("ID Document: Received")', async ({ page }) => {
  const id = await studentApplies(page.request, 1, 'Ndivhuwo', uniqueSurname());
  await page.goto(`/applications/${id}`);
  await expect(page.getByTestId('state-idDocument')).toHaveText('Received');
  // The row's heading line as the accessibility tree has it: the name once, with its state (was "ID Document" then
  // "ID Document: Received", the visible label and the visually hidden prefix of the state).
  const snapshot = await page.locator('[data-slot-state="idDocument"] > div').first().ariaSnapshot();
  expect(snapshot.match(/ID Document/g), snapshot).toHaveLength(1);
  expect(snapshot, snapshot).toContain('ID Document: Received');
});
