/**
 * The header on a phone with JavaScript off (audit of cheap phones, November 2026): at 360 px it showed the logo, a
 * theme button and "Open menu", and neither button did anything, so the home page offered no way to the other pages
 * or to Log in. Without JavaScript the menu is now a link that opens the same drawer.
 */
import { test, expect } from '@playwright/test';

test.use({ javaScriptEnabled: false, viewport: { width: 360, height: 640 } });

test('with JavaScript off, Open menu on a phone shows the menu, and its Log in link leads to /login', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Open menu' }).click();
  const drawer = page.getByRole('navigation', { name: 'Mobile' });
  await expect(drawer.getByRole('link', { name: 'Courses' })).toBeVisible();
  await drawer.getByRole('link', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
});

test('with JavaScript off, the header shows no button that does nothing', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('header').getByRole('button')).toHaveCount(0);
});
