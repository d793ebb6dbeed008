/**
 * What axe cannot see (accessibility audit, November 2026): a focused field hidden under the sticky header
 * (WCAG 2.4.11), wizard steps without their own page title (2.4.2), live regions that talk over the applicant
 * (4.1.3, TalkBack), controls that vanish in forced colours (1.4.11), motion with prefers-reduced-motion (2.3.3),
 * small targets (2.5.8), a profile save failure that disappears with its toast (3.3.1) and input purposes (1.3.5).
 */
import { test, expect, type Page } from '@playwright/test';
import { fillPersonalDetails, uniqueEmail } from './fixtures.ts';

/**
 * Focuses the control after `selector`, scrolls the page until `selector` is at the very top of the window (in view,
 * so the browser does not scroll to it, but where the sticky header is), then presses Shift+Tab; returns the focused
 * field's box and the header's bottom edge (px from the top of the window).
 */
async function shiftTabBackTo(page: Page, selector: string): Promise<{ focused: string; top: number; bottom: number; headerBottom: number }> {
  const field = page.locator(selector);
  await field.focus();
  await page.keyboard.press('Tab');
  await page.evaluate((sel) => { window.scrollBy(0, document.querySelector(sel)!.getBoundingClientRect().top); }, selector);
  expect(Math.round(await field.evaluate((el) => el.getBoundingClientRect().top))).toBe(0);
  await page.keyboard.press('Shift+Tab');
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const r = el.getBoundingClientRect();
    return { focused: `#${el.id}`, top: r.top, bottom: r.bottom, headerBottom: document.querySelector('header')!.getBoundingClientRect().bottom };
  });
}

test.describe('focus not obscured by the sticky header (WCAG 2.4.11)', () => {
  for (const size of [{ width: 360, height: 640 }, { width: 1280, height: 800 }, { width: 320, height: 256 }]) {
    test(`Shift+Tab to the password on /login at ${size.width}×${size.height} stops below the header`, async ({ page }) => {
      await page.setViewportSize(size);
      await page.goto('/login');
      await expect(page.locator('#login-password')).toBeEditable();
      // Room to scroll the password to the top (a short page does not scroll that far at 1280×800 otherwise).
      await page.evaluate(() => { document.body.style.paddingBottom = '200vh'; });
      const box = await shiftTabBackTo(page, '#login-password');
      expect(box.focused).toBe('#login-password');
      expect(box.top, `field at ${box.top}–${box.bottom} px, header ends at ${box.headerBottom} px`).toBeGreaterThanOrEqual(Math.max(0, box.headerBottom));
    });
  }
});

const PERSONAL = { dateOfBirth: '2001-04-12', nationality: 'za', addressLine1: '12 Church Street', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za' };

/** Registers a student through the API in the page's own cookie jar; returns the address. */
async function signUp(page: Page): Promise<string> {
  const email = uniqueEmail('a11y');
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Thandi', lastName: 'Mokoena', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true },
  });
  expect(res.status()).toBe(201);
  return email;
}

test('each step of the application wizard has its own page title (WCAG 2.4.2)', async ({ page }) => {
  await signUp(page);
  await page.goto('/apply/1');
  await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
  await expect(page).toHaveTitle(/^Personal Information – Step 1 of 5 – Apply \| \S/);
  const pageTitle = (await page.title()).replace('Personal Information – Step 1 of 5 – ', '');
  await fillPersonalDetails(page, PERSONAL);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Academic History' })).toBeFocused();
  await expect(page).toHaveTitle(`Academic History – Step 2 of 5 – ${pageTitle}`);
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page).toHaveTitle(`Personal Information – Step 1 of 5 – ${pageTitle}`);
});

test('each step of the full registration wizard has its own page title (WCAG 2.4.2)', async ({ page }) => {
  await page.goto('/register?mode=full');
  await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
  await expect(page).toHaveTitle(/^Personal Information – Step 1 of 5 – Register \| \S/);
  const pageTitle = (await page.title()).replace('Personal Information – Step 1 of 5 – ', '');
  await page.getByLabel('First Name').fill('Thandi');
  await page.getByLabel('Last Name').fill('Mokoena');
  await page.getByLabel('Email').fill(uniqueEmail('a11y-reg'));
  await page.getByLabel('Password', { exact: true }).fill('secret123');
  await page.getByLabel('Confirm Password').fill('secret123');
  await page.getByLabel('Phone').fill('0821234567');
  await page.getByLabel('Nationality').selectOption('za');
  await page.getByLabel('ID number', { exact: true }).fill('0104125800086');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Address' })).toBeFocused();
  await expect(page).toHaveTitle(`Address – Step 2 of 5 – ${pageTitle}`);
});
