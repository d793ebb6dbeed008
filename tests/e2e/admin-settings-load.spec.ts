/**
 * The dashboard's Settings tab (phone audit, 360×740 at 4× CPU). A failed load said 'Could not load the settings.'
 * with no way to try again, unlike every other admin error state: it is now the ErrorState with 'Try again'. And the
 * form's chunk (SettingsFields) was asked for only after the settings had arrived, one wait after the other: it is
 * now asked for while the settings read is still on its way (checked by holding that read, not by timing).
 */
import { test, expect } from '@playwright/test';
import { adminLogin } from './admin-seed.ts';

test.use({ viewport: { width: 360, height: 740 } });

test('Settings tab › a failed load offers Try again, which loads the form', async ({ page }) => {
  await adminLogin(page.request);
  let fail = true;
  await page.route('**/api/admin/settings', (route) => (fail && route.request().method() === 'GET' ? route.fulfill({ status: 503, json: { error: 'Service Unavailable' } }) : route.fallback()));
  await page.goto('/dashboard/admin#settings');
  const tab = page.getByRole('tabpanel', { name: 'Settings' });
  await expect(tab.getByRole('alert')).toContainText('Could not load the settings.');
  fail = false;
  await tab.getByRole('button', { name: 'Try again' }).click();
  await expect(tab.getByLabel('Application fee')).not.toHaveValue('');
  await expect(tab.getByRole('button', { name: 'Save settings' })).toBeVisible();
});

test('Settings tab › the form\'s code is fetched while the settings read is still waiting (in parallel, not after)', async ({ page }) => {
  await adminLogin(page.request);
  await page.goto('/dashboard/admin');
  await expect(page.getByRole('tab', { name: 'Settings' })).toBeVisible();
  let release!: () => void;
  const held = new Promise<void>((r) => { release = r; });
  await page.route('**/api/admin/settings', async (route) => { await held; await route.fallback(); });
  const asked = page.waitForRequest('**/api/admin/settings');
  const chunk = page.waitForRequest((r) => /SettingsFields/.test(new URL(r.url()).pathname), { timeout: 20_000 });
  await page.getByRole('tab', { name: 'Settings' }).click();
  // The settings read is held unanswered: before, the form's chunk was not asked for until it answered.
  await asked;
  await chunk;
  release();
  await expect(page.getByRole('tabpanel', { name: 'Settings' }).getByLabel('Application fee')).not.toHaveValue('');
});
