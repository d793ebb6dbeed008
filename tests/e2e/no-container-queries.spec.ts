/**
 * Browsers without container queries (Chrome < 105, Samsung Internet < 20, Safari < 16) on a desktop (review,
 * 2026-11-28): the header's desktop row and the admin sidebar follow size containers (@min-[80rem]/header,
 * @min-[64rem]/admin), which such a browser skips, so it always got the header's menu button and the "Admin menu".
 * The site's CSS now has an `@supports not (container-type: inline-size)` block with the old viewport breakpoints,
 * xl (1280 px) for the header and lg (1024 px) for the admin shell. Here the CSS is read as such a browser reads it:
 * every `@container` rule dropped, and that `@supports not` condition true.
 */
import { expect, test, type Page } from '@playwright/test';
import { adminLogin } from './admin-seed.ts';

const FALLBACK = /@supports\s+not\s*\(\s*container-type\s*:\s*inline-size\s*\)/;

/** `css` without its `@container … { … }` rules (braces matched), and with FALLBACK's condition made true. */
function withoutContainerQueries(css: string): string {
  let out = '';
  let i = 0;
  for (let at = css.indexOf('@container', i); at >= 0; at = css.indexOf('@container', i)) {
    out += css.slice(i, at);
    let depth = 0;
    let j = css.indexOf('{', at);
    for (; j < css.length; j++) {
      if (css[j] === '{') depth++;
      else if (css[j] === '}' && --depth === 0) break;
    }
    i = j + 1;
  }
  return (out + css.slice(i)).replace(new RegExp(FALLBACK.source, 'g'), '@supports (display: block)');
}

/** Serves the site's stylesheets to `page` as a browser without container queries reads them; returns the CSS seen. */
async function oldBrowserCss(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.route(/\/_astro\/.*\.css$/, async (route) => {
    const css = await (await route.fetch()).text();
    seen.push(css);
    await route.fulfill({ status: 200, contentType: 'text/css', body: withoutContainerQueries(css) });
  });
  return seen;
}

/** Whether the first element `selector` finds is displayed (its computed display is not none). */
const shownAt = (page: Page, selector: string) => page.locator(selector).first().evaluate((el) => getComputedStyle(el).display !== 'none');

test('without container queries, a 1280 px desktop gets the header\'s desktop row and 1279 px the menu button, as with xl', async ({ page }) => {
  const css = await oldBrowserCss(page);
  const shown: Record<number, { nav: boolean; menuButton: boolean; drawer: boolean }> = {};
  for (const width of [1280, 1279]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/courses');
    await page.waitForLoadState('networkidle');
    shown[width] = { nav: await shownAt(page, 'nav[aria-label="Main"]'), menuButton: await shownAt(page, '[data-drawer-button]'), drawer: await shownAt(page, '[data-drawer]') };
  }
  expect(css.some((c) => FALLBACK.test(c)), 'the site CSS has an @supports not (container-type: inline-size) block').toBe(true);
  expect(shown).toEqual({ 1280: { nav: true, menuButton: false, drawer: false }, 1279: { nav: false, menuButton: true, drawer: false } });
});

test('without container queries, a 1024 px admin page gets the sidebar and 1023 px the Admin menu, as with lg', async ({ page }) => {
  await adminLogin(page.request);
  await oldBrowserCss(page);
  const shown: Record<number, { sidebar: boolean; adminMenu: boolean; columns: number }> = {};
  for (const width of [1024, 1023]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/dashboard/admin');
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    shown[width] = {
      sidebar: await shownAt(page, '#admin-nav'), adminMenu: await shownAt(page, '[data-admin-menu]'),
      columns: await page.locator('[data-admin-shell]').evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length),
    };
  }
  expect(shown).toEqual({ 1024: { sidebar: true, adminMenu: false, columns: 2 }, 1023: { sidebar: false, adminMenu: true, columns: 1 } });
});
