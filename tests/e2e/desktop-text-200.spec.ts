/**
 * The site header and the admin layout on a laptop or desktop screen with text at 200 % (WCAG 1.4.4 resize text;
 * layout review, November 2026). With a page style html{font-size:200%} (Firefox's "Zoom text only"; media queries
 * in px or rem do not follow it) the header at 1280 px showed its desktop row, the main navigation, Portal Access and
 * Log in / Get Started (or the account menu), in 1760 px, so the whole page scrolled sideways; and the admin pages'
 * 13rem sidebar (416 px) left their content a 398 px column at 1024 px. Now the header shows its desktop row only
 * when its container is at least 80rem wide and otherwise the menu button and its drawer, and the admin sidebar
 * becomes the "Admin menu" below a 64rem container; rem follows the text however it is enlarged.
 * Checked at 1024, 1280 and 1440 px, with the page style and with the browser's font size (CDP Page.setFontSizes,
 * which media queries follow): no page scrolls sideways on /, /courses, /login, /dashboard/student (a student) and
 * /admin (the admin); the menu opens from the keyboard and every link in it is on the screen and reached with Tab.
 * At 100 % the sidebar is as before, from 1024 px, and the header's desktop row shows from 1248 px (78rem; it was
 * 80rem, which a 1280 px window with a classic scrollbar missed: desktop-fit.spec.ts).
 */
import { test, expect, type Page } from '@playwright/test';
import { largeText, type LargeTextMode } from './large-text.ts';
import { adminLogin } from './admin-seed.ts';
import { uniqueEmail } from './fixtures.ts';

type Mode = LargeTextMode;
const WIDTHS = [1024, 1280, 1440];

/** Registers a student through the API in the page's own cookie jar (the page is then signed in as them). */
async function signUpStudent(page: Page): Promise<void> {
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Thandi', lastName: 'Mokoena', email: uniqueEmail('desktop200'), password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true },
  });
  expect(res.status()).toBe(201);
}

/** How wide the page is against the window, and the elements that reach past its right edge (at most 5). */
function sideways(page: Page) {
  return page.evaluate(() => {
    const vw = innerWidth;
    const past = Array.from(document.querySelectorAll('body *')).filter((e) => {
      if (!e.getClientRects().length) return false;
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.right > vw + 0.5;
    }).slice(0, 5).map((e) => `${e.tagName.toLowerCase()}${e.getAttribute('aria-label') ? `[${e.getAttribute('aria-label')}]` : ''} "${(e.textContent ?? '').trim().slice(0, 30)}" to ${Math.round(e.getBoundingClientRect().right)}`);
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: vw, past };
  });
}

/**
 * Opens the header's menu from the keyboard (focus the button, Enter) and tabs through the drawer; returns the
 * names of the links and buttons reached with Tab, and those of the drawer that are hidden or off the screen.
 */
async function menuByKeyboard(page: Page): Promise<{ reached: string[]; offScreen: string[] }> {
  const button = page.locator('header[data-site-header] [data-drawer-button]');
  await expect(button, 'the menu button').toBeVisible();
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  const drawer = page.getByRole('navigation', { name: 'Mobile' });
  await expect(drawer).toBeVisible();
  const offScreen = await drawer.evaluate((nav) => Array.from(nav.querySelectorAll<HTMLElement>('a, button')).filter((el) => !el.closest('[hidden]')).filter((el) => {
    const r = el.getBoundingClientRect();
    return !el.getClientRects().length || r.left < -0.5 || r.right > innerWidth + 0.5;
  }).map((el) => el.textContent!.trim()));
  const count = await drawer.evaluate((nav) => Array.from(nav.querySelectorAll('a, button')).filter((el) => !el.closest('[hidden]')).length);
  const reached: string[] = [];
  for (let i = 0; i < count; i++) {
    await page.keyboard.press('Tab');
    const name = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el && el.closest('nav[aria-label="Mobile"]') ? (el.textContent ?? '').replace(/\s+/g, ' ').trim() : `(left the menu: ${el?.tagName})`;
    });
    reached.push(name);
  }
  return { reached, offScreen };
}

const SIGNED_OUT = ['Home', 'Courses', 'Assessment Centre', 'About', 'Contact', 'My Applications', 'Portal Access (opens in a new tab)', 'Log in', 'Register'];
const SIGNED_IN = ['Home', 'Courses', 'Assessment Centre', 'About', 'Contact', 'My Applications', 'Portal Access (opens in a new tab)', 'Dashboard', 'My Profile', 'Log out'];

const MODES = ['html font-size', 'browser font size'] as const;

test('public pages at 200 % text: no sideways scroll; the header\'s menu opens from the keyboard and reaches every link', async ({ page }) => {
  const problems: string[] = [];
  for (const mode of MODES) {
    const { afterLoad } = await largeText(page, mode);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      for (const path of ['/', '/courses', '/login']) {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        await afterLoad();
        const w = await sideways(page);
        if (w.scrollWidth > w.innerWidth) problems.push(`${mode}, ${width} px ${path}: the page is ${w.scrollWidth} px wide (${w.past.join('; ')})`);
      }
      expect(problems, problems.join('\n')).toEqual([]);
      const menu = await menuByKeyboard(page);
      expect(menu, `${mode}, ${width} px /login`).toEqual({ reached: SIGNED_OUT, offScreen: [] });
    }
  }
});

test('a student\'s dashboard at 200 % text: no sideways scroll; the menu names the person and reaches Dashboard, My Profile, Log out', async ({ page }) => {
  await signUpStudent(page);
  for (const mode of MODES) {
    const { afterLoad } = await largeText(page, mode);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/dashboard/student');
      await expect(page.getByRole('heading', { level: 1, name: /Welcome, Thandi/ })).toBeVisible();
      await page.waitForLoadState('networkidle');
      await afterLoad();
      const w = await sideways(page);
      expect(w.scrollWidth, `${mode}, ${width} px: the page is ${w.scrollWidth} px wide (${w.past.join('; ')})`).toBeLessThanOrEqual(w.innerWidth);
      const menu = await menuByKeyboard(page);
      expect(menu, `${mode}, ${width} px`).toEqual({ reached: SIGNED_IN, offScreen: [] });
      await expect(page.getByRole('navigation', { name: 'Mobile' }).getByText('Thandi Mokoena')).toBeVisible();
    }
  }
});

/** Which of the header's and the admin layout's parts show on /admin: 'main nav', 'menu button', 'admin menu button', 'sidebar'. */
function adminParts(page: Page): Promise<string> {
  return page.evaluate(() => {
    const shown = (sel: string) => Boolean(document.querySelector(sel)?.getClientRects().length);
    return [
      shown('nav[aria-label="Main"]') ? 'main nav' : '',
      shown('header[data-site-header] [data-drawer-button]') ? 'menu button' : '',
      shown('[data-admin-menu]') ? 'admin menu button' : '',
      getComputedStyle(document.querySelector('[data-admin-shell]')!).gridTemplateColumns.split(' ').length === 2 ? 'sidebar' : '',
    ].filter(Boolean).join(', ');
  });
}

test('the admin dashboard: at 100 % as before; at 200 % no sideways scroll, no card past its column, the admin menu opens and reaches every page', async ({ page }) => {
  await adminLogin(page.request);
  // 100 %: the header's desktop row from 1248 px (78rem), the admin sidebar from 1024 px, as with lg.
  const seen: Record<number, string> = {};
  for (const width of [768, 1023, 1024, 1247, 1248, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/admin');
    await expect(page.getByTestId('status-documents_required')).toBeVisible();
    seen[width] = await adminParts(page);
    const w = await sideways(page);
    expect(w.scrollWidth, `100 %, ${width} px`).toBeLessThanOrEqual(w.innerWidth);
  }
  expect(seen).toEqual({
    768: 'menu button, admin menu button', 1023: 'menu button, admin menu button', 1024: 'menu button, sidebar',
    1247: 'menu button, sidebar', 1248: 'main nav, sidebar', 1440: 'main nav, sidebar',
  });
  for (const mode of MODES) {
    const { afterLoad } = await largeText(page, mode);
    for (const width of WIDTHS) {
      const at = `${mode}, ${width} px`;
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/admin');
      await expect(page.getByTestId('status-documents_required')).toBeVisible();
      await page.waitForLoadState('networkidle');
      await afterLoad();
      const w = await sideways(page);
      expect(w.scrollWidth, `${at}: the page is ${w.scrollWidth} px wide (${w.past.join('; ')})`).toBeLessThanOrEqual(w.innerWidth);
      // Each card inside the content column, and the column at least 28rem (beside the sidebar it was 14rem at 1024 px).
      const column = await page.evaluate(() => {
        const col = document.querySelector('[data-admin-shell] > div')!;
        const c = col.getBoundingClientRect();
        const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
        const out = Array.from(col.querySelectorAll('.card')).map((el) => el.getBoundingClientRect()).filter((r) => r.width && (r.right > c.right + 0.5 || r.left < c.left - 0.5)).length;
        return { widthInRem: Math.floor(c.width / rem), cardsOutside: out };
      });
      expect(column.cardsOutside, at).toBe(0);
      expect(column.widthInRem, `${at}: the content column (rem)`).toBeGreaterThanOrEqual(28);
      expect(await adminParts(page), at).toBe('menu button, admin menu button');
      // The admin navigation is the "Admin menu" button; it opens from the keyboard and every link is on the screen.
      const button = page.locator('[data-admin-menu]');
      await button.focus();
      await page.keyboard.press('Enter');
      await expect(button).toHaveAttribute('aria-expanded', 'true');
      const nav = page.getByRole('navigation', { name: 'Admin' });
      await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeFocused();
      const links = nav.getByRole('link');
      expect(await links.count()).toBe(12);
      for (const link of await links.all()) {
        await expect(link).toBeInViewport();
        const box = (await link.boundingBox())!;
        expect(box.x + box.width, `${at}: ${await link.textContent()}`).toBeLessThanOrEqual(width + 0.5);
      }
      await page.keyboard.press('Tab');
      await expect(nav.getByRole('link', { name: 'Applications' })).toBeFocused();
    }
  }
});
