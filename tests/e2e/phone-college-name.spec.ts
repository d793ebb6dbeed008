/**
 * The college's name on a 320×568 phone with text at 200 % (WCAG 1.4.4 resize text, 1.4.10 reflow; layout review,
 * November 2026): the site header broke it inside a word, "Vhemb" / "e Skills College", because the logo's 28 px
 * picture and the two 44 px buttons left 140 px for a word 147 px wide and the name could break anywhere. Here the
 * name wraps between its words only, nothing is clipped or pushes the page sideways, and the header's buttons stay
 * 44×44 on the screen and open the menu, in the site header, the footer and the admin pages' own header ("VSC
 * Admin"). Text is enlarged both ways a reader's browser does it: the default font size (CDP Page.setFontSizes,
 * Chrome's "Font size"; media queries in rem follow it) and a page style html{font-size:200%} (text-only zoom; media
 * queries do not follow it). At 100 % the header is as before: the picture beside the name on one 64 px row.
 */
import { test, expect, type Page } from '@playwright/test';
import { largeText, type LargeTextMode } from './large-text.ts';
import { adminLogin } from './admin-seed.ts';

const NAMES = ['Vhembe Skills College', 'VSC Admin'];
type Mode = LargeTextMode;

/**
 * Every visible text that holds one of NAMES, and what is wrong with it: a word of the name on two lines (its
 * Range's line boxes' tops more than 2 px apart) or a line box of the name outside the screen. Also the number of
 * such texts, so a test can tell "none wrong" from "none found".
 */
function nameProblems(page: Page): Promise<{ found: string[]; problems: string[] }> {
  return page.evaluate((names) => {
    const found: string[] = [];
    const problems: string[] = [];
    const vw = document.documentElement.clientWidth;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
      const el = n.parentElement;
      if (!el || !el.getClientRects().length || getComputedStyle(el).visibility === 'hidden' || el.closest('.sr-only, [hidden], dialog:not([open]), noscript')) continue;
      for (const name of names) {
        const at = n.data.indexOf(name);
        if (at < 0) continue;
        const where = `${el.closest('header, footer, aside, main')?.tagName.toLowerCase() ?? 'body'} ${el.tagName.toLowerCase()} "${name}"`;
        found.push(where);
        const re = /\S+/g;
        for (let m = re.exec(name); m; m = re.exec(name)) {
          const range = document.createRange();
          range.setStart(n, at + m.index);
          range.setEnd(n, at + m.index + m[0].length);
          const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0);
          const tops = rects.map((r) => r.top);
          if (tops.length && Math.max(...tops) - Math.min(...tops) > 2) {
            problems.push(`${where}: "${m[0]}" split over ${rects.length} lines (${rects.map((r) => `${Math.round(r.left)}..${Math.round(r.right)}`).join(', ')})`);
          }
          for (const r of rects) if (r.left < -0.5 || r.right > vw + 0.5) problems.push(`${where}: "${m[0]}" at ${Math.round(r.left)}..${Math.round(r.right)}, off the ${vw} px screen`);
        }
      }
    }
    return { found, problems };
  }, NAMES);
}

/** The header's visible buttons: size, place, and whether one covers a line box of the logo link's text. */
function headerButtons(page: Page) {
  return page.evaluate(() => {
    const header = document.querySelector('header[data-site-header]')!;
    const range = document.createRange();
    range.selectNodeContents(header.querySelector('a')!);
    const lines = Array.from(range.getClientRects());
    return Array.from(header.querySelectorAll('button')).filter((b) => b.getClientRects().length).map((b) => {
      const r = b.getBoundingClientRect();
      const overName = lines.some((t) => t.right > r.left && t.left < r.right && t.bottom > r.top && t.top < r.bottom);
      return `${b.getAttribute('aria-label')} ${Math.round(r.width)}×${Math.round(r.height)}${r.left < 0 || r.right > innerWidth ? ' off screen' : ''}${overName ? ' over the name' : ''}`;
    });
  });
}

const pageWidth = (page: Page) => page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth }));

for (const mode of ['browser font size', 'html font-size'] as const) {
  test.describe(`320×568 phone, text at 200 % (${mode})`, () => {
    test.use({ viewport: { width: 320, height: 568 }, hasTouch: true, isMobile: true });

    test('the college\'s name wraps between words in the header and the footer; the header\'s buttons work', async ({ page }) => {
      const { afterLoad } = await largeText(page, mode);
      for (const path of ['/', '/login', '/courses']) {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        await afterLoad();
        const { found, problems } = await nameProblems(page);
        expect(found.filter((f) => f.startsWith('header')), `${path}: the name in the header`).toHaveLength(1);
        expect(found.filter((f) => f.startsWith('footer')).length, `${path}: the name in the footer`).toBeGreaterThanOrEqual(2);
        expect(problems, `${path}:\n${problems.join('\n')}`).toEqual([]);
        expect(await pageWidth(page), path).toEqual({ scrollWidth: 320, innerWidth: 320 });
        expect(await headerButtons(page), path).toEqual(['Switch to dark theme 44×44', 'Open menu 44×44']);
      }
      // The menu still opens and its links are on the screen.
      await page.getByRole('button', { name: 'Open menu' }).click();
      const register = page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Register' });
      await expect(register).toBeVisible();
      const box = (await register.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(320);
      expect(await pageWidth(page)).toEqual({ scrollWidth: 320, innerWidth: 320 });
    });

    test('an admin page: the site header, the admin header "VSC Admin" and the footer keep their words whole', async ({ page }) => {
      await adminLogin(page.request);
      const { afterLoad } = await largeText(page, mode);
      await page.goto('/dashboard/admin');
      await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
      await page.waitForLoadState('networkidle');
      await afterLoad();
      const { found, problems } = await nameProblems(page);
      expect(found.filter((f) => f.startsWith('aside')), 'the admin header').toHaveLength(1);
      expect(found.filter((f) => f.startsWith('header')), 'the site header').toHaveLength(1);
      expect(problems, problems.join('\n')).toEqual([]);
      expect(await pageWidth(page)).toEqual({ scrollWidth: 320, innerWidth: 320 });
      expect(await headerButtons(page)).toEqual(['Switch to dark theme 44×44', 'Open menu 44×44']);
    });
  });
}

test('320 and 412 px with 100 % text: the header is as before, the picture beside the name on one 64 px row', async ({ page }) => {
  // The name on two lines at 320 px ("Vhembe Skills" / "College") and on one at 412 px, as before the change.
  for (const [width, lines] of [[320, 2], [412, 1]]) {
    await page.setViewportSize({ width, height: 568 });
    await page.goto('/login');
    await page.waitForLoadState('networkidle');
    const row = await page.evaluate(() => {
      const link = document.querySelector('header[data-site-header] a')!;
      const svg = link.querySelector('svg')!.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(link.querySelector('span')!);
      const boxes = Array.from(range.getClientRects());
      return {
        picture: `${Math.round(svg.left)} ${Math.round(svg.width)}×${Math.round(svg.height)}`,
        lines: boxes.length,
        nameStartsAt: Math.round(boxes[0].left),
        height: Math.round(document.querySelector('header[data-site-header] > div')!.getBoundingClientRect().height),
      };
    });
    expect(row, `${width} px`).toEqual({ picture: '16 28×28', lines, nameStartsAt: 52, height: 64 });
    expect((await nameProblems(page)).problems).toEqual([]);
    expect(await headerButtons(page)).toEqual(['Switch to dark theme 44×44', 'Open menu 44×44']);
  }
});

/**
 * Below 640 px the home link filled the header's empty space (flex-1, the size container of the picture's rule), so a
 * tap just left of the theme and menu buttons went home (review, 2026-11-28). The space is now filled by a wrapper,
 * the size container, and the link ends at its words: at 412 and 600 px, where the name is on one line, nothing
 * right of the name is the link (a name that wraps, at 320 and 360 px, keeps the width of its box, as any wrapped text).
 */
test('412 and 600 px with 100 % text: the home link ends at its words; the space before the buttons is not the link', async ({ page }) => {
  for (const width of [412, 600]) {
    await page.setViewportSize({ width, height: 568 });
    await page.goto('/courses');
    await page.waitForLoadState('networkidle');
    const hit = await page.evaluate(() => {
      const header = document.querySelector('header[data-site-header]')!;
      const link = header.querySelector('a[href="/"]')!;
      const range = document.createRange();
      range.selectNodeContents(link.querySelector('span')!);
      const words = Array.from(range.getClientRects());
      const wordsEnd = Math.max(...words.map((r) => r.right));
      const button = Array.from(header.querySelectorAll('button')).find((b) => b.getClientRects().length)!.getBoundingClientRect();
      const y = button.top + button.height / 2;
      const isLink = (x: number) => !!document.elementFromPoint(x, y)?.closest('header a[href="/"]');
      return {
        lines: words.length,
        pastWords: Math.round(link.getBoundingClientRect().right - wordsEnd),
        [`8 px before the first button is the link`]: isLink(button.left - 8),
        [`midway between the name and the first button is the link`]: isLink((wordsEnd + button.left) / 2),
      };
    });
    expect(hit, `${width} px`).toEqual({ lines: 1, pastWords: 0, '8 px before the first button is the link': false, 'midway between the name and the first button is the link': false });
  }
});
