/**
 * Data budget in bytes (issue #17; bytes are deterministic, time is not): every public page's first HTML response
 * fits in one round trip (≤ 14 KB gzip, 10 TCP segments), carries no inline stylesheet, and links its CSS as one
 * hashed file under /_astro/ served `immutable`, so a second page costs no CSS; the island pages that meet the
 * 40 KB JavaScript budget keep meeting it. Figures (all pages, journey, warm cache): bench/data-budget.ts.
 */
import http from 'node:http';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { closeServiceWorkerContext, uniqueEmail } from './fixtures.ts';

const PUBLIC = ['/', '/courses', '/courses/1', '/about', '/contact', '/assessment-centre', '/terms', '/privacy'];
const HTML_BUDGET = 14 * 1024;

/** Raw (still compressed) body bytes and headers of GET `url` with Accept-Encoding `encoding` (gzip). */
function rawGet(url: string, encoding = 'gzip'): Promise<{ status: number; bytes: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => { const body = Buffer.concat(chunks); resolve({ status: res.statusCode!, bytes: body.length, headers: res.headers, body }); });
    }).on('error', reject);
  });
}

test('every public page: first HTML response ≤ 14 KB gzip, CSS as one hashed immutable file', async ({ baseURL }) => {
  for (const p of PUBLIC) {
    const r = await rawGet(baseURL + p);
    expect(r.status, p).toBe(200);
    expect(r.headers['content-encoding'], p).toBe('gzip');
    expect(r.bytes, `${p}: ${r.bytes} bytes of gzip HTML`).toBeLessThanOrEqual(HTML_BUDGET);
    const html = (await import('node:zlib')).gunzipSync(r.body).toString('utf8');
    expect(html, p).not.toMatch(/<style[\s>]/);
    const css = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((m) => m[1]!);
    expect(css.length, p).toBeGreaterThan(0);
    for (const href of css) {
      expect(href, p).toMatch(/^\/_astro\/[^/]+\.[A-Za-z0-9_-]{8}\.css$/);
      const file = await rawGet(baseURL + href);
      expect(file.headers['cache-control'], href).toContain('immutable');
    }
  }
});

/**
 * Island pages that meet the 40 KB budget (bench/RESULTS.md "Data budget"); the others are reported there.
 * /login and /register load their form's JavaScript on first use (client:interact), so what is measured here is
 * the page before anyone touches the form.
 */
const JS_BUDGET_PAGES = ['/login', '/register', '/dashboard/student', '/my-applications'];
const JS_BUDGET = 40 * 1024;

/**
 * Waits (at most 3 min per script) until every script `path` loads in `ctx` (a context of its own: the measured one
 * must start with an empty cache) is served from the build's Brotli copy, which the server
 * writes in the background after the build goes live (site-build/precompress.ts): until then scripts are compressed
 * on the fly at a lower quality, about 10 % larger, and a spec run early on a busy machine measured that (44 092
 * bytes for /dashboard/student, 39.7 KB once the copies were there). A copy is sent whole, with a Content-Length, as
 * is a file too small to compress (no copy is made for it); an answer compressed on the fly is chunked.
 */
async function brotliCopiesOf(ctx: BrowserContext, path: string): Promise<void> {
  const seen = await ctx.newPage();
  const scripts: string[] = [];
  seen.on('response', (r) => { if (r.request().resourceType() === 'script') scripts.push(r.url()); });
  await seen.goto(path);
  await seen.waitForLoadState('networkidle');
  await seen.close();
  for (const url of scripts) {
    await expect.poll(async () => { const r = await rawGet(url, 'br'); return r.headers['content-length'] !== undefined; },
      { message: `${url}: the build's Brotli copy`, timeout: 180_000, intervals: [500, 1000, 2000] }).toBe(true);
  }
}

/**
 * Bytes of JavaScript `path` loads on a fresh cache, as Chromium counts them on the wire (compressed body and
 * headers, CDP encodedDataLength), once the page is idle; the per-file list for the message.
 */
async function scriptBytes(page: Page, path: string): Promise<{ total: number; files: string[] }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const scripts = new Map<string, string>();
  const files: string[] = [];
  let total = 0;
  cdp.on('Network.responseReceived', (e) => { if (e.type === 'Script') scripts.set(e.requestId, e.response.url); });
  cdp.on('Network.loadingFinished', (e) => {
    const url = scripts.get(e.requestId);
    if (url) { total += e.encodedDataLength; files.push(`${new URL(url).pathname} ${e.encodedDataLength}`); }
  });
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  return { total, files };
}

test('island pages within the JavaScript budget load at most 40 KB of it (gzip, on the wire), signed in where needed', async ({ page, baseURL }) => {
  test.setTimeout(300_000); // brotliCopiesOf may wait for the server's background Brotli copies
  const reg = await page.request.post('/api/auth/register', { headers: { origin: baseURL! }, data: { firstName: 'Budget', lastName: 'Tester', email: uniqueEmail('budget'), password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true } });
  expect(reg.status()).toBe(201);
  for (const p of JS_BUDGET_PAGES) {
    const signedOut = /^\/(login|register)$/.test(p);
    const options = { baseURL, serviceWorkers: 'block' as const, ...(signedOut ? {} : { storageState: await page.context().storageState() }) };
    const probe = await page.context().browser()!.newContext(options);
    await brotliCopiesOf(probe, p);
    await probe.close();
    const ctx = await page.context().browser()!.newContext(options);
    const fresh = await ctx.newPage();
    const { total, files } = await scriptBytes(fresh, p);
    // The page itself, not a redirect to /login, was measured.
    expect(new URL(fresh.url()).pathname, p).toBe(p);
    expect(files.length, p).toBeGreaterThan(0);
    expect(total, `${p}: ${total} bytes of JavaScript\n  ${files.join('\n  ')}`).toBeLessThanOrEqual(JS_BUDGET);
    await ctx.close();
  }
});

test('toasts load their Radix part only when one is shown, and still show when that part cannot load (offline, never cached)', async ({ page }) => {
  const toastParts: string[] = [];
  page.on('request', (r) => { if (/\/_astro\/ToastStack\./.test(r.url())) toastParts.push(r.url()); });
  await page.goto('/login');
  await page.waitForLoadState('networkidle');
  expect(toastParts, 'no toast yet, so no toast code').toEqual([]);

  await page.route('**/_astro/ToastStack.*', (r) => r.abort('internetdisconnected'));
  await page.getByLabel('Email').fill('nobody.here@example.com');
  await page.getByLabel('Password', { exact: true }).fill('wrong-password');
  await page.getByRole('button', { name: /^Log in$/i }).click();
  const toast = page.getByTestId('toast');
  await expect(toast).toContainText('Login failed');
  await expect(toast).toContainText('Invalid email or password');
  expect(toastParts.length, 'the Radix part was asked for').toBeGreaterThan(0);
  await toast.getByRole('button', { name: 'Close' }).click();
  await expect(toast).toHaveCount(0);
});

/** Encoded bytes (CDP encodedDataLength) of every response `page` receives from now on, with type, status and URL. */
async function wire(page: Page): Promise<{ url: string; type: string; status: number; bytes: number }[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const seen = new Map<string, { url: string; type: string; status: number }>();
  const rows: { url: string; type: string; status: number; bytes: number }[] = [];
  cdp.on('Network.responseReceived', (e) => { seen.set(e.requestId, { url: e.response.url, type: e.type, status: e.response.status }); });
  cdp.on('Network.loadingFinished', (e) => { const r = seen.get(e.requestId); if (r) rows.push({ ...r, bytes: e.encodedDataLength }); });
  return rows;
}

test('on a phone, a course page opened from the catalogue costs its HTML only: the hero is the card image already there', async ({ browser, baseURL }) => {
  const ctx = await browser.newContext({ baseURL, serviceWorkers: 'block', viewport: { width: 412, height: 823 } });
  const page = await ctx.newPage();
  await page.goto('/courses');
  await page.waitForLoadState('networkidle');
  const rows = await wire(page);
  await page.goto('/courses/1');
  await page.waitForLoadState('networkidle');
  const list = rows.map((r) => `${r.type} ${r.status} ${r.bytes} ${r.url}`).join('\n  ');
  expect(await page.locator('section img').first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  expect(rows.filter((r) => r.type === 'Image' || r.type === 'Script').reduce((n, r) => n + r.bytes, 0), list).toBe(0);
  expect(rows.reduce((n, r) => n + r.bytes, 0), list).toBeLessThanOrEqual(8 * 1024);
  await ctx.close();
});

test('About asks whether the announcements it was built with changed: a bare 304 while they have not, nothing redrawn', async ({ page }) => {
  const rows = await wire(page);
  await page.goto('/about');
  await page.waitForLoadState('networkidle');
  const list = rows.map((r) => `${r.type} ${r.status} ${r.bytes} ${r.url}`).join('\n  ');
  const check = rows.filter((r) => new URL(r.url).pathname === '/api/announcements');
  expect(check.map((r) => r.status), list).toEqual([304]);
  expect(check[0]!.bytes, list).toBeLessThanOrEqual(512);
  expect(rows.filter((r) => /\/_astro\/format\./.test(r.url)), 'no formatter: nothing to redraw').toEqual([]);
  await expect(page.locator('#announcements li')).not.toHaveCount(0);
});

/**
 * A phone that has seen home (its scripts and CSS cached), then opens `path`: the wire rows of `path`, and the
 * scripts `path` asked for that home had not (a public page's own code, which should wait for first use).
 */
async function afterHome(page: Page, path: string): Promise<{ rows: Awaited<ReturnType<typeof wire>>; ownScripts: () => string[] }> {
  const homeScripts = new Set<string>();
  const scripts: string[] = [];
  let onHome = true;
  page.on('request', (r) => { if (r.resourceType() === 'script') (onHome ? homeScripts.add(r.url()) : scripts.push(r.url())); });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  onHome = false;
  const rows = await wire(page);
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  return { rows, ownScripts: () => scripts.filter((u) => !homeScripts.has(u)).map((u) => new URL(u).pathname) };
}

for (const [path, button, firstError] of [
  ['/contact', 'Send Message', 'Please enter a valid email address'],
  ['/assessment-centre', 'Submit Application', 'First name must be at least 2 characters'],
] as const) {
  test(`${path} after home on a phone: at most 8 KB and no form code until the form is used; tapping ${button} at once still checks the form`, async ({ browser, baseURL }) => {
    const ctx = await browser.newContext({ baseURL, serviceWorkers: 'block', viewport: { width: 412, height: 823 }, hasTouch: true });
    const page = await ctx.newPage();
    const { rows, ownScripts } = await afterHome(page, path);
    const list = rows.map((r) => `${r.type} ${r.status} ${r.bytes} ${r.url}`).join('\n  ');
    expect(ownScripts(), 'no script of the page before the form is used').toEqual([]);
    expect(rows.reduce((n, r) => n + r.bytes, 0), list).toBeLessThanOrEqual(8 * 1024);

    // The first tap both loads the form's code and is kept: the form checks itself instead of being sent natively.
    await page.getByRole('button', { name: button }).tap();
    await expect(page.getByText(firstError, { exact: true })).toBeVisible();
    expect(new URL(page.url()).search, 'not sent natively').toBe('');
    expect(ownScripts().length, 'the form code loaded on use').toBeGreaterThan(0);
    await ctx.close();
  });
}

test('a course page opened straight from home on a phone costs at most 8 KB: its HTML and a light default hero', async ({ browser, baseURL }) => {
  // The page as served once the server's background Brotli copy exists (sent whole, with a Content-Length; before
  // that it is compressed on the fly at a lower quality).
  await expect.poll(async () => new Promise<boolean>((resolve, reject) => {
    http.get(`${baseURL}/courses/1`, { headers: { 'accept-encoding': 'br' } }, (res) => { res.resume(); resolve(res.headers['content-encoding'] === 'br' && !!res.headers['content-length']); }).on('error', reject);
  }), { timeout: 60_000 }).toBe(true);
  const ctx = await browser.newContext({ baseURL, serviceWorkers: 'block', viewport: { width: 412, height: 823 } });
  const page = await ctx.newPage();
  const { rows } = await afterHome(page, '/courses/1');
  const list = rows.map((r) => `${r.type} ${r.status} ${r.bytes} ${r.url}`).join('\n  ');
  expect(await page.locator('section img').first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  expect(rows.reduce((n, r) => n + r.bytes, 0), list).toBeLessThanOrEqual(8 * 1024);
  await ctx.close();
});

test('pages after the first come compressed with the page dictionary (dcz), fetched once when idle, and render whole, also through the service worker', async ({ browser, baseURL }) => {
  // The server writes the dictionary and its dcz copies in the background once the build is live (dictionary.ts).
  await expect.poll(async () => (await rawGet(`${baseURL}/login`, 'br')).headers.link ?? '', { timeout: 60_000 }).toMatch(/rel="compression-dictionary"/);
  const ctx = await browser.newContext({ baseURL, viewport: { width: 360, height: 740 } });
  const page = await ctx.newPage();
  const documents: { url: string; coding: string; bytes: number }[] = [];
  let dictionaries = 0;
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Network.enable');
  const codings = new Map<string, { url: string; coding: string }>();
  cdp.on('Network.responseReceived', (e) => { if (e.type === 'Document' || e.response.url.includes('/_astro/dictionary.')) codings.set(e.requestId, { url: e.response.url, coding: String(e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'] ?? '') }); });
  cdp.on('Network.loadingFinished', (e) => { const c = codings.get(e.requestId); if (!c) return; if (c.url.includes('/_astro/dictionary.')) dictionaries++; else documents.push({ ...c, bytes: e.encodedDataLength }); });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  await expect.poll(() => dictionaries, { message: 'the dictionary is fetched while the first page is idle' }).toBeGreaterThan(0);
  for (const [path, heading] of [['/courses', 'Our Courses'], ['/courses/1', null], ['/login', 'Log in']] as const) {
    const res = await page.goto(path);
    await page.waitForLoadState('networkidle');
    expect((await res!.allHeaders())['content-encoding'], path).toBe('dcz');
    if (heading) await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    else await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  expect(dictionaries, 'fetched once').toBe(1);
  const list = documents.map((d) => `${d.coding} ${d.bytes} ${d.url}`).join('\n  ');
  for (const d of documents.slice(1)) {
    const brotli = (await rawGet(d.url, 'br')).bytes;
    expect(d.bytes, `${list}\n  (Brotli alone: ${brotli} bytes of body for ${d.url})`).toBeLessThan(brotli);
  }
  await ctx.close();
});

test('contact: a message typed and sent with one tap on Send arrives (the tap that loads the form is not lost)', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => { if (/contact-form/.test(r.url())) scripts.push(r.url()); });
  await page.goto('/contact');
  await page.waitForLoadState('networkidle');
  expect(scripts).toEqual([]);
  // Filled without focusing (autofill-like), so the tap on Send is the first use of the form.
  await page.locator('form[data-contact-form]').evaluate((form: HTMLFormElement) => {
    const set = (n: string, v: string) => { (form.elements.namedItem(n) as HTMLInputElement).value = v; };
    set('firstName', 'Tshilidzi'); set('lastName', 'Mavhungu'); set('email', 'tshilidzi.e2e@example.com'); set('message', 'Do you offer evening classes?');
  });
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Thank you, Tshilidzi. Your message has been sent')).toBeVisible();
  await expect(page.getByTestId('toast')).toContainText('Message sent');
  expect(scripts.length).toBeGreaterThan(0);
});

test('login: an e-mail and password filled in and sent with one click on Log in sign in (the click that loads the form is not lost)', async ({ page, request, baseURL }) => {
  const email = uniqueEmail('early');
  const reg = await request.post('/api/auth/register', { headers: { origin: baseURL! }, data: { firstName: 'Mpho', lastName: 'Netshiavha', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true } });
  expect(reg.status()).toBe(201);
  const scripts: string[] = [];
  page.on('request', (r) => { if (/LoginForm/.test(r.url())) scripts.push(r.url()); });
  await page.goto('/login');
  await page.waitForLoadState('networkidle');
  expect(scripts, 'no form code before the form is used').toEqual([]);
  // Filled without focusing (autofill-like), so the click on Log in is the first use of the form.
  for (const [label, value] of [['Email', email], ['Password', 'secret123']]) {
    await page.getByLabel(label, { exact: true }).evaluate((input: HTMLInputElement, v) => { input.value = v; }, value);
  }
  await page.getByRole('button', { name: /^Log in$/i }).click();
  await expect(page).toHaveURL(/\/dashboard\/student$/);
  expect(scripts.length, 'the form code loaded on use').toBeGreaterThan(0);
});

test('catalogue on a phone: card images after the first are lazy with their sizes set (nothing shifts), far-down default pictures cost no further download; no calculator code until used', async ({ browser, baseURL }) => {
  const ctx = await browser.newContext({ baseURL, serviceWorkers: 'block', viewport: { width: 412, height: 823 } });
  const page = await ctx.newPage();
  const { ownScripts } = await afterHome(page, '/courses');
  expect(ownScripts(), 'no script of the catalogue page itself').toEqual([]);
  const cards = page.locator('[data-course-card] img');
  const n = await cards.count();
  expect(n).toBeGreaterThan(3);
  await expect(cards.first()).toHaveAttribute('loading', 'eager');
  for (let i = 0; i < n; i++) {
    if (i > 0) await expect(cards.nth(i)).toHaveAttribute('loading', 'lazy');
    await expect(cards.nth(i)).toHaveAttribute('width', /\d+/);
    await expect(cards.nth(i)).toHaveAttribute('height', /\d+/);
  }
  // Every default picture is a view of one file (course-image.ts): the cards on screen fetch it once, and a far-down
  // card, which Chromium then draws from that file at once, costs no further download (an admin's own photo would
  // still wait, lazy, until scrolled near).
  const pictures = new Set<string>();
  page.on('request', (r) => { if (r.resourceType() === 'image') pictures.add(new URL(r.url()).pathname); });
  await cards.last().scrollIntoViewIfNeeded();
  await expect(cards.last()).toHaveJSProperty('complete', true);
  expect(await cards.last().evaluate((i: HTMLImageElement) => i.naturalWidth)).toBeGreaterThan(0);
  const sprite = /\/_astro\/heroes\.[\w-]{8}\.svg$/;
  const srcs = await cards.evaluateAll((imgs: HTMLImageElement[]) => imgs.map((i) => new URL(i.src).pathname));
  expect(srcs.filter((p) => sprite.test(p)).length, 'cards with a default picture').toBeGreaterThan(3);
  expect([...pictures].filter((p) => sprite.test(p)), 'the default pictures\' file is not downloaded again for the far-down cards').toEqual([]);

  await page.getByRole('button', { name: 'Check if you qualify' }).click();
  await expect(page.getByLabel('Subject 1', { exact: true })).toBeFocused();
  expect(ownScripts().length, 'the calculator loaded on use').toBeGreaterThan(0);
  await ctx.close();
});

test('first visit: the favicon and the manifest each cross the network at most once (the service worker fetches neither again)', async ({ browser, baseURL }) => {
  const ctx = await browser.newContext({ baseURL, serviceWorkers: 'allow', viewport: { width: 412, height: 823 } });
  // A request the worker answers for the page is one download, the worker's own; the page's copy of it is not another.
  const downloads: string[] = [];
  const seen: string[] = [];
  ctx.on('requestfinished', async (r) => {
    const p = new URL(r.url()).pathname;
    if (!/^\/(favicon\.svg|manifest\.webmanifest)$/.test(p)) return;
    const fromWorker = (await r.response())?.fromServiceWorker() ?? false;
    seen.push(`${r.serviceWorker() ? 'worker' : fromWorker ? 'page (answered by the worker)' : 'page'} ${p}`);
    if (!fromWorker) downloads.push(p);
  });
  const page = await ctx.newPage();
  await page.goto('/');
  await page.evaluate(async () => { await navigator.serviceWorker.ready; });
  await page.waitForLoadState('networkidle');
  await expect.poll(() => seen.some((s) => s.endsWith('/favicon.svg')), { message: 'the favicon was asked for' }).toBe(true);
  expect(downloads.filter((p) => p === '/favicon.svg').length, seen.join('\n')).toBe(1);
  expect(downloads.filter((p) => p === '/manifest.webmanifest').length, seen.join('\n')).toBeLessThanOrEqual(1);
  await closeServiceWorkerContext(ctx);
});

test('catalogue on a phone after home: the default course pictures are 4 views of one shared SVG file (≤ 1.5 KB on the wire, fetched once), the course page shows the same picture', async ({ browser, baseURL }) => {
  const ctx = await browser.newContext({ baseURL, serviceWorkers: 'block', viewport: { width: 412, height: 823 } });
  const page = await ctx.newPage();
  const { rows } = await afterHome(page, '/courses');
  const list = rows.map((r) => `${r.type} ${r.status} ${r.bytes} ${r.url}`).join('\n  ');
  const cards = page.locator('[data-course-card]');
  expect(await cards.count()).toBeGreaterThan(3);
  // One plain <img> per card (spec §9: a default picture by course id modulo 4), its file hashed, never a data: URL.
  expect(await cards.locator('picture').count(), 'no <picture> around a default image').toBe(0);
  const srcs = await cards.locator('img').evaluateAll((imgs: HTMLImageElement[]) => imgs.map((i) => i.getAttribute('src')!));
  for (const src of srcs) expect(src).toMatch(/^\/_astro\/heroes\.[\w-]{8}\.svg#h[0-3]$/);
  expect(new Set(srcs).size, srcs.join('\n')).toBe(Math.min(4, srcs.length));
  const files = new Set(srcs.map((src) => src.split('#')[0]));
  expect(files.size, 'one sprite file for every default picture').toBe(1);
  // The image still spans its card (inside the border), 10rem high, cropped to fill (object-cover).
  const box = await cards.first().locator('img').evaluate((img: HTMLImageElement) => {
    const card = img.closest<HTMLElement>('[data-course-card]')!;
    const r = img.getBoundingClientRect();
    return { left: r.left - card.getBoundingClientRect().left - card.clientLeft, width: r.width - card.clientWidth, height: r.height, fit: getComputedStyle(img).objectFit };
  });
  expect(box).toEqual({ left: 0, width: 0, height: 160, fit: 'cover' });

  // What the pictures add to the page (its HTML and the rest: bench/data-budget.ts warmDetail).
  const images = rows.filter((r) => r.type === 'Image');
  expect(images.length, `the sprite crosses the network once\n  ${list}`).toBe(1);
  expect(images[0]!.url, list).toMatch(/\/heroes\.[\w-]{8}\.svg/);
  expect(images[0]!.bytes, list).toBeLessThanOrEqual(1536);
  // The file on its own: compressed, cached for good, a bare body of about 1 KB.
  for (const src of files) {
    const r = await rawGet(baseURL + src);
    expect(r.headers['content-type'], src).toMatch(/^image\/svg\+xml/);
    expect(r.headers['content-encoding'], src).toBe('gzip');
    expect(r.headers['cache-control'], src).toContain('immutable');
    expect(r.bytes, src).toBeLessThanOrEqual(1200);
  }

  // The course page's hero is the card's own file (already cached), at the hero's size.
  const cardSrc = await page.locator('[data-course-card]').filter({ has: page.locator('a[href="/courses/1"]') }).locator('img').getAttribute('src');
  await page.goto('/courses/1');
  const hero = page.locator('section img').first();
  await expect(hero).toHaveAttribute('src', cardSrc!);
  await expect(hero).toHaveAttribute('width', '1200');
  await expect(hero).toHaveAttribute('height', '600');
  await expect(hero).toHaveAttribute('alt', '');
  await ctx.close();
});
