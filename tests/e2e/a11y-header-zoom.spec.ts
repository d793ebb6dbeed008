/**
 * The header at 200 % text on a phone (WCAG 1.4.4 Resize Text; accessibility audit F6, November 2026): with
 * html{font-size:200%} at 360×740 and 412×740 the theme switch and the menu button stay 44×44 CSS px and cover no
 * part of "Vhembe Skills College" (the logo's text wraps instead), and at 100 % they are 44 px tall as before.
 */
import { test, expect, type Page } from '@playwright/test';

/** The header's visible buttons whose box meets one of the logo link's text line boxes, as "name l..r". */
async function buttonsOverLogo(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const header = document.querySelector('header')!;
    const logo = header.querySelector('a')!;
    const range = document.createRange(); range.selectNodeContents(logo);
    const lines = [...range.getClientRects()];
    return [...header.querySelectorAll('button')].map((b) => ({ b, r: b.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && lines.some((t) => t.right > r.left && t.left < r.right && t.bottom > r.top && t.top < r.bottom))
      .map(({ b, r }) => `${b.getAttribute('aria-label')} ${Math.round(r.left)}..${Math.round(r.right)}`);
  });
}

/** Width×height of the theme switch and the menu button. */
const sizes = (page: Page) => page.evaluate(() => ['[data-theme-toggle]', '[data-drawer-button]'].map((s) => {
  const r = document.querySelector(s)!.getBoundingClientRect(); return `${Math.round(r.width)}×${Math.round(r.height)}`;
}));

for (const width of [360, 412]) {
  test(`at ${width} px with 200 % text the header's buttons cover none of the college's name`, async ({ page }) => {
    await page.setViewportSize({ width, height: 740 });
    await page.goto('/login');
    await page.waitForLoadState('networkidle');
    await page.addStyleTag({ content: 'html{font-size:200% !important}' });
    await expect(page.locator('header a').first()).toContainText('Vhembe Skills College');
    expect(await buttonsOverLogo(page)).toEqual([]);
    expect(await sizes(page)).toEqual(['44×44', '44×44']);
    // Nothing pushes the page sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}

test('at 360 px with 100 % text the header is as before: one 64 px row, 44×44 buttons', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/login');
  await page.waitForLoadState('networkidle');
  expect(await buttonsOverLogo(page)).toEqual([]);
  expect(await sizes(page)).toEqual(['44×44', '44×44']);
  expect(await page.evaluate(() => Math.round(document.querySelector('header > div')!.getBoundingClientRect().height))).toBe(64);
});
