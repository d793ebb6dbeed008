/**
 * Toasts shown while an admin panel (a Radix modal dialog) is open are part of the dialog (accessibility audit F1,
 * WCAG 4.1.3 / 2.1.1): the dialog hides the rest of the page from assistive technology (aria-hidden on its siblings),
 * so the Toaster moves its region into the topmost open dialog. A screen reader finds the outcome, Tab reaches the
 * toast's Close, and Escape closes what opened last: a toast shown while the panel is open first, then the panel
 * (a toast already showing when the panel opened stays, and Escape closes the panel: admin.spec 'Keep editing').
 */
import { test, expect } from '@playwright/test';
import { appliedThenAdmin, openApplicationPanel, toast } from './admin-seed.ts';

const NOT_SAVED = 'Not saved — the server could not be reached';

test('detail panel › a failed Update status is exposed to assistive technology, reachable by Tab; Escape closes the toast, then the panel', async ({ page, playwright, baseURL }) => {
  const id = await appliedThenAdmin(page, () => playwright.request.newContext({ baseURL }), 'Ntombi');
  await page.goto('/admin/applications');
  const panel = await openApplicationPanel(page, id);
  await panel.getByRole('combobox', { name: 'Status', exact: true }).selectOption('under_review');
  await page.route('**/api/admin/applications/*/status', (route) => route.abort('connectionreset'));
  await panel.getByRole('button', { name: 'Update status' }).click();
  await expect(toast(page, 'Update failed')).toBeVisible();
  // getByRole skips aria-hidden subtrees: this finds the toast itself (not Radix's one-second announcement copy)
  // only if assistive technology can.
  await expect(page.getByTestId('toast').getByRole('status').filter({ hasText: NOT_SAVED })).toBeVisible();
  // Tab (trapped in the panel) reaches the toast's Close.
  let reached = false;
  for (let i = 0; i < 60 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => !!document.activeElement?.closest('[data-testid=toast]'));
  }
  expect(reached, 'Tab reaches the toast').toBe(true);
  // Escape with the focus back in the panel: the toast (topmost) goes first, the panel stays; the next Escape closes it.
  await panel.getByRole('button', { name: 'Update status' }).focus();
  await page.keyboard.press('Escape');
  await expect(toast(page, 'Update failed')).toHaveCount(0);
  await expect(panel).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
});

test('detail panel › "Application updated" is exposed inside the panel, and on the page once the panel is closed', async ({ page, playwright, baseURL }) => {
  const id = await appliedThenAdmin(page, () => playwright.request.newContext({ baseURL }), 'Lerato');
  await page.goto('/admin/applications');
  const panel = await openApplicationPanel(page, id);
  await panel.getByRole('combobox', { name: 'Status', exact: true }).selectOption('under_review');
  await panel.getByRole('button', { name: 'Update status' }).click();
  await expect(page.getByTestId('toast').getByRole('status').filter({ hasText: 'Application updated' })).toBeVisible();
  await expect(panel.getByTestId('toast').filter({ hasText: 'Application updated' })).toBeVisible();
  // Closing the panel gives the toast back to the page: still shown and exposed.
  await panel.getByRole('button', { name: 'Close', exact: true }).first().click();
  await expect(panel).toHaveCount(0);
  await expect(page.getByTestId('toast').getByRole('status').filter({ hasText: 'Application updated' })).toBeVisible();
});
