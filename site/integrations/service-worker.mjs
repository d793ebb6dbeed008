/**
 * Astro integration: after every build (also the server's rebuild on publish), Workbox writes `sw.js` into the
 * build directory (issue #16 point 4, workbox-build generateSW). What it caches:
 * - pages (navigations) network-first with a 4 s timeout, so a page once seen — catalogue, course pages, About,
 *   the student dashboard shell, the wizard — opens without a connection. Pages are static shells: personal data
 *   is never in them (islands fetch it);
 * - hashed build assets (/_astro/*) cache-first, images stale-while-revalidate.
 * Nothing under /api/ matches any route, so the service worker never answers or stores an API response: no
 * personal response can be shown to another user. Last-known dashboard data lives in site/lib/offline-snapshot.ts,
 * erased at log-out. The Workbox runtime is inlined (one small file, no importScripts).
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** @returns {import('astro').AstroIntegration} */
export default function serviceWorker() {
  return {
    name: 'college-service-worker',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        let generateSW;
        try { ({ generateSW } = await import('workbox-build')); } catch {
          logger.warn('workbox-build is not installed: the site is built without a service worker.');
          return;
        }
        const out = fileURLToPath(dir);
        const { size, warnings } = await generateSW({
          globDirectory: out,
          globPatterns: ['favicon.svg', 'manifest.webmanifest'],
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
              options: { cacheName: 'pages', networkTimeoutSeconds: 4, expiration: { maxEntries: 80 } },
            },
            {
              urlPattern: ({ url }) => url.pathname.startsWith('/_astro/'),
              handler: 'CacheFirst',
              options: { cacheName: 'assets', expiration: { maxEntries: 120, maxAgeSeconds: 30 * 24 * 3600 } },
            },
            {
              urlPattern: ({ request, url }) => request.destination === 'image' && !url.pathname.startsWith('/api/'),
              handler: 'StaleWhileRevalidate',
              options: { cacheName: 'images', expiration: { maxEntries: 60 } },
            },
          ],
        });
        for (const w of warnings) logger.warn(w);
        logger.info(`service worker written (precache ${size} B)`);
      },
    },
  };
}
