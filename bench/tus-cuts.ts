/**
 * Uploads on a bad network (issue #16 point 5): starts the production server (BENCH_PORT, default 4426, temporary
 * DATA_DIR, site built), then in Chromium, each page throttled with CDP (250 kbps down, 100 kbps up, 400 ms):
 * - 20 wizard uploads (BENCH_TUS_N) of a 400 KB PDF (BENCH_TUS_KB), BENCH_TUS_PARALLEL (4) at a time, each with
 *   1–3 cuts of 1–8 s at random moments (seeded, BENCH_SEED); an upload counts as finished when the slot shows
 *   the file within 6 minutes with nobody touching the page. Target: at least 19 of 20;
 * - one 3 MB PDF with two cuts: bytes sent (every PATCH body in full, cut ones included) against the file size.
 * Prints the figures and writes bench/out/tus-cuts.json. Exit code 1 when fewer than 19 of 20 finish.
 *
 *   node bench/tus-cuts.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { startServer } from '../api/src/server.ts';
import { cut, openDocumentsStep, pdfOf, throttle, tusMeter } from '../tests/e2e/slow-network.ts';

const PORT = Number(process.env.BENCH_PORT ?? 4426);
const BASE = `http://127.0.0.1:${PORT}`;
const N = Number(process.env.BENCH_TUS_N ?? 20);
const KB = Number(process.env.BENCH_TUS_KB ?? 400);
const PARALLEL = Number(process.env.BENCH_TUS_PARALLEL ?? 4);
const CHROME = ['/usr/bin/chromium', '/usr/lib/chromium/chromium'].find((p) => fs.existsSync(p));

let seed = Number(process.env.BENCH_SEED ?? 16);
const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Result { ok: boolean; cuts: number; seconds: number; sent: number; size: number; creations: number; error?: string }

async function one(browser: Browser, size: number, cutsAt: { at: number; ms: number }[], limitMs: number): Promise<Result> {
  const context = await browser.newContext({ baseURL: BASE, serviceWorkers: 'block' });
  const page = await context.newPage();
  const t0 = Date.now();
  try {
    await openDocumentsStep(page);
    const meter = tusMeter(page, size);
    const cdp = await throttle(page);
    await page.locator('#f-documents-idDocument').setInputFiles({ name: 'id-document.pdf', mimeType: 'application/pdf', buffer: pdfOf(size) });
    const start = Date.now();
    const cutter = (async () => { for (const c of cutsAt) { await sleep(Math.max(0, start + c.at - Date.now())); await cut(cdp, c.ms); } })();
    let ok = true;
    try { await page.getByTestId('file-idDocument').waitFor({ state: 'visible', timeout: limitMs }); } catch { ok = false; }
    await cutter.catch(() => {});
    return { ok, cuts: cutsAt.length, seconds: (Date.now() - t0) / 1000, sent: meter.sent(), size, creations: meter.creations() };
  } catch (e) {
    if (process.env.BENCH_DEBUG) await page.screenshot({ path: `/tmp/tus-bench-fail-${Date.now()}.png` }).catch(() => {});
    return { ok: false, cuts: cutsAt.length, seconds: (Date.now() - t0) / 1000, sent: 0, size, creations: 0, error: String(e).slice(0, 200) };
  } finally { await context.close(); }
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'college-bench-tus-'));
const server = await startServer({ ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, PORT: String(PORT), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${PORT}`,
  SESSION_SECRET: 'bench-session-secret-0123456789abcdef', SITE_BUILD: 'always', DATABASE_URL: '', MAIL_FROM: '"Vhembe Skills College Admissions" <admissions@vhembe.ac.za>' }, { waitForSite: true });
const browser = await chromium.launch({ ...(CHROME ? { executablePath: CHROME } : {}), args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'] });
try {
  // Upload time at 100 kbps (12.5 KB/s) plus round trips; cuts fall inside it.
  const estimateMs = (KB * 1024 / 12_500) * 1000;
  const plan = Array.from({ length: N }, () => Array.from({ length: 1 + Math.floor(rand() * 3) }, () => ({ at: 2000 + rand() * estimateMs, ms: 1000 + rand() * 7000 })).sort((a, b) => a.at - b.at));
  const big = one(browser, 3 * 1024 * 1024, [{ at: 60_000, ms: 4000 }, { at: 150_000, ms: 4000 }], 10 * 60_000);
  const results: Result[] = [];
  for (let i = 0; i < plan.length; i += PARALLEL) {
    results.push(...await Promise.all(plan.slice(i, i + PARALLEL).map((cuts) => one(browser, KB * 1024, cuts, 6 * 60_000))));
    console.info(`  ${results.length}/${N} done, ${results.filter((r) => r.ok).length} finished`);
  }
  const b = await big;
  const finished = results.filter((r) => r.ok).length;
  const ratios = results.filter((r) => r.ok).map((r) => r.sent / r.size);
  const summary = {
    uploads: N, finished, fileBytes: KB * 1024, cutsTotal: results.reduce((n, r) => n + r.cuts, 0),
    restarts: results.filter((r) => r.creations > 1).length,
    bytesSentRatio: { max: Math.max(...ratios), mean: ratios.reduce((a, x) => a + x, 0) / (ratios.length || 1) },
    secondsMedian: results.map((r) => r.seconds).sort((a, c) => a - c)[Math.floor(results.length / 2)],
    threeMb: { ok: b.ok, fileBytes: b.size, bytesSent: b.sent, ratio: b.sent / b.size, seconds: b.seconds, creations: b.creations },
    failures: results.filter((r) => !r.ok).map((r) => r.error ?? 'timed out'),
  };
  console.info(JSON.stringify(summary, null, 2));
  fs.mkdirSync(path.join(import.meta.dirname, 'out'), { recursive: true });
  fs.writeFileSync(path.join(import.meta.dirname, 'out', 'tus-cuts.json'), JSON.stringify(summary, null, 2));
  process.exitCode = finished >= Math.ceil(N * 0.95) ? 0 : 1;
} finally {
  await browser.close();
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
