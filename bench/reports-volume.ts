/**
 * Reports tab at a college's volume (performance audit item 1), in Chromium at ×4 CPU: the time from navigation
 * to the first and to the seventh chart, the long tasks (> 50 ms: count, > 200 ms, largest) and the table rows and
 * SVG nodes on the page once every chart is drawn. The reports answer is replaced (page.route) by one of 300
 * courses and 199 weeks, as the audit's seed gives (the API answers it in ~110 ms and is not measured here).
 * Figures only, no pass/fail. Usage: a running production server with the e2e admin, e.g.
 *   E2E_PORT=4417 npx node tests/e2e/serve.ts &   then   BASE=http://127.0.0.1:4417 npx node bench/reports-volume.ts
 * Env: BASE (default http://127.0.0.1:4417), CPU (throttling rate, 4), RUNS (3).
 */
import { chromium } from '@playwright/test';
import type { Reports } from '#contracts/reports.ts';

const BASE = process.env.BASE ?? 'http://127.0.0.1:4417';
const CPU = Number(process.env.CPU ?? 4);
const RUNS = Number(process.env.RUNS ?? 3);
const ADMIN = { email: process.env.ADMIN_EMAIL ?? 'admin@college.example', password: process.env.ADMIN_PASSWORD ?? 'Admin-pass-2026' };

/** A reports answer of 300 courses in 8 departments and 199 Monday weeks (the audit's volume). */
function volumeReports(): Reports {
  const week = (i: number) => new Date(Date.UTC(2023, 0, 2 + 7 * i)).toISOString().slice(0, 10);
  return {
    byStatus: ['pending', 'under_review', 'documents_required', 'accepted', 'rejected'].map((status, i) => ({ status, label: status, count: 20_000 - i })),
    byCourse: Array.from({ length: 300 }, (_, i) => ({ courseId: i + 1, title: `Course ${i + 1}`, department: `Department ${i % 8}`, count: 1000 - i, eligible: 500, notEligible: 400 - i, unknown: 100 })),
    byDepartment: Array.from({ length: 8 }, (_, i) => ({ department: `Department ${i}`, count: 12_500 })),
    perWeek: Array.from({ length: 199 }, (_, i) => ({ week: week(i), count: 300 + (i * 37) % 400 })),
    acceptanceOverTime: Array.from({ length: 199 }, (_, i) => ({ week: week(i), accepted: 100 + (i % 50), total: 500, rate: 20 + (i % 50) })),
    feesPerWeek: Array.from({ length: 199 }, (_, i) => ({ week: week(i), fees: `${12_000 + i * 10}.00` })),
    feesCollected: '2487500.00',
  };
}

const body = JSON.stringify(volumeReports());
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: BASE, serviceWorkers: 'block' });
const login = await ctx.request.post('/api/auth/login', { headers: { origin: BASE }, data: ADMIN });
if (!login.ok()) throw new Error(`login answered ${login.status()}`);
await ctx.addInitScript(() => {
  (window as unknown as { __lt: number[] }).__lt = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) (window as unknown as { __lt: number[] }).__lt.push(Math.round(e.duration)); }).observe({ type: 'longtask', buffered: true });
});
await ctx.route('**/api/admin/reports', (route) => route.fulfill({ contentType: 'application/json', body }));
for (let i = 0; i < RUNS; i++) {
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
  const t0 = Date.now();
  await page.goto('/admin#reports', { waitUntil: 'commit' });
  await page.locator('.recharts-surface').first().waitFor({ timeout: 120_000 });
  const firstChart = Date.now() - t0;
  await page.locator('.recharts-surface').nth(6).waitFor({ timeout: 120_000 });
  const allCharts = Date.now() - t0;
  await page.waitForTimeout(1000); // let the last chart's tasks finish before reading the long-task list
  const m = await page.evaluate(() => ({
    lt: (window as unknown as { __lt: number[] }).__lt,
    rows: document.querySelectorAll('tbody tr').length,
    svg: document.querySelectorAll('.recharts-surface *').length,
  }));
  console.log(JSON.stringify({ run: i + 1, cpu: CPU, firstChartMs: firstChart, allChartsMs: allCharts, longTasks: m.lt.length, over200: m.lt.filter((x) => x > 200).length, maxLongTaskMs: Math.max(0, ...m.lt), tableRows: m.rows, svgNodes: m.svg }));
  await page.close();
}
await browser.close();
