/**
 * /apply/1 with the phone's text at 200 % (WCAG 1.4.4, 1.4.10; audit of cheap phones, November 2026): the row of
 * Previous and Next did not wrap, so the page was 443 px wide on a 360 px phone and Next sat off the screen.
 */
import { test, expect } from '@playwright/test';
import { uniqueEmail } from './fixtures.ts';

test('/apply/1 at 200 % text on a 360 px phone: the page does not scroll sideways and Next is on the screen', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 640 });
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Thandi', lastName: 'Mokoena', email: uniqueEmail('large-text'), password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true },
  });
  expect(res.status()).toBe(201);
  await page.goto('/apply/1');
  await expect(page.getByRole('heading', { name: 'Personal Information' })).toBeVisible();
  await page.addStyleTag({ content: 'html{font-size:200% !important}' });
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  expect(scrollWidth, `page ${scrollWidth} px wide in ${clientWidth}`).toBeLessThanOrEqual(clientWidth);
  const next = await page.getByRole('button', { name: 'Next' }).boundingBox();
  expect(next!.x + next!.width).toBeLessThanOrEqual(clientWidth);
});
