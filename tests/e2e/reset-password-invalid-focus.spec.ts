/**
 * /reset-password with a link the server refuses (a made-up token, or one already used): after 'Set new password'
 * the form gives way to 'This reset link is invalid or has expired', and the focus moves to that message instead of
 * dropping to the page (WCAG 2.4.3 Focus Order; phone audit 2026-11-28).
 */
import { expect, test } from '@playwright/test';

test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

test('a refused reset link: the message that replaces the form takes the focus', async ({ page }) => {
  await page.goto('/reset-password#token=abc');
  await page.getByLabel('New password', { exact: true }).fill('new-secret-1');
  await page.getByLabel('Confirm new password').fill('new-secret-1');
  await page.getByRole('button', { name: 'Set new password' }).click();
  const message = page.getByText('This reset link is invalid or has expired');
  await expect(message).toBeVisible();
  await expect(message).toBeFocused();
});
