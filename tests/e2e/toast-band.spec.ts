/**
 * The toast region of /contact and /assessment-centre is fixed to the bottom of the window, 32 px high on a phone
 * even with no toast in it (its padding). A tap on a field behind that band focused the invisible region instead
 * (audit of cheap phones, November 2026); the empty region now lets taps through, and a toast still takes them.
 */
import { test, expect } from '@playwright/test';

for (const path of ['/contact', '/assessment-centre']) {
  test(`${path}: a tap on the e-mail field just above the bottom edge of a phone reaches the field`, async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 640 });
    await page.goto(path);
    const field = page.locator('main form [name=email]');
    // The field's middle 14 px above the bottom edge, inside the band.
    const at = await field.evaluate((el) => {
      const r = el.getBoundingClientRect();
      window.scrollBy(0, r.top + r.height / 2 - (innerHeight - 14));
      const s = el.getBoundingClientRect();
      return { x: s.left + 30, y: s.top + s.height / 2 };
    });
    expect(Math.round(at.y)).toBe(640 - 14);
    await page.mouse.click(at.x, at.y);
    await expect(field).toBeFocused();
  });
}
