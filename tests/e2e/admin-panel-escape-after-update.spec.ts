/**
 * The applications panel closes with Escape after "Update status" (phone audit 360×740 and keyboard at 1280 px):
 * the 'Application updated' toast shows inside the panel and the focus stays on Update status; Escape then closes
 * the panel and the focus goes back to the row's "View APP-n" button, as it does before any update.
 */
import { test, expect } from '@playwright/test';
import { appliedThenAdmin, openApplicationPanel, toast } from './admin-seed.ts';

for (const size of [{ width: 360, height: 740 }, { width: 1280, height: 900 }]) {
  test(`${size.width} px: after Update status with a note, Escape closes the panel and the focus returns to View`, async ({ page, playwright, baseURL }) => {
    await page.setViewportSize(size);
    const id = await appliedThenAdmin(page, () => playwright.request.newContext({ baseURL }), 'Thandi');
    await page.goto('/admin/applications');
    const panel = await openApplicationPanel(page, id);
    await panel.getByRole('combobox', { name: 'Status', exact: true }).selectOption('under_review');
    await panel.getByLabel('Notes (internal, never shown to the applicant)').fill('Checked the ID by phone.');
    const update = panel.getByRole('button', { name: 'Update status' });
    await update.focus();
    await page.keyboard.press('Enter');
    await expect(toast(page, 'Application updated')).toBeVisible();
    await expect(update).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
    await expect(page.getByRole('button', { name: `View APP-${id}` })).toBeFocused();
  });
}

test('360 px: the Account line keeps the e-mail address whole, on a line of its own, without angle brackets', async ({ page, playwright, baseURL }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const id = await appliedThenAdmin(page, () => playwright.request.newContext({ baseURL }), 'Thandi');
  const email: string = (await (await page.request.get(`/api/admin/applications/${id}`)).json()).applicant.email;
  await page.goto('/admin/applications');
  const panel = await openApplicationPanel(page, id);
  const account = panel.locator('dt', { hasText: /^Account$/ }).locator('+ dd');
  await expect(account).toContainText(email);
  // Before: 'Thandi Tag… <workday.….@example.com>', wrapped at 360 px with the '>' alone on the next line.
  await expect(account).not.toContainText('<');
  const address = account.getByText(email, { exact: true });
  await expect(address).toBeVisible();
  const [a, box] = [await address.boundingBox(), await account.boundingBox()];
  expect(a!.x + a!.width, 'the address stays inside its column').toBeLessThanOrEqual(box!.x + box!.width + 0.5);
});
