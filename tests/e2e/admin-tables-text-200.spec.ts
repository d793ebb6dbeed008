/**
 * The admin courses and announcements tables on a laptop or desktop screen with text at 200 % (WCAG 1.4.4 resize text,
 * 1.4.10 reflow; layout review, November 2026). With a page style html{font-size:200%} (Firefox's "Zoom text only";
 * media queries in px or rem do not follow it) both stayed tables from 1024 px, in a region 29–42rem wide, and
 * scrolled sideways inside it with Edit, Deactivate and Delete off to the right. Now a table whose region is narrower
 * than 44rem shows its rows as the cards a phone gets (a container query in rem, which follows the text however it
 * is enlarged): nothing scrolls sideways and every row's buttons are inside the region. With the browser's font size
 * (CDP Page.setFontSizes, which media queries follow) they were cards already, and still are.
 * At 100 % both are tables with their column headers at 1024, 1280 and 1440 px, as before.
 */
import { test, expect, type Page } from '@playwright/test';
import { largeText } from './large-text.ts';
import { adminLogin } from './admin-seed.ts';

const WIDTHS = [1024, 1280, 1440];
const MODES = ['html font-size', 'browser font size'] as const;
const TABLES = [
  { path: '/admin/courses', region: 'All courses', row: 'course-row' },
  { path: '/admin/announcements', region: 'Announcements table', row: 'announcement-row' },
  { path: '/admin#courses', region: 'All courses', row: 'course-row' },
];

/**
 * The region `name`'s layout: how many px its content reaches past it sideways, whether its rows are cards (not
 * table rows), whether its column headers show, the row buttons reaching past its left or right edge, and how many
 * px the page itself is wider than the window.
 */
function layout(page: Page, name: string) {
  return page.getByRole('region', { name }).evaluate((region) => {
    const r = region.getBoundingClientRect();
    const outside = Array.from(region.querySelectorAll<HTMLElement>('tbody button')).filter((b) => {
      const x = b.getBoundingClientRect();
      return x.left < r.left - 0.5 || x.right > r.right + 0.5;
    }).map((b) => `${b.getAttribute('aria-label')} to ${Math.round(b.getBoundingClientRect().right)} (region ${Math.round(r.left)}–${Math.round(r.right)})`);
    const th = region.querySelector('thead th')!.getBoundingClientRect();
    return {
      overflow: region.scrollWidth - region.clientWidth,
      cards: getComputedStyle(region.querySelector('tbody tr')!).display !== 'table-row',
      headers: th.width > 1 && th.height > 1,
      outside: outside.slice(0, 3),
      pageOverflow: document.documentElement.scrollWidth - innerWidth,
    };
  });
}

test.beforeEach(async ({ page }) => {
  await adminLogin(page.request);
  const res = await page.request.post('/api/announcements', { data: { title: `Registration week ${Date.now()}`, content: 'Registration for the 2027 intake opens on Monday at 08:00 on every campus.', imageUrl: '', active: true } });
  expect(res.ok()).toBe(true);
});

test('at 100 % from 1024 px the course and announcement lists are tables with their column headers, as before', async ({ page }) => {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    for (const t of TABLES) {
      await page.goto(t.path);
      await expect(page.getByTestId(t.row).first()).toBeVisible();
      const l = await layout(page, t.region);
      expect({ cards: l.cards, headers: l.headers, pageOverflow: l.pageOverflow }, `100 %, ${width} px ${t.path}`).toEqual({ cards: false, headers: true, pageOverflow: 0 });
    }
  }
});

test('at 200 % text from 1024 to 1440 px the course and announcement lists are cards: no sideways scroll, every row\'s buttons in view', async ({ page }) => {
  for (const mode of MODES) {
    const { afterLoad } = await largeText(page, mode);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      for (const t of TABLES) {
        const at = `${mode}, ${width} px ${t.path}`;
        await page.goto(t.path);
        await expect(page.getByTestId(t.row).first()).toBeVisible();
        await afterLoad();
        const l = await layout(page, t.region);
        expect(l.outside, `${at}: buttons outside the region`).toEqual([]);
        expect(l.overflow, `${at}: the region scrolls sideways by ${l.overflow} px`).toBeLessThanOrEqual(0);
        expect(l.pageOverflow, `${at}: the page scrolls sideways`).toBeLessThanOrEqual(0);
        expect(l.cards, `${at}: rows as cards`).toBe(true);
      }
    }
  }
});

/**
 * Every card label's text width (the `data-label` drawn by ::before, in its own font) and the width its column gives
 * it, for the labelled cells in `region`: a label wider than its column breaks inside the word.
 */
function cardLabels(page: Page, name: string) {
  return page.getByRole('region', { name }).evaluate((region) => {
    const ctx = document.createElement('canvas').getContext('2d')!;
    return Array.from(region.querySelectorAll<HTMLElement>('tbody [data-label]')).map((el) => {
      const cs = getComputedStyle(el, '::before');
      ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      return { label: el.dataset.label!, text: Math.ceil(ctx.measureText(el.dataset.label!).width), column: parseFloat(cs.width) };
    });
  });
}

test('on phones the course cards\' labels fit their column: "Department" is not broken into "Departmen/t"', async ({ page }) => {
  for (const width of [360, 390, 412]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/admin/courses');
    await expect(page.getByTestId('course-row').first()).toBeVisible();
    const labels = await cardLabels(page, 'All courses');
    expect(labels.map((l) => l.label)).toContain('Department');
    const broken = labels.filter((l) => l.text > l.column).map((l) => `${l.label}: ${l.text} px of text in ${l.column} px`);
    expect([...new Set(broken)], `${width} px`).toEqual([]);
  }
});
