/**
 * Astro integration: after every build (also the server's rebuild on publish), Workbox writes `sw.js` into the
 * build directory (issue #16 point 4, workbox-build generateSW). What it caches:
 * - pages (navigations) network-first with a 4 s timeout, so a page once seen — catalogue, course pages, About,
 *   the student dashboard shell, the wizard — opens without a connection. Pages are static shells: personal data
 *   is never in them (islands fetch it). A client-routed shell that serve.ts sends for a family of addresses
 *   (/apply/{courseId}, /applications/{id}, /r) is one entry whatever the address (`onePagePerShell`), so the wizard
 *   seen as /apply/1 opens offline as /apply/7. The first page of a visit, which the worker does not control yet, is
 *   copied in when the worker activates (`firstVisitCopy`), from the browser's HTTP cache only: never a second
 *   download (issue #17);
 * - hashed build assets (/_astro/*) cache-first (also for Astro's `?astro-retry=` re-imports of an island), images
 *   stale-while-revalidate;
 * - the favicon and the web app manifest stale-while-revalidate when something asks for them, never precached: a
 *   precache fetches them with `cache: 'reload'` on the first visit, past the copy the page had just downloaded
 *   (issue #17: 2.7 KB twice on a first visit; the favicon is cached by the browser for a week, serve.ts);
 * - when a page is cached, the scripts and styles it needs — its islands, their renderer and module scripts,
 *   followed through their static imports — are cached too (`warmPageAssets`). Without this a page left before its
 *   islands had loaded (a quick tap onward on a slow line) opened offline as a dead shell: the wizard stayed on
 *   "Checking your session…" because its island's modules had never reached the cache. Only what that page itself
 *   imports is fetched, and nothing already cached; lazy chunks (PDF, photo compression) are not.
 * Nothing under /api/ matches any route, so the service worker never answers or stores an API response: no
 * personal response can be shown to another user. Last-known dashboard data lives in site/lib/offline-snapshot.ts,
 * erased at log-out. The Workbox runtime is inlined (one small file, no importScripts).
 * The worker depends only on this file and Workbox's version, never on content, so it is
 * generated once per such key and copied on later builds (about 2 s less per rebuild on publish; issue #13).
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';
import crypto from 'node:crypto';

const SELF = fileURLToPath(import.meta.url);

/** @returns {import('astro').AstroIntegration} */
export default function serviceWorker() {
  return {
    name: 'college-service-worker',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const out = fileURLToPath(dir);
        const cacheDir = path.resolve(process.env.SITE_CACHE_DIR || 'node_modules/.astro');
        const key = swKey();
        const cached = key && path.join(cacheDir, `sw-${key}.js`);
        if (cached && fs.existsSync(cached)) {
          fs.copyFileSync(cached, path.join(out, 'sw.js'));
          logger.info('service worker copied from the cache (unchanged)');
          return;
        }
        let generateSW;
        try { ({ generateSW } = await import('workbox-build')); } catch {
          logger.warn('workbox-build is not installed: the site is built without a service worker.');
          return;
        }
        const { size, warnings } = await generateSW({
          globDirectory: out,
          globPatterns: [],
          swDest: path.join(out, 'sw.js'),
          mode: 'production',
          inlineWorkboxRuntime: true,
          sourcemap: false,
          skipWaiting: true,
          clientsClaim: true,
          cleanupOutdatedCaches: true,
          runtimeCaching: [
            {
              urlPattern: ({ request, url }) => request.mode === 'navigate' && !url.pathname.startsWith('/api/'),
              handler: 'NetworkFirst',
              options: { cacheName: 'pages', networkTimeoutSeconds: 4, expiration: { maxEntries: 80 }, plugins: [onePagePerShell, warmPageAssets] },
            },
            {
              urlPattern: ({ url }) => url.pathname.startsWith('/_astro/'),
              handler: 'CacheFirst',
              options: { cacheName: 'assets', matchOptions: { ignoreSearch: true }, expiration: { maxEntries: 120, maxAgeSeconds: 30 * 24 * 3600 }, plugins: [shareAssetFetches] },
            },
            {
              urlPattern: ({ url }) => url.pathname === '/favicon.svg' || url.pathname === '/manifest.webmanifest',
              handler: 'StaleWhileRevalidate',
              options: { cacheName: 'shell', expiration: { maxEntries: 4 } },
            },
            {
              urlPattern: ({ request, url }) => request.destination === 'image' && !url.pathname.startsWith('/api/'),
              handler: 'StaleWhileRevalidate',
              options: { cacheName: 'images', expiration: { maxEntries: 60 } },
            },
          ],
        });
        fs.appendFileSync(path.join(out, 'sw.js'), firstVisitCopy());
        for (const w of warnings) logger.warn(w);
        logger.info(`service worker written (${size} B precached)`);
        if (cached && !warnings.length) {
          fs.mkdirSync(cacheDir, { recursive: true });
          fs.copyFileSync(path.join(out, 'sw.js'), `${cached}.tmp`);
          fs.renameSync(`${cached}.tmp`, cached);
        }
      },
    },
  };
}

/**
 * Workbox plugin of the pages route, run inside the service worker (Workbox inlines it as source, so it uses
 * nothing from this module): after a page is stored in `pages`, stores in `assets` every /_astro/ script and style
 * the page names (island `component-url`/`renderer-url`, module scripts, stylesheets) and, recursively, every
 * module those scripts import statically (`from"./x.js"`, `import"./x.js"`). Files already in `assets` are not
 * fetched again (hashed names never change), nor those the page is downloading itself at that moment (it waits for
 * them, see shareAssetFetches); a failed fetch (offline again) stops the walk. Each page's walk runs once per
 * worker lifetime. Runs in the background of the navigation (Workbox's waitUntil), never delaying it. For a page
 * stored by firstVisitCopy (its `event.request.mode` is not 'navigate') every file is fetched
 * `only-if-cached`: copied from the browser's HTTP cache when there, skipped otherwise, so the first visit downloads
 * nothing more; that walk does not count as done, and the page's next navigation walks it in full.
 */
const warmPageAssets = {
  // An arrow function: Workbox inlines `key: value` source, so a method shorthand would not parse. No comment may
  // stand inside the function: Workbox puts its source on one line, where a line comment would swallow the rest.
  // Shared state lives on `self` under names without a leading underscore (Workbox's minifier renames those).
  cacheDidUpdate: async ({ cacheName, request, event }) => {
    const onlyCached = !!event && event.request.mode !== 'navigate';
    const page = await (await caches.open(cacheName)).match(request);
    if (!page) return;
    const html = await page.text();
    const entries = [...html.matchAll(/(?:component-url|renderer-url|src|href)="(\/_astro\/[^"?#]+\.(?:js|css))"/g)].map((m) => m[1]).sort();
    const done = (self.collegeWarmedPages ??= new Set());
    const key = entries.join(' ');
    if (!entries.length || done.has(key)) return;
    const assets = await caches.open('assets');
    const seen = new Set();
    const queue = [];
    const add = (u, base) => {
      const url = new URL(u, base);
      if (url.origin === self.location.origin && url.pathname.startsWith('/_astro/') && !seen.has(url.href)) { seen.add(url.href); queue.push(url.href); }
    };
    for (const e of entries) add(e, request.url);
    const fetches = (self.collegeAssetFetches ??= new Map());
    while (queue.length) {
      const url = queue.shift();
      let res = await assets.match(url);
      if (!res && fetches.has(url)) res = (await fetches.get(url))?.clone() ?? null;
      if (!res) {
        let settle;
        fetches.set(url, new Promise((r) => { settle = r; }));
        try {
          const got = await fetch(url, onlyCached ? { cache: 'only-if-cached', mode: 'same-origin' } : {});
          res = got.ok ? got : null;
          if (res) await assets.put(url, res.clone());
        } catch { res = onlyCached ? null : undefined; } finally { settle(res ? res.clone() : null); fetches.delete(url); }
        if (res === undefined) return;
        if (!res) continue;
      }
      if (url.endsWith('.js')) for (const m of (await res.text()).matchAll(/(?:\bfrom|\bimport)\s*"(\.{1,2}\/[^"]+\.js)"/g)) add(m[1], url);
    }
    if (!onlyCached) done.add(key);
  },
};

/**
 * Workbox plugin of the pages route (inlined into the service worker like warmPageAssets): one cache entry per
 * client-routed shell, so a page once seen under any of its addresses opens offline under all of them. serve.ts
 * (SHELLS, resolveFile) sends one file for each family: /apply, /apply/{courseId} → apply/index.html (key /apply);
 * /applications, /applications/{id} → applications/index.html (key /applications); /r, /reset-password →
 * reset-password/index.html (key /reset-password). A trailing slash, the query and the fragment do not change that
 * file, so the key has none. Any other page keeps its own URL as key. Before this, /apply/1 and /apply/7 were two
 * entries: opened once as /apply/1, the wizard did not open offline from a link to /apply/7 (QA, 2026-11-28).
 * Must match SHELLS in api/src/site-build/serve.ts.
 */
const onePagePerShell = {
  cacheKeyWillBeUsed: async ({ request }) => {
    const url = new URL(request.url);
    const path = url.pathname.replace(/\/+$/, '');
    const shell = /^\/apply(\/[^/]+)?$/.test(path) ? '/apply' : /^\/applications(\/[^/]+)?$/.test(path) ? '/applications' : /^\/(r|reset-password)$/.test(path) ? '/reset-password' : null;
    return shell ? `${url.origin}${shell}` : request;
  },
};

/**
 * Workbox plugin of the /_astro/ route (inlined into the service worker like warmPageAssets): the page's own
 * requests and the warm-up share one table of downloads under way (`self.collegeAssetFetches`, file URL without query →
 * promise of the response or null), so a file is downloaded once even when both want it at the same moment. A
 * page request that finds no cached copy waits for the warm-up's download of the file, if there is one; otherwise
 * its own download is entered in the table for the warm-up to wait on.
 */
const shareAssetFetches = {
  cachedResponseWillBeUsed: async ({ request, cachedResponse }) => {
    if (cachedResponse) return cachedResponse;
    const pending = self.collegeAssetFetches?.get(request.url.split('?')[0]);
    const res = pending ? await pending : null;
    return res ? res.clone() : null;
  },
  requestWillFetch: async ({ request }) => {
    const fetches = (self.collegeAssetFetches ??= new Map());
    const url = request.url.split('?')[0];
    if (!fetches.has(url)) {
      let settle;
      fetches.set(url, new Promise((r) => { settle = r; }));
      (self.collegeAssetSettle ??= new Map()).set(url, settle);
    }
    return request;
  },
  fetchDidSucceed: async ({ request, response }) => {
    const url = request.url.split('?')[0];
    const settle = self.collegeAssetSettle?.get(url);
    if (settle) { settle(response.ok ? response.clone() : null); self.collegeAssetSettle.delete(url); self.collegeAssetFetches.delete(url); }
    return response;
  },
  fetchDidFail: async ({ request }) => {
    const url = request.url.split('?')[0];
    const settle = self.collegeAssetSettle?.get(url);
    if (settle) { settle(null); self.collegeAssetSettle.delete(url); self.collegeAssetFetches.delete(url); }
  },
};

/**
 * Source appended to the generated worker: when it activates, each window of the site open at that moment (on a first
 * visit, the first page, which no worker controlled: an SMS's /apply/7 say) has its page put in `pages` under its
 * onePagePerShell key, unless that key is there already, and then its scripts and styles (warmPageAssets, in its only-if-cached mode). The
 * page is fetched `only-if-cached`: the browser's HTTP cache answers with the response that window just showed (pages
 * are `no-cache` with an ETag, so they are kept), or the fetch fails and nothing is stored; nothing goes over the
 * network (issue #17: the first page of a journey must not cost a second download). /api/ is never copied. Such an
 * entry is outside the pages route's ExpirationPlugin, which counts what it stored itself: at most one entry per
 * window open when a worker activates.
 * @returns {string} JavaScript for the end of sw.js
 */
function firstVisitCopy() {
  return `
self.addEventListener('activate', (event) => {
  const key = ${onePagePerShell.cacheKeyWillBeUsed.toString()};
  const warm = ${warmPageAssets.cacheDidUpdate.toString()};
  event.waitUntil(self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => Promise.all(windows.map(async (w) => {
    const url = new URL(w.url);
    url.hash = '';
    if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
    const k = await key({ request: new Request(url.href) });
    const pages = await caches.open('pages');
    if (await pages.match(k)) return;
    const res = await fetch(url.href, { cache: 'only-if-cached', mode: 'same-origin' }).catch(() => null);
    if (!res || !res.ok || res.redirected) return;
    await pages.put(k, res);
    await warm({ cacheName: 'pages', request: typeof k === 'string' ? new Request(k) : k, event: { request: { mode: 'same-origin' } } });
  }))).catch(() => {}));
});
`;
}

/**
 * The cache key of the generated worker: SHA-256 over this file and the installed workbox-build version (nothing is
 * precached, so no file of the build goes into the worker); null when one of them cannot be read (then the worker
 * is generated).
 * @returns {string | null}
 */
function swKey() {
  try {
    const h = crypto.createHash('sha256').update(fs.readFileSync(SELF));
    const wb = path.resolve('node_modules/workbox-build/package.json');
    h.update(JSON.parse(fs.readFileSync(wb, 'utf8')).version);
    return h.digest('hex').slice(0, 20);
  } catch { return null; }
}
