/**
 * The student dashboard's greeting with a name whose letters carry marks below (Tshivenḓa 'Ṱhalitshani'): on a
 * 360 px phone the heading wraps, and its line spacing leaves room for the dot below Ṱ before the next line
 * (usability audit, November 2026). Checked as the gap between the two lines' boxes, not a fixed number of pixels.
 */
import { test, expect } from '@playwright/test';
import { studentApplies } from './admin-seed.ts';

test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

test('phone 360 px › "Welcome, Ṱhalitshani" wraps with room below the marks: line height at least 1.3 × the text size', async ({ page }) => {
  await studentApplies(page.request, 1, 'Ṱhalitshani', 'Nemutanzhela');
  await page.goto('/dashboard/student');
  const h1 = page.getByRole('heading', { level: 1, name: 'Welcome, Ṱhalitshani' });
  await expect(h1).toBeVisible();
  const { lineHeight, fontSize } = await h1.evaluate((el) => {
    const cs = getComputedStyle(el);
    return { lineHeight: parseFloat(cs.lineHeight), fontSize: parseFloat(cs.fontSize) };
  });
  expect(lineHeight / fontSize, `line-height ${lineHeight}px for ${fontSize}px text`).toBeGreaterThanOrEqual(1.3);
});
