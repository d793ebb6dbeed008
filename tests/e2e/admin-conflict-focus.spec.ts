/**
 * After an edit conflict's Reload the keyboard and screen-reader user is told what happened (accessibility audit F4,
 * WCAG 2.4.3 / 4.1.3 / 1.3.1): the focus moves into the "Reloaded…" box rather than dropping to the page, and each
 * kept field is described by its "Saved version: …" line.
 */
import { test, expect } from '@playwright/test';
import { adminLogin } from './admin-seed.ts';

test('course › after Reload the focus is in the kept-changes box and Description is described by its saved version', async ({ page, playwright, baseURL }) => {
  await adminLogin(page.request);
  const title = `Apiculture ${Date.now()}`;
  const form = { title, description: 'Keep bees and harvest honey in the Vhembe district.', duration: 3, department: 'Business', tuitionFee: 'R2,000', startDate: 'June 2027', isActive: true };
  const created = (await (await page.request.post('/api/courses', { data: form })).json()).course as { id: number; updatedAt: string };
  await page.goto('/admin/courses');
  await page.getByRole('button', { name: `Edit ${title}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit course' });
  await dialog.getByLabel('Description').fill('Keep bees and sell honey.');

  const other = await playwright.request.newContext({ baseURL });
  await adminLogin(other);
  expect((await other.put(`/api/courses/${created.id}`, { data: { ...form, description: 'Bees, by B.', expectedUpdatedAt: created.updatedAt } })).status()).toBe(200);
  await other.dispose();

  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog.getByRole('button', { name: 'Reload' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog.getByTestId('edit-kept')).toContainText('Saved version: Bees, by B.');
  await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('[data-testid=edit-kept]'))).toBe(true);
  await expect(dialog.getByLabel('Description')).toHaveAccessibleDescription(/Saved version: Bees, by B\./);
});
