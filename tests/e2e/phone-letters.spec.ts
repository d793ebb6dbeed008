/**
 * A phone number with a letter on /register, on a 360 px phone (phone-letters audit): the browser refuses it with
 * PHONE_CHARS_MESSAGE (api/contracts/phone.ts, the same contract the API checks) under the phone field, the field
 * has the focus and says so to a screen reader, and nothing is sent; a short number still gets the spec §5 message,
 * and the corrected number registers.
 */
import { expect, test } from '@playwright/test';
import { PHONE_CHARS_MESSAGE } from '#contracts/phone-text.ts';
import { uniqueEmail } from './fixtures.ts';

test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

test('register › "082123456b" shows the characters message under the phone field, with the focus on it; fixed, it registers', async ({ page }) => {
  let registerPosts = 0;
  page.on('request', (r) => { if (r.method() === 'POST' && r.url().includes('/auth/register')) registerPosts++; });
  await page.goto('/register');
  await page.getByLabel('First name').fill('Thandi');
  await page.getByLabel('Last name').fill('Mokoena');
  await page.getByLabel('Email').fill(uniqueEmail('phone-letters'));
  await page.getByLabel('Password', { exact: true }).fill('secret123');
  await page.getByLabel('Confirm password').fill('secret123');
  const phone = page.getByLabel('Phone');
  await phone.fill('082123456b');
  await page.getByRole('checkbox', { name: /I agree to the terms and conditions/ }).check();
  await page.getByRole('button', { name: 'Create account' }).click();

  const error = page.locator('#reg-phone-error');
  await expect(error).toHaveText(PHONE_CHARS_MESSAGE);
  await expect(phone).toBeFocused();
  await expect(phone).toHaveAttribute('aria-invalid', 'true');
  await expect(phone).toHaveAccessibleDescription(PHONE_CHARS_MESSAGE);
  // Under the field, inside the 360 px screen (no sideways scrolling to read it).
  const [field, message] = [await phone.boundingBox(), await error.boundingBox()];
  expect(message!.y).toBeGreaterThanOrEqual(field!.y + field!.height);
  expect(message!.x + message!.width).toBeLessThanOrEqual(360);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expect(page).toHaveURL(/\/register$/);
  expect(registerPosts).toBe(0);

  // A short number keeps the spec's message (§5), letters or not.
  await phone.fill('08a');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(error).toHaveText('Phone number must be at least 10 characters');
  await expect(phone).toBeFocused();

  await phone.fill('082 123 4567');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/dashboard\/student$/);
  expect(registerPosts).toBe(1);
});
