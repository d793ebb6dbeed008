/**
 * Where the keyboard focus goes after a decision (phone audit, 360×740). Quick Reject on /admin/applications
 * filtered to Pending removed the row, and the focus fell to the table's first button, the "ID" sort; it now goes
 * to the same action on the next application that still has it (the row that took the decided one's place), and
 * with none left to the list's heading. Reject in the detail panel turns the panel's Reject disabled once the
 * application reloads: the focus fell to the panel or <body>; it now goes to Update status, beside it.
 */
import { test, expect, type Page } from '@playwright/test';
import { adminLogin, applicationsTagged, appliedThenAdmin, openApplicationPanel, storedStatus, toast, uniqueSurname } from './admin-seed.ts';

test.use({ viewport: { width: 360, height: 740 } });

/** What document.activeElement is, in words: its aria-label, else its text; 'BODY' for the page. */
const focused = (page: Page) => page.evaluate(() => {
  const a = document.activeElement;
  return !a || a === document.body ? 'BODY' : (a.getAttribute('aria-label') ?? a.textContent ?? '').trim().slice(0, 60);
});

test('list filtered to Pending › after a quick Reject the focus is on the next row\'s Reject; after the last, on the heading', async ({ page, playwright, baseURL }) => {
  const surname = uniqueSurname();
  const [a, b, c] = await applicationsTagged(() => playwright.request.newContext({ baseURL }), surname, 3);
  await adminLogin(page.request);
  await page.goto(`/admin/applications?q=${surname}&status=pending`);
  // Newest first: c, b, a.
  await expect(page.getByTestId('app-row')).toHaveCount(3);
  const ask = page.getByRole('alertdialog');

  await page.getByRole('button', { name: `Reject APP-${c}` }).click();
  await ask.getByRole('button', { name: 'Reject application' }).click();
  await expect(toast(page, 'Application updated').filter({ hasText: `APP-${c} is now Rejected` })).toBeVisible();
  await expect(page.getByTestId('app-row')).toHaveCount(2);
  await expect.poll(() => focused(page)).toBe(`Reject APP-${b}`);

  // From the keyboard: Enter on the focused Reject, then the question's button.
  await page.keyboard.press('Enter');
  await ask.getByRole('button', { name: 'Reject application' }).click();
  await expect(page.getByTestId('app-row')).toHaveCount(1);
  await expect.poll(() => focused(page)).toBe(`Reject APP-${a}`);

  await page.getByRole('button', { name: `Reject APP-${a}` }).click();
  await ask.getByRole('button', { name: 'Reject application' }).click();
  await expect(page.getByText('No applications found')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Applications', level: 1 })).toBeFocused();
  for (const id of [a, b, c]) expect(await storedStatus(page.request, id)).toBe('rejected');
});

test('detail panel › after Reject the focus is on Update status, not the page', async ({ page, playwright, baseURL }) => {
  const id = await appliedThenAdmin(page, () => playwright.request.newContext({ baseURL }), 'Tshilidzi');
  await page.goto('/admin/applications');
  const panel = await openApplicationPanel(page, id);
  const reject = panel.getByRole('button', { name: 'Reject', exact: true });
  await reject.click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Reject application' }).click();
  await expect(toast(page, 'Application updated').filter({ hasText: `APP-${id} is now Rejected` })).toBeVisible();
  await expect(reject).toBeDisabled();
  await expect.poll(() => focused(page)).toBe('Update status');
  await expect(panel.getByRole('button', { name: 'Update status' })).toBeFocused();
});
