/**
 * Data budget (issue #17, DESIGN §6 Data budget): bytes as the browser counts them — Chromium's encoded
 * (on-the-wire, compressed, headers included) length per response from the DevTools protocol
 * (`Network.loadingFinished.encodedDataLength`), plus what the offline service worker fetches on its own (Playwright
 * reports those requests on the context, with their encoded sizes). Starts the production server on a temporary DATA_DIR like
 * tests/e2e/serve.ts (BENCH_PORT, default 4431) and reports, in KB (1 KB = 1024 bytes):
 *
 * 1. the applicant journey on a fresh cache: home → catalogue → course → log in → dashboard → the five wizard
 *    steps (with real uploads) → My Applications, per leg and in all (budget ≤ 150 KB);
 * 2. a second public page on a warm cache (home first, then each other public page; budget ≤ 8 KB), with the bytes
 *    of each response in `warmDetail`;
 * 3. the first HTML response of every public page (budget ≤ 14 KB: one TCP round trip of 10 segments);
 * 4. JavaScript per island page (/login, /register, /apply, /dashboard/student, /my-applications; ≤ 40 KB);
 * 5. Lighthouse mobile performance of those pages (median of BENCH_LH_RUNS, default 1; ≥ 95), signed in
 *    where the page needs it (the session and signed-in hint cookies, set in the browser before the run).
 *
 *   node bench/data-budget.ts            # everything
 *   BENCH_LH_RUNS=0 node bench/data-budget.ts   # bytes only
 *   BENCH_VIA=h2 node bench/data-budget.ts      # as from a production deployment: TLS + HTTP/2 through HAProxy
 *
 * By default the browser talks HTTP/1.1 straight to the node (what `npm start` serves). With BENCH_VIA=h2 the node
 * listens on BENCH_PORT and HAProxy terminates TLS with `alpn h2,http/1.1` on BENCH_PORT + 1 (bench/tls-proxy.ts,
 * a throw-away self-signed certificate; PUBLIC_URL is that https origin, TRUST_PROXY=loopback so the node sees
 * X-Forwarded-Proto https and sends secure cookies and HSTS as in production). Chromium trusts the certificate through
 * `--ignore-certificate-errors-spki-list` (see bench/tls-proxy.ts: with `--ignore-certificate-errors` instead the
 * service worker registers but nothing is kept in the HTTP cache). The bench checks that every counted response came
 * over h2 (CDP `response.protocol`) with a secure connection, and that the worker controls the warm pages.
 *
 * Every response row also carries its response-header bytes (`hdr`): the status line and headers as sent for
 * HTTP/1.1 (`Network.responseReceivedExtraInfo` headersText), the bytes received up to the headers for h2
 * (`response.encodedDataLength` at `Network.responseReceived`: the HPACK-compressed HEADERS frame); for the service
 * worker's own fetches over h2, encoded bytes minus Content-Length (so its DATA frame headers, 9 bytes each, count as
 * headers). Journey totals are in `journey.headerBytes`. Not counted in either mode: TCP/IP, TLS records and
 * handshakes (the certificate chain, once per connection; `journey.connections` says how many the page used).
 *
 * Writes bench/out/data-budget.json (bench/out/data-budget-h2.json with BENCH_VIA=h2); exit code 1 when a budget is
 * missed, or with BENCH_VIA=h2 when a response came over another protocol.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { startServer } from '../api/src/server.ts';
import { ROOT } from './lib.ts';
import { startTlsProxy } from './tls-proxy.ts';
import { fillCard, fillHighSchool, fillPersonalDetails } from '../tests/e2e/fixtures.ts';

const PORT = Number(process.env.BENCH_PORT ?? 4431);
const VIA = process.env.BENCH_VIA === 'h2' ? 'h2' : 'http/1.1';
if (process.env.BENCH_VIA && process.env.BENCH_VIA !== 'h2') throw new Error(`BENCH_VIA=${process.env.BENCH_VIA}: only h2 (or unset, HTTP/1.1 straight to the node)`);
/** The node itself (the bench's own API calls go here); what the browser opens is BASE. */
const NODE = `http://127.0.0.1:${PORT}`;
const BASE = VIA === 'h2' ? `https://127.0.0.1:${PORT + 1}` : NODE;
const LH_RUNS = Number(process.env.BENCH_LH_RUNS ?? 1);
const CHROME = ['/usr/bin/chromium', '/usr/lib/chromium/chromium'].find((p) => fs.existsSync(p));
/** Chromium's switches; with BENCH_VIA=h2, main() adds the one that trusts the proxy's certificate. */
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const PUBLIC = ['/', '/courses', '/courses/1', '/about', '/contact', '/assessment-centre', '/terms', '/privacy'];
const ISLAND_PAGES = ['/login', '/register', '/apply/1', '/dashboard/student', '/my-applications'];
const BUDGET = { journey: 150, warm: 8, html: 14, js: 40, lh: 95 };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const kb = (n: number) => Math.round(n / 102.4) / 10;

/**
 * One counted response: path (query kept), resource type ('SW' for the service worker's own fetches), encoded bytes
 * (headers included), of which response-header bytes `hdr` (see the module comment), and the protocol it came over.
 */
interface Counted { url: string; type: string; bytes: number; hdr: number; protocol: string }
/** Responses with bytes on the wire in the whole run, by protocol (CDP `response.protocol`; Playwright's for the worker's fetches). */
const PROTOCOLS_SEEN: Record<string, number> = {};
interface Meter { total(): number; js(): number; doc(): number; headers(): number; detail(): Counted[]; protocols(): Record<string, number>; connections(): number; reset(): void }

/**
 * Counts encoded bytes of every finished response of `page` (CDP), split into all / scripts / documents / response
 * headers, with the per-response list, the responses per protocol (since the last reset) and the distinct connections
 * the page used since the meter started (CDP connectionId; not reset).
 */
async function meter(page: Page): Promise<Meter> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const types = new Map<string, string>();
  const viaWorker = new Set<string>();
  const urls = new Map<string, string>();
  const protos = new Map<string, string>();
  const headerText = new Map<string, number>();
  const headerSoFar = new Map<string, number>();
  let all = 0, js = 0, doc = 0, hdrs = 0, rows: Counted[] = [];
  const conns = new Set<string>();
  const path = (u: string) => { try { const x = new URL(u); return x.pathname + x.search; } catch { return u.slice(0, 60); } };
  cdp.on('Network.responseReceivedExtraInfo', (e: any) => { if (typeof e.headersText === 'string') headerText.set(e.requestId, e.headersText.length); });
  cdp.on('Network.responseReceived', (e: any) => {
    types.set(e.requestId, e.type); urls.set(e.requestId, e.response.url); if (e.response.fromServiceWorker) viaWorker.add(e.requestId);
    // An h2 response on a connection Chromium does not call secure would not be cached like a real site's: counted apart.
    protos.set(e.requestId, (e.response.protocol ?? '?') + (BASE.startsWith('https:') && e.response.securityState !== 'secure' ? ' (insecure)' : ''));
    headerSoFar.set(e.requestId, e.response.encodedDataLength ?? 0);
    if (!e.response.fromServiceWorker && e.response.connectionId) conns.add(String(e.response.connectionId));
  });
  // Once the offline service worker controls the page, the page's requests go through it: the worker fetches on
  // its own target (or answers from its cache), and only those network fetches are bytes on the wire. They are
  // counted here (precache and runtime cache alike); the page's side of such a response is not counted again.
  page.context().on('requestfinished', async (r) => {
    if (!r.serviceWorker()) return;
    const z = await r.sizes().catch(() => null);
    if (!z) return;
    const res = await r.response().catch(() => null);
    const bytes = z.responseBodySize + z.responseHeadersSize;
    const protocol = ((await res?.httpVersion().catch(() => '')) ?? '').replace('HTTP/2.0', 'h2').toLowerCase() || '?';
    // HTTP/1.1: the headers text (Playwright's size, from responseReceivedExtraInfo). h2 (Playwright says 0): all of a
    // 304, else the encoded bytes minus the body's Content-Length (0 if it has none). Nothing for a cache hit (0 bytes).
    const len = Number(res?.headers()['content-length'] ?? NaN);
    const hdr = bytes === 0 ? 0 : protocol !== 'h2' ? Math.min(bytes, z.responseHeadersSize)
      : res?.status() === 304 ? bytes : Number.isFinite(len) ? Math.max(0, Math.min(bytes, bytes - len)) : 0;
    all += bytes; hdrs += hdr;
    if (bytes > 0) PROTOCOLS_SEEN[protocol] = (PROTOCOLS_SEEN[protocol] ?? 0) + 1;
    rows.push({ url: path(r.url()), type: 'SW', bytes, hdr, protocol });
    if (/\/_astro\/[^/]+\.js$/.test(new URL(r.url()).pathname)) js += z.responseBodySize + z.responseHeadersSize;
  });
  cdp.on('Network.loadingFinished', (e: any) => {
    if (viaWorker.has(e.requestId)) return;
    all += e.encodedDataLength;
    const t = types.get(e.requestId);
    const protocol = protos.get(e.requestId) ?? '?';
    const hdr = Math.min(e.encodedDataLength, (protocol === 'h2' ? headerSoFar.get(e.requestId) : headerText.get(e.requestId)) ?? 0);
    hdrs += hdr;
    if (e.encodedDataLength > 0) PROTOCOLS_SEEN[protocol] = (PROTOCOLS_SEEN[protocol] ?? 0) + 1;
    rows.push({ url: path(urls.get(e.requestId) ?? ''), type: t ?? '?', bytes: e.encodedDataLength, hdr, protocol });
    if (t === 'Script') js += e.encodedDataLength;
    if (t === 'Document' && doc === 0) doc = e.encodedDataLength;
  });
  const protocols = () => { const n: Record<string, number> = {}; for (const r of rows) if (r.bytes > 0) n[r.protocol] = (n[r.protocol] ?? 0) + 1; return n; };
  return { total: () => all, js: () => js, doc: () => doc, headers: () => hdrs, detail: () => rows, protocols, connections: () => conns.size,
    reset: () => { all = 0; js = 0; doc = 0; hdrs = 0; rows = []; } };
}

async function settle(page: Page) { await page.waitForLoadState('networkidle'); }

async function api(pathname: string, body: unknown, cookie = ''): Promise<{ status: number; cookie: string; body: any }> {
  // Straight to the node (with BENCH_VIA=h2 too: Node's fetch would refuse the self-signed certificate); not measured.
  const res = await fetch(NODE + pathname, { method: 'POST', headers: { 'content-type': 'application/json', origin: BASE, ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
  // Every cookie the answer sets: the session and the `college.signed_in` hint, without which an account page
  // sends the browser to /login before it loads its island (and the page would be measured as the login page).
  const set = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
  return { status: res.status, cookie: set.length ? set.join('; ') : cookie, body: await res.json().catch(() => null) };
}

/** What the journey cost beyond its legs' KB: response-header bytes per leg and in all, responses per protocol, connections the page opened. */
interface JourneyWire { headerBytes: Record<string, number>; protocols: Record<string, number>; connections: number }

/**
 * The journey; returns KB per leg and fills `journeyDetail` with each leg's responses and `wire` with header bytes,
 * protocols and connections. Throws (with the leg) if the UI could not be driven.
 */
async function journey(browser: Browser, email: string, password: string, journeyDetail: Record<string, Counted[]>, wire: JourneyWire): Promise<Record<string, number>> {
  const ctx = await browser.newContext({ viewport: { width: 412, height: 823 } });
  const page = await ctx.newPage();
  const m = await meter(page);
  const legs: Record<string, number> = {};
  const leg = async (name: string, fn: () => Promise<void>) => {
    m.reset(); await fn(); await settle(page);
    legs[name] = kb(m.total()); journeyDetail[name] = m.detail(); wire.headerBytes[name] = m.headers();
    for (const [p, n] of Object.entries(m.protocols())) wire.protocols[p] = (wire.protocols[p] ?? 0) + n;
    wire.connections = m.connections();
  };
  try {
    await leg('home', async () => { await page.goto(BASE + '/'); });
    await leg('catalogue', async () => { await page.goto(BASE + '/courses'); });
    await leg('course', async () => { await page.goto(BASE + '/courses/1'); });
    await leg('log in + dashboard', async () => {
      await page.goto(BASE + '/login');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: /^Log in$/i }).click();
      await page.waitForURL(/\/dashboard\/student$/);
    });
    await leg('five steps', async () => {
      await page.goto(BASE + '/apply/1');
      await page.getByRole('heading', { name: 'Personal Information' }).waitFor();
      await fillPersonalDetails(page, { dateOfBirth: '2002-09-30', nationality: 'za', addressLine1: '4 Mvusuludzo Street', city: 'Makhado', state: 'Limpopo', postalCode: '0920', country: 'za' });
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('heading', { name: 'Academic History' }).waitFor();
      await fillHighSchool(page, { name: 'Makhado Secondary', city: 'Makhado', country: 'South Africa', from: '2016', to: '2020', qualification: 'National Senior Certificate', grade: '68%' });
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('heading', { name: 'Supporting Documents' }).waitFor();
      await page.locator('#f-documents-idDocument').setInputFiles({ name: 'id.pdf', mimeType: 'application/pdf', buffer: PDF });
      await page.getByTestId('file-idDocument').getByText('id.pdf').waitFor();
      await page.locator('#f-documents-transcripts').setInputFiles({ name: 'results.png', mimeType: 'image/png', buffer: PNG });
      await page.getByTestId('file-transcripts').getByText('results.png').waitFor();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('heading', { name: 'Payment' }).waitFor();
      await fillCard(page, { name: 'L Ndlovu', number: '5555 5555 5555 4444', expiry: '10/29', cvc: '321' });
      await page.locator('#f-payment-paymentTerms').check();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('heading', { name: 'Review & Submit' }).waitFor();
      await page.locator('#f-certification').check();
      await page.getByRole('button', { name: 'Submit Application' }).click();
      await page.waitForURL(/\/dashboard\/student$/);
    });
    await leg('My Applications', async () => { await page.goto(BASE + '/my-applications'); await page.getByRole('tab').first().waitFor(); });
  } finally { await ctx.close(); }
  return legs;
}

/**
 * Warm cache on a phone (412 px, like the journey): home first, until the offline service worker controls it (a
 * person reads the home page for longer than its install takes; without this wait, whether the worker's install
 * fetches fell into the second page's count depended on timing, ±4 KB between runs), then `p`. KB of the second
 * page only, and what it was made of (bytes per response).
 */
async function warm(browser: Browser, p: string): Promise<{ kb: number; detail: Counted[]; swControls: boolean }> {
  const ctx = await browser.newContext({ viewport: { width: 412, height: 823 } });
  const page = await ctx.newPage();
  const m = await meter(page);
  await page.goto(BASE + '/'); await settle(page);
  await page.waitForFunction(() => Boolean(navigator.serviceWorker?.controller), null, { timeout: 15_000 }).catch(() => {});
  m.reset();
  await page.goto(BASE + p); await settle(page);
  // Whether the offline worker controls the second page (with a self-signed certificate it registers only with --ignore-certificate-errors).
  const swControls = await page.evaluate(() => Boolean(navigator.serviceWorker?.controller));
  const r = { kb: kb(m.total()), detail: m.detail(), swControls };
  await ctx.close();
  return r;
}

/** First HTML response and JS of `p` on a fresh cache, optionally signed in, with the JavaScript files loaded (bytes each). */
async function fresh(browser: Browser, p: string, cookie?: string): Promise<{ html: number; js: number; jsDetail: Counted[] }> {
  const ctx: BrowserContext = await browser.newContext();
  if (cookie) await ctx.addCookies(cookie.split('; ').map((c) => { const i = c.indexOf('='); return { name: c.slice(0, i), value: c.slice(i + 1), url: BASE }; }));
  const page = await ctx.newPage();
  const m = await meter(page);
  await page.goto(BASE + p); await settle(page);
  if (cookie && new URL(page.url()).pathname !== new URL(BASE + p).pathname) throw new Error(`${p}: signed in, but the page went to ${page.url()}`);
  const jsDetail = m.detail().filter((d) => /\/_astro\/[^/]+\.js$/.test(d.url.split('?')[0]) && d.bytes > 0).sort((a, b) => b.bytes - a.bytes);
  const r = { html: kb(m.doc()), js: kb(m.js()), jsDetail };
  await ctx.close();
  return r;
}

/**
 * Lighthouse mobile performance of `url`, median of LH_RUNS. Signed in, the session and hint cookies are set in the
 * browser itself before the run (a Cookie request header alone left `document.cookie` without the hint, so the page
 * sent Lighthouse to /login and the score was the login page's); storage is not reset, so the cookies stay, and the
 * profile is new each run, so the cache is still cold. Throws if the audited page ended anywhere else.
 *
 * A run Lighthouse reports as failed (`runtimeError`, which scores 0) is logged and run again, at most twice per page.
 * Returns the median score, every run's score, and the median run's total blocking time, largest contentful paint
 * (ms) and Lighthouse's `benchmarkIndex` of the host CPU: scores move with the host, so the index says which machine
 * measured them.
 */
async function lighthousePerf(url: string, cookie?: string): Promise<{ perf: number; runs: number[]; tbtMs: number; lcpMs: number; benchmarkIndex: number }> {
  const runs: { perf: number; tbtMs: number; lcpMs: number; benchmarkIndex: number }[] = [];
  for (let i = 0, failed = 0; i < LH_RUNS; i++) {
    const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: CHROME_FLAGS });
    try {
      if (cookie) {
        const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
        await cdp.contexts()[0]!.addCookies(cookie.split('; ').map((c) => { const j = c.indexOf('='); return { name: c.slice(0, j), value: c.slice(j + 1), url: BASE }; }));
        await cdp.close();
      }
      const r = await lighthouse(url, { port: chrome.port, logLevel: 'error', output: 'json', onlyCategories: ['performance'], disableStorageReset: true });
      const lhr = r!.lhr;
      // A run Lighthouse could not finish scores 0 without saying why (audit: runs 91 · 90 · 0): say why and run again.
      if (lhr.runtimeError && failed < 2) { console.warn(`[bench:data-budget] Lighthouse run on ${url} failed (${lhr.runtimeError.code}: ${lhr.runtimeError.message}); running it again`); failed++; i--; continue; }
      const ended = new URL(lhr.finalDisplayedUrl).pathname;
      if (ended !== new URL(url).pathname) throw new Error(`Lighthouse on ${url} ended on ${ended}`);
      runs.push({
        perf: Math.round((lhr.categories.performance.score ?? 0) * 100),
        tbtMs: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? NaN),
        lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? NaN),
        benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
      });
    } finally { chrome.kill(); }
  }
  const sorted = [...runs].sort((a, b) => a.perf - b.perf);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return { ...median, runs: runs.map((r) => r.perf) };
}

/**
 * Waits (up to 2 min) until the server's background Brotli copies of the live build are written
 * (api/src/site-build/precompress.ts): their number under DATA_DIR/site/builds stops growing for 10 s. (3 s was too
 * short on a loaded 2-core machine: the bench once measured with 33 of 132 copies written, journey 214.4 KB instead of
 * 204.9.) A person arriving seconds after a publish gets pages compressed on the fly; the budget is about the steady state.
 */
async function brotliCopiesDone(dataDir: string): Promise<void> {
  const count = () => { try { return fs.readdirSync(path.join(dataDir, 'site', 'builds'), { recursive: true }).filter((f) => String(f).endsWith('.br')).length; } catch { return 0; } };
  let last = -1, stable = 0;
  for (const started = Date.now(); Date.now() - started < 120_000 && stable < 20; await new Promise((r) => setTimeout(r, 500))) {
    const n = count();
    stable = n > 0 && n === last ? stable + 1 : 0;
    last = n;
  }
  console.info(`[bench:data-budget] ${last} Brotli copies in the live build`);
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'college-bench-budget-'));
  const env = { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, PORT: String(PORT), HOST: '127.0.0.1', PUBLIC_URL: BASE,
    SESSION_SECRET: 'bench-session-secret-0123456789abcdef', SITE_BUILD: 'always', LOGIN_RATE_LIMIT: '1000', MAIL_FROM: '"Vhembe Skills College Admissions" <admissions@vhembe.ac.za>',
    ...(VIA === 'h2' ? { TRUST_PROXY: 'loopback' } : {}) };
  delete (env as any).DATABASE_URL;
  console.info(`[bench:data-budget] building the site and starting the server on ${NODE}${VIA === 'h2' ? `, HAProxy (TLS, h2) on ${BASE}` : ''} …`);
  const server = await startServer(env, { waitForSite: true });
  let proxy: Awaited<ReturnType<typeof startTlsProxy>> | undefined;
  let browser: Browser | undefined;
  const failures: string[] = [];
  const out: any = { date: new Date().toISOString(), via: VIA, base: BASE };
  try {
    if (VIA === 'h2') {
      proxy = await startTlsProxy({ port: PORT + 1, nodePort: PORT, dir: fs.mkdtempSync(path.join(dataDir, 'tls-')) });
      CHROME_FLAGS.push(proxy.chromiumFlag);
    }
    await brotliCopiesDone(dataDir);
    browser = await chromium.launch({ ...(CHROME ? { executablePath: CHROME } : {}), args: CHROME_FLAGS.filter((f) => !f.startsWith('--headless')) });
    const password = 'budget-pass-1';
    const person = { firstName: 'Lerato', lastName: 'Ndlovu', password, confirmPassword: password, phone: '0831234567', terms: true };
    const journeyEmail = `budget.${Date.now()}@example.com`;
    if ((await api('/api/auth/register', { ...person, email: journeyEmail })).status !== 201) throw new Error('register failed');
    try {
      const detail: Record<string, Counted[]> = {};
      const wire: JourneyWire = { headerBytes: {}, protocols: {}, connections: 0 };
      const legs = await journey(browser, journeyEmail, password, detail, wire);
      const total = Math.round(Object.values(legs).reduce((a, b) => a + b, 0) * 10) / 10;
      const headerTotal = Object.values(wire.headerBytes).reduce((a, b) => a + b, 0);
      out.journey = { legs, total, headerBytes: { ...wire.headerBytes, total: headerTotal }, protocols: wire.protocols, connections: wire.connections, detail };
      console.log(`\nJourney over ${VIA}, fresh cache (KB): ${Object.entries(legs).map(([k, v]) => `${k} ${v}`).join(' · ')} — total ${total} (budget ${BUDGET.journey})`);
      console.log(`  response headers: ${Object.entries(wire.headerBytes).map(([k, v]) => `${k} ${kb(v)}`).join(' · ')} — total ${kb(headerTotal)} KB` +
        ` (${Math.round((headerTotal / 1024 / total) * 100)} % of the journey); responses by protocol ${JSON.stringify(wire.protocols)}; ${wire.connections} connections from the page`);
      const scripts = Object.values(detail).flat().filter((d) => /\/_astro\/[^/]+\.js$/.test(d.url.split('?')[0]!) && d.bytes > 0);
      console.log(`  script files fetched: ${scripts.length}, ${scripts.reduce((a, d) => a + d.bytes, 0)} B with their headers`);
      if (total > BUDGET.journey) failures.push(`journey ${total} KB > ${BUDGET.journey}`);
    } catch (err: any) { failures.push(`journey could not be driven: ${err.message.split('\n')[0]}`); }

    out.warm = {}; out.html = {}; out.warmDetail = {};
    out.swControls = {};
    console.log(`\nPublic pages over ${VIA} (KB): page · first HTML response · warm cache after home`);
    for (const p of PUBLIC) {
      const { html } = await fresh(browser, p);
      const { kb: w, detail, swControls } = p === '/' ? await warm(browser, '/about') : await warm(browser, p);
      out.html[p] = html; out.warm[p] = w; out.warmDetail[p] = detail; out.swControls[p] = swControls;
      console.log(`  ${p.padEnd(20)} ${String(html).padStart(6)} ${String(w).padStart(6)}${p === '/' ? ' (warm: /about)' : ''}${swControls ? '' : '  (service worker not in control)'}`);
      // With BENCH_VIA=h2 a worker kept out by the certificate would make every warm figure meaningless: a failure there.
      if (!swControls && VIA === 'h2') failures.push(`${p}: the offline service worker did not control the warm page`);
      if (html > BUDGET.html) failures.push(`${p}: first HTML ${html} KB > ${BUDGET.html}`);
      if (w > BUDGET.warm) failures.push(`${p}: warm ${w} KB > ${BUDGET.warm}`);
    }

    const other = await api('/api/auth/register', { ...person, email: `budget.pages.${Date.now()}@example.com` });
    const cookie = other.cookie;
    out.islands = {};
    console.log(`\nIsland pages over ${VIA}: JS KB (fresh cache, signed in) · Lighthouse mobile performance (JS bytes with headers, script files)`);
    for (const p of ISLAND_PAGES) {
      const signedIn = !/^\/(login|register)$/.test(p);
      const { js, jsDetail } = await fresh(browser, p, signedIn ? cookie : undefined);
      const lh = LH_RUNS > 0 ? await lighthousePerf(BASE + p, signedIn ? cookie : undefined) : undefined;
      const perf = lh?.perf ?? NaN;
      out.islands[p] = { js, jsDetail, ...lh, perf };
      console.log(`  ${p.padEnd(20)} ${String(js).padStart(6)} ${String(perf).padStart(5)}  (${jsDetail.reduce((a, d) => a + d.bytes, 0)} B in ${jsDetail.length} files)` +
        (lh ? `  (runs ${lh.runs.join(' · ')}; median run: TBT ${lh.tbtMs} ms, LCP ${lh.lcpMs} ms, benchmarkIndex ${lh.benchmarkIndex})` : ''));
      if (js > BUDGET.js) failures.push(`${p}: JS ${js} KB > ${BUDGET.js}`);
      if (perf < BUDGET.lh) failures.push(`${p}: Lighthouse performance ${perf} < ${BUDGET.lh}`);
    }
    out.protocolsSeen = { ...PROTOCOLS_SEEN };
    const otherProtocols = Object.keys(PROTOCOLS_SEEN).filter((p) => p !== VIA);
    console.log(`\nResponses with bytes, by protocol: ${JSON.stringify(PROTOCOLS_SEEN)}`);
    if (VIA === 'h2' && otherProtocols.length) failures.push(`responses over ${otherProtocols.join(', ')}, not only h2: ${JSON.stringify(PROTOCOLS_SEEN)}`);
  } finally {
    await browser?.close().catch(() => {});
    await proxy?.stop().catch(() => {});
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  out.failures = failures;
  fs.mkdirSync(path.join(ROOT, 'bench/out'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, VIA === 'h2' ? 'bench/out/data-budget-h2.json' : 'bench/out/data-budget.json'), JSON.stringify(out, null, 2));
  console.log(failures.length ? `\nBudget misses:\n  ${failures.join('\n  ')}` : '\nAll data budgets met.');
  process.exitCode = failures.length ? 1 : 0;
}

await main();
