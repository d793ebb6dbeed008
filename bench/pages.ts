/**
 * Public page budget report (issue #3 Budgets): for every public page, gzipped JavaScript (on load, and
 * after the first interaction with a form, which loads its validation lazily), total transferred bytes
 * (gzipped text + raw binaries), third-party requests, Lighthouse mobile scores (median of N runs, default
 * 3: performance, accessibility, best practices, SEO) and axe-core WCAG 2.2 AA violations in the light and
 * dark theme. Starts the production server itself on BENCH_PORT (default 4421) on a temporary DATA_DIR,
 * like tests/e2e/serve.ts.
 *
 *   node bench/pages.ts                  # all pages, 3 Lighthouse runs each
 *   BENCH_LH_RUNS=1 BENCH_PAGES=/,/about node bench/pages.ts
 *
 * Exit code 1 when a budget is missed: JS > 10 KB (no React island) / > 80 KB (island pages), any axe
 * violation, any third-party request, or Lighthouse below perf 95 / a11y 100 / best practices 95 / SEO 100
 * on the four target pages (home, /courses, a course page, /about).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Page, type Response } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { startServer } from '../api/src/server.ts';

const PORT = Number(process.env.BENCH_PORT ?? 4421);
const BASE = `http://127.0.0.1:${PORT}`;
const LH_RUNS = Number(process.env.BENCH_LH_RUNS ?? 3);
const CHROME = ['/usr/bin/chromium', '/usr/lib/chromium/chromium'].find((p) => fs.existsSync(p));
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const LH_TARGETS = new Set(['/', '/courses', '/courses/1', '/about']);

const ALL_PAGES = ['/', '/courses', '/courses/1', '/courses/99999', '/about', '/contact', '/assessment-centre', '/terms', '/privacy', '/no-such-page'];
/** Pages answered with status 404 by design: Lighthouse refuses to score non-2xx documents. */
const NOT_FOUND = new Set(['/courses/99999', '/no-such-page']);
const PAGES = process.env.BENCH_PAGES ? process.env.BENCH_PAGES.split(',') : ALL_PAGES;

interface Row {
  page: string; jsKb: number; jsAfterKb: number; totalKb: number; thirdParty: number; island: boolean;
  axeLight: number; axeDark: number; axeIds: string[];
  lh?: { performance: number; accessibility: number; 'best-practices': number; seo: number };
}

const gz = (b: Buffer) => zlib.gzipSync(b).length;
const kb = (n: number) => Math.round(n / 102.4) / 10;
const lhMisses = new Set<string>();
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

async function weigh(page: Page, url: string): Promise<Omit<Row, 'axeLight' | 'axeDark' | 'axeIds' | 'lh' | 'page'>> {
  const seen = new Map<string, { js: boolean; bytes: number }>();
  let thirdParty = 0;
  const onResponse = async (r: Response) => {
    const u = new URL(r.url());
    if (u.origin !== BASE) { thirdParty++; return; }
    try {
      const body = await r.body();
      const type = r.request().resourceType();
      const text = /text|javascript|json|svg|xml|css/.test(r.headers()['content-type'] ?? '');
      seen.set(r.url(), { js: type === 'script', bytes: text ? gz(body) : body.length });
    } catch { /* redirects have no body */ }
  };
  page.on('response', onResponse);
  page.on('request', (r) => { if (!r.url().startsWith(BASE) && !r.url().startsWith('data:')) thirdParty++; });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.waitForLoadState('networkidle');
  const sum = (js: boolean) => [...seen.values()].filter((v) => !js || v.js).reduce((a, v) => a + v.bytes, 0);
  const jsBefore = sum(true);
  const island = await page.locator('astro-island').count() > 0;
  const field = page.locator('main form input:not([type=hidden]), main form select, main form textarea').first();
  if (await field.count()) { await field.focus(); await page.waitForTimeout(300); await page.waitForLoadState('networkidle'); }
  const jsAfter = sum(true);
  page.off('response', onResponse);
  return { jsKb: kb(jsBefore), jsAfterKb: kb(jsAfter), totalKb: kb(sum(false)), thirdParty, island };
}

async function axe(page: Page, url: string, theme: 'light' | 'dark'): Promise<string[]> {
  await page.addInitScript((t) => localStorage.setItem('theme', t), theme);
  await page.goto(url, { waitUntil: 'networkidle' });
  const r = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  return r.violations.map((v) => `${v.id}(${v.nodes.length})`);
}

async function lighthouseScores(url: string): Promise<Row['lh']> {
  const runs: NonNullable<Row['lh']>[] = [];
  for (let i = 0; i < LH_RUNS; i++) {
    const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: CHROME_FLAGS });
    try {
      const result = await lighthouse(url, { port: chrome.port, logLevel: 'error', output: 'json', onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] });
      const c = result!.lhr.categories;
      for (const cat of Object.values(c)) for (const ref of (cat as any).auditRefs) {
        const a = result!.lhr.audits[ref.id];
        if (ref.weight > 0 && a.score !== null && a.score < 1) lhMisses.add(`${new URL(url).pathname}: ${ref.id}`);
      }
      runs.push({ performance: Math.round((c.performance.score ?? 0) * 100), accessibility: Math.round((c.accessibility.score ?? 0) * 100),
        'best-practices': Math.round((c['best-practices'].score ?? 0) * 100), seo: Math.round((c.seo.score ?? 0) * 100) });
    } finally { chrome.kill(); }
  }
  return { performance: median(runs.map((r) => r.performance)), accessibility: median(runs.map((r) => r.accessibility)),
    'best-practices': median(runs.map((r) => r['best-practices'])), seo: median(runs.map((r) => r.seo)) };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'college-bench-pages-'));
  const env = { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, PORT: String(PORT), HOST: '127.0.0.1', PUBLIC_URL: BASE,
    SESSION_SECRET: 'bench-session-secret-0123456789abcdef', SITE_BUILD: 'always', LOGIN_RATE_LIMIT: '1000', MAIL_FROM: '"Vhembe Skills College Admissions" <admissions@vhembe.ac.za>' };
  delete (env as any).DATABASE_URL;
  console.info(`[bench:pages] building the site and starting the server on ${BASE} …`);
  const server = await startServer(env, { waitForSite: true });
  const browser = await chromium.launch({ ...(CHROME ? { executablePath: CHROME } : {}), args: CHROME_FLAGS.filter((f) => !f.startsWith('--headless')) });
  const rows: Row[] = [];
  try {
    for (const p of PAGES) {
      const ctx = await browser.newContext({ viewport: { width: 412, height: 823 } });
      const w = await weigh(await ctx.newPage(), BASE + p);
      await ctx.close();
      const light = await browser.newContext().then(async (c) => { const r = await axe(await c.newPage(), BASE + p, 'light'); await c.close(); return r; });
      const dark = await browser.newContext().then(async (c) => { const r = await axe(await c.newPage(), BASE + p, 'dark'); await c.close(); return r; });
      const row: Row = { page: p, ...w, axeLight: light.length, axeDark: dark.length, axeIds: [...new Set([...light, ...dark])] };
      if (LH_RUNS > 0 && !NOT_FOUND.has(p)) row.lh = await lighthouseScores(BASE + p);
      rows.push(row);
      console.info(`[bench:pages] ${p} done`);
    }
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const failures: string[] = [];
  const head = ['page', 'JS gz KB', 'JS after input', 'total KB', '3rd-party', 'axe light', 'axe dark', 'LH perf', 'a11y', 'best pr.', 'SEO'];
  const table = rows.map((r) => {
    const budget = r.island ? 80 : 10;
    if (r.jsKb > budget) failures.push(`${r.page}: ${r.jsKb} KB JS on load > ${budget} KB`);
    if (r.thirdParty) failures.push(`${r.page}: ${r.thirdParty} third-party requests`);
    if (r.axeLight || r.axeDark) failures.push(`${r.page}: axe ${r.axeIds.join(', ')}`);
    if (r.lh && LH_TARGETS.has(r.page)) {
      const l = r.lh;
      if (l.performance < 95 || l.accessibility < 100 || l['best-practices'] < 95 || l.seo < 100) failures.push(`${r.page}: Lighthouse ${JSON.stringify(l)}`);
    }
    return [r.page + (r.island ? ' (island)' : ''), r.jsKb, r.jsAfterKb, r.totalKb, r.thirdParty, r.axeLight, r.axeDark,
      r.lh?.performance ?? 'n/a', r.lh?.accessibility ?? 'n/a', r.lh?.['best-practices'] ?? 'n/a', r.lh?.seo ?? 'n/a'].map(String);
  });
  const widths = head.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`\nPublic pages — Lighthouse mobile median of ${LH_RUNS}; JS = gzipped bytes of scripts loaded; n/a = served 404 by design; budgets 10 KB (no island) / 80 KB (island)\n`);
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  table.forEach((r) => console.log(line(r)));
  if (lhMisses.size) console.log(`\nLighthouse audits below 1 (weighted): ${[...lhMisses].join('; ')}`);
  console.log(failures.length ? `\nBudget misses:\n  ${failures.join('\n  ')}` : '\nAll page budgets met.');
  process.exitCode = failures.length ? 1 : 0;
}

await main();
