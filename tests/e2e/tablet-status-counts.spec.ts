/**
 * The admin dashboard's "Applications by status" on a tablet (layout review, November 2026): from 640 px the list
 * was three columns whatever the text size, each a badge and its count in a wrapping row. With text at 200 % as a
 * page style (html{font-size:200%}, text-only zoom: the 640 px breakpoint does not follow it) a column was 191 px at
 * 768 px, so "Documents Required" broke onto two lines inside its badge and the count went to a line of its own; at
 * 100 % a two-digit count did the same at 640 px. Now a column is at least 13.5rem, room for the longest badge and a
 * four-digit count, and there are as many columns as fit, three at most: each badge is on one line with its count
 * beside it, at 768, 820, 900, 1000, 1023 and 1024 px, at 100 % and 200 % text (both ways of enlarging it), no page
 * scrolls sideways ('Manage courses' ran past a 1024 px screen at
 * the page style), and at 100 % a tablet keeps its three columns. Counts are 1234 (the stats response is rewritten),
 * the widest likely.
 */
import { test, expect, type Page } from '@playwright/test';
import { APPLICATION_STATUSES } from '../../api/contracts/statuses.ts';
import { adminLogin } from './admin-seed.ts';
import { largeText } from './large-text.ts';

type Mode = '100 %' | '200 %, browser font size' | '200 %, html font-size';

/** Opens /dashboard/admin at `width`×1024 with the text in `mode` and every status count 1234. */
async function openDashboard(page: Page, width: number, mode: Mode): Promise<void> {
  await page.setViewportSize({ width, height: 1024 });
  await page.route('**/api/admin/stats', async (route) => {
    const response = await route.fetch();
    const json = await response.json();
    json.totals.byStatus = Object.fromEntries(APPLICATION_STATUSES.map((s) => [s, 1234]));
    await route.fulfill({ response, json });
  });
  const text = mode === '100 %' ? null : await largeText(page, mode === '200 %, browser font size' ? 'browser font size' : 'html font-size');
  await page.goto('/dashboard/admin');
  await expect(page.getByTestId('status-documents_required')).toHaveText('1234');
  await text?.afterLoad();
}

/**
 * Each status row whose badge's label is on more than one line, or whose count is not beside the badge (its
 * middle outside the badge's height), or which runs past its row; and the list's number of columns.
 */
function statusRows(page: Page) {
  return page.evaluate(() => {
    const list = document.querySelector('section[aria-labelledby="by-status"] ul')!;
    const problems: string[] = [];
    for (const li of Array.from(list.children) as HTMLElement[]) {
      const badge = li.querySelector<HTMLElement>('[data-status]')!;
      const count = li.querySelector('a')!;
      const range = document.createRange();
      range.selectNodeContents(badge);
      const tops = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      const b = badge.getBoundingClientRect();
      const c = count.getBoundingClientRect();
      const row = li.getBoundingClientRect();
      const middle = (c.top + c.bottom) / 2;
      const name = `${badge.dataset.status} (row ${Math.round(row.width)} px, badge ${Math.round(b.width)} px)`;
      if (tops.size > 1) problems.push(`${name}: the badge's label on ${tops.size} lines`);
      if (middle < b.top || middle > b.bottom) problems.push(`${name}: the count on a line of its own`);
      if (Math.max(b.right, c.right) > row.right + 0.5) problems.push(`${name}: runs ${Math.round(Math.max(b.right, c.right) - row.right)} px past its row`);
    }
    return { columns: getComputedStyle(list).gridTemplateColumns.split(' ').length, problems };
  });
}

const pageWidth = (page: Page) => page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth }));

for (const mode of ['100 %', '200 %, browser font size', '200 %, html font-size'] as const) {
  test(`tablet, text at ${mode}: each status badge on one line with its count beside it, and no sideways scroll`, async ({ page }) => {
    await adminLogin(page.request);
    const problems: string[] = [];
    const columns: Record<number, number> = {};
    for (const width of [768, 820, 900, 1000, 1023, 1024]) {
      await openDashboard(page, width, mode);
      const rows = await statusRows(page);
      columns[width] = rows.columns;
      // At 1024 px with a 200 % page style the admin sidebar (13rem, 416 px) left the card a 398 px column, where a
      // four-digit count went below "Documents Required"; the sidebar is now the Admin menu there (AdminLayout).
      problems.push(...rows.problems.map((p) => `${width} px: ${p}`));
      const w = await pageWidth(page);
      if (w.scrollWidth > w.innerWidth) problems.push(`${width} px: the page is ${w.scrollWidth} px wide`);
      await page.unrouteAll();
    }
    expect(problems, problems.join('\n')).toEqual([]);
    // At 100 % a tablet keeps its three columns.
    if (mode === '100 %') expect(columns).toEqual({ 768: 3, 820: 3, 900: 3, 1000: 3, 1023: 3, 1024: 3 });
  });
}

test('phone and desktop at 100 %: one column below 640 px as before, two where three columns of 13.5rem do not fit, three on a desktop', async ({ page }) => {
  await adminLogin(page.request);
  const columns: Record<number, number> = {};
  for (const width of [360, 639, 700, 1280]) {
    await openDashboard(page, width, '100 %');
    const rows = await statusRows(page);
    columns[width] = rows.columns;
    expect(rows.problems, `${width} px`).toEqual([]);
    await page.unrouteAll();
  }
  expect(columns).toEqual({ 360: 1, 639: 1, 700: 2, 1280: 3 });
});
