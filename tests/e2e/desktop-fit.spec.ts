/**
 * Desktop widths at 100 % (layout review, 2026-11-28):
 * 1. The header's desktop row showed from an 80rem header, and the header leaves out a classic scrollbar, so a 1280 px
 *    window with one (1265 px in Chromium) got the phone menu; now it shows from 78rem (1248 px). At that width, and at
 *    78rem with text at 200 % (2496 px), the row fits on one line: the college's name, every link and every button
 *    inside it, none over another, signed out and signed in with a long name. Just below, the menu button.
 * 2. The admin courses table scrolled sideways inside its region by up to 55 px at 1024–1080 px (it needs about
 *    50rem); now it fits there as a snug table, and from 1280 px it is as before.
 * 3. The admin announcements' 500 px box (spec §2) held four rows of 115 px at 100 %, and one card with text at 200 %.
 *    Rows are 77 px now (two-line preview, buttons on one line), and the box grows with the text size (31.25rem) up to
 *    the window less 8rem, so with text at 200 % it is taller and still wholly on screen.
 * Playwright's Chromium hides scrollbars (--hide-scrollbars); the first test drops that switch to get the classic
 * scrollbar most Windows and Linux desktops have.
 */
import fs from 'node:fs';
import { test, expect, type Page } from '@playwright/test';
import { largeText } from './large-text.ts';
import { adminLogin } from './admin-seed.ts';
import { uniqueEmail } from './fixtures.ts';

/** Which of the header's two navigations shows: the main navigation row ('desktop') or the menu button ('menu'). */
function headerNav(page: Page): Promise<string> {
  return page.evaluate(() => {
    const shown = (sel: string) => Boolean(document.querySelector(sel)?.getClientRects().length);
    return [shown('header[data-site-header] nav[aria-label="Main"]') ? 'desktop' : '', shown('header[data-site-header] [data-drawer-button]') ? 'menu' : ''].filter(Boolean).join(' + ');
  });
}

/**
 * How the header's row holds its items: the college's name, the main navigation's links and the visible buttons. Lists
 * the items outside the row's padding box, the pairs that overlap, the name's and each link's number of lines, and
 * the row's height in rem.
 */
function rowFit(page: Page) {
  return page.evaluate(() => {
    const row = document.querySelector('header[data-site-header] > div')!;
    const cs = getComputedStyle(row);
    const box = row.getBoundingClientRect();
    const left = box.left + parseFloat(cs.paddingLeft);
    const right = box.right - parseFloat(cs.paddingRight);
    const lineCount = (el: Element) => {
      const range = document.createRange(); range.selectNodeContents(el);
      return new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size;
    };
    const name = row.querySelector('a > span')!;
    const range = document.createRange(); range.selectNodeContents(name);
    const items: { label: string; r: DOMRect }[] = Array.from(range.getClientRects()).map((r) => ({ label: `name "${name.textContent}"`, r }));
    const links = Array.from(row.querySelectorAll<HTMLElement>('nav[aria-label="Main"] a'));
    for (const a of links) items.push({ label: a.textContent!.trim(), r: a.getBoundingClientRect() });
    for (const b of Array.from(row.querySelectorAll<HTMLElement>(':scope > div:last-child :is(a, button)'))) {
      if (b.getClientRects().length) items.push({ label: (b.getAttribute('aria-label') ?? b.textContent!).trim(), r: b.getBoundingClientRect() });
    }
    const outside = items.filter(({ r }) => r.left < left - 0.5 || r.right > right + 0.5).map(({ label, r }) => `${label} ${Math.round(r.left)}..${Math.round(r.right)} (row ${Math.round(left)}..${Math.round(right)})`);
    const overlaps: string[] = [];
    for (let i = 0; i < items.length; i++) for (let j = i + 1; j < items.length; j++) {
      const a = items[i].r; const b = items[j].r;
      if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) overlaps.push(`${items[i].label} / ${items[j].label}`);
    }
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
    return {
      outside, overlaps,
      nameLines: lineCount(name),
      linksOnTwoLines: links.filter((a) => lineCount(a) > 1).map((a) => a.textContent!.trim()),
      rowHeightRem: Math.round(box.height / rem),
    };
  });
}

const FITS = { outside: [], overlaps: [], nameLines: 1, linksOnTwoLines: [], rowHeightRem: 4 };

test('a 1280 px and a 1366 px window with a classic scrollbar get the desktop navigation, not the phone menu', async ({ playwright, baseURL }) => {
  const executablePath = ['/usr/bin/chromium', '/usr/lib/chromium/chromium'].find((p) => fs.existsSync(p));
  const browser = await playwright.chromium.launch({ ...(executablePath ? { executablePath } : {}), args: ['--no-sandbox', '--disable-gpu'], ignoreDefaultArgs: ['--hide-scrollbars'] });
  const page = await (await browser.newContext({ baseURL, serviceWorkers: 'block' })).newPage();
  const seen: Record<string, string> = {};
  for (const width of [1280, 1366]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/courses');
    await page.waitForLoadState('networkidle');
    const scrollbar = await page.evaluate(() => innerWidth - document.documentElement.clientWidth);
    expect(scrollbar, `${width} px: the page is taller than the window and its scrollbar takes room`).toBeGreaterThan(0);
    seen[width] = `${await headerNav(page)} (header ${await page.evaluate(() => document.querySelector('header[data-site-header]')!.clientWidth)} px)`;
  }
  expect(seen).toEqual({ 1280: expect.stringMatching(/^desktop \(header 126\d px\)$/), 1366: expect.stringMatching(/^desktop \(header 13[45]\d px\)$/) });
  await browser.close();
});

test('at 78rem, the desktop row\'s lowest width, its items fit on one line: 100 % and 200 % text, signed out and in', async ({ page }) => {
  const problems: string[] = [];
  const check = async (at: string, width: number, afterLoad: () => Promise<void>) => {
    await page.setViewportSize({ width: width - 1, height: 800 });
    await page.goto('/courses');
    await page.waitForLoadState('networkidle');
    await afterLoad();
    expect(await headerNav(page), `${at}, ${width - 1} px`).toBe('menu');
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/courses');
    await page.waitForLoadState('networkidle');
    await afterLoad();
    // The session has loaded (the account menu or Log in shows).
    await expect(page.locator('html[data-session]')).toHaveCount(1);
    expect(await headerNav(page), `${at}, ${width} px`).toBe('desktop');
    const fit = await rowFit(page);
    if (JSON.stringify(fit) !== JSON.stringify(FITS)) problems.push(`${at}, ${width} px: ${JSON.stringify(fit)}`);
  };
  for (const signedIn of [false, true]) {
    if (signedIn) {
      const res = await page.request.post('/api/auth/register', { data: { firstName: 'Nomvuyiseko-Precious', lastName: 'Ramaphosa-Mathebula', email: uniqueEmail('fit'), password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true } });
      expect(res.status()).toBe(201);
    }
    const who = signedIn ? 'signed in' : 'signed out';
    await check(`100 %, ${who}`, 1248, async () => {});
    const html = await largeText(page, 'html font-size');
    await check(`200 % (html font-size), ${who}`, 2496, html.afterLoad);
  }
  // The browser's font size applies to every later load in this page, so it comes last.
  await largeText(page, 'browser font size');
  await check('200 % (browser font size), signed in', 2496, async () => {});
  expect(problems, problems.join('\n')).toEqual([]);
});

/** The courses region's sideways overflow (px), whether its rows are table rows with headers, and buttons outside it. */
function coursesLayout(page: Page) {
  return page.getByRole('region', { name: 'All courses' }).evaluate((region) => {
    const r = region.getBoundingClientRect();
    const outside = Array.from(region.querySelectorAll<HTMLElement>('tbody button')).filter((b) => {
      const x = b.getBoundingClientRect();
      return x.left < r.left - 0.5 || x.right > r.right + 0.5;
    }).length;
    const th = region.querySelector('thead th')!.getBoundingClientRect();
    return {
      overflow: region.scrollWidth - region.clientWidth,
      table: getComputedStyle(region.querySelector('tbody tr')!).display === 'table-row' && th.width > 1,
      buttonsOutside: outside,
      cellSides: getComputedStyle(region.querySelector('tbody td')!).paddingLeft,
    };
  });
}

test('the admin courses table fits its region from 1024 px: no sideways scroll, still a table; from 1280 px as before', async ({ page }) => {
  await adminLogin(page.request);
  const seen: Record<string, string> = {};
  for (const path of ['/admin/courses', '/admin#courses']) {
    for (const width of [1024, 1040, 1060, 1080, 1280, 1440]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(path);
      await expect(page.getByTestId('course-row').first()).toBeVisible();
      const l = await coursesLayout(page);
      seen[`${path} ${width}`] = `overflow ${l.overflow} px, ${l.table ? 'table' : 'cards'}, ${l.buttonsOutside} buttons outside, cells' sides ${l.cellSides}`;
    }
  }
  const expected = (width: number) => `overflow 0 px, table, 0 buttons outside, cells' sides ${width >= 1280 ? '12px' : '8px'}`;
  expect(seen).toEqual(Object.fromEntries(Object.keys(seen).map((k) => [k, expected(Number(k.split(' ')[1]))])));
});

/**
 * With the announcements list's top just under the sticky header: whether the list scrolls inside itself, how much
 * of the window below the header it fills (px), that space, how many rows are wholly on the screen, and the tallest row.
 */
async function announcementsOnScreen(page: Page) {
  const region = page.getByTestId('announcements-table');
  await region.evaluate((el) => {
    const header = document.querySelector('header[data-site-header]')!.getBoundingClientRect().height;
    scrollTo(0, el.getBoundingClientRect().top + scrollY - header);
  });
  return region.evaluate((el) => {
    const header = document.querySelector('header[data-site-header]')!.getBoundingClientRect().bottom;
    const box = el.getBoundingClientRect();
    const top = Math.max(box.top, header); const bottom = Math.min(box.bottom, innerHeight);
    const rows = Array.from(el.querySelectorAll('[data-testid="announcement-row"]')).map((r) => r.getBoundingClientRect());
    return {
      scrollsInside: el.scrollHeight > el.clientHeight + 1,
      listOnScreen: Math.round(bottom - top),
      windowBelowHeader: Math.round(innerHeight - header),
      rowsOnScreen: rows.filter((r) => r.top >= top - 0.5 && r.bottom <= bottom + 0.5).length,
      tallestRow: Math.round(Math.max(...rows.map((r) => r.height))),
    };
  });
}

test('the admin announcements box is spec §2\'s 500 px at 100 %, shows five rows or more, and grows with text at 200 % but stays on screen', async ({ page }) => {
  await adminLogin(page.request);
  // More announcements than a 1280×800 window holds at 100 %.
  for (let i = 0; i < 10; i++) {
    const res = await page.request.post('/api/announcements', { data: { title: `Open day ${i + 1} at Siloam ${Date.now()}`, content: 'The campus is open to visitors from 09:00 to 14:00; bring your ID and your latest school report.', imageUrl: '', active: true } });
    expect(res.ok()).toBe(true);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/admin/announcements');
  await expect(page.getByTestId('announcement-row').nth(12)).toBeVisible();
  const at100 = await announcementsOnScreen(page);
  const height100 = Math.round((await page.getByTestId('announcements-table').boundingBox())!.height);
  // Spec §2's 500 px at normal text; it held 4 rows of 115 px.
  expect({ height100, rows: at100.rowsOnScreen >= 5 && at100.tallestRow <= 80, scrollsInside: at100.scrollsInside }, JSON.stringify(at100))
    .toEqual({ height100: 500, rows: true, scrollsInside: true });

  const { afterLoad } = await largeText(page, 'html font-size');
  await page.goto('/admin/announcements');
  await expect(page.getByTestId('announcement-row').first()).toBeVisible();
  await afterLoad();
  const at200 = await announcementsOnScreen(page);
  const height200 = Math.round((await page.getByTestId('announcements-table').boundingBox())!.height);
  // Taller than 500 px with bigger text, and wholly on screen below the header once scrolled to (the whole box can be seen).
  expect({ taller: height200 > 500, onScreen: at200.listOnScreen >= height200 - 1 }, `${height200} px; ${JSON.stringify(at200)}`).toEqual({ taller: true, onScreen: true });
});
