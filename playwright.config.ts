/**
 * Browser tests drive the production build (issue #2): tests/e2e/serve.ts starts the real server on a
 * temporary DATA_DIR, builds the site from its API, and Playwright uses Debian's Chromium (no downloads).
 */
import { defineConfig } from '@playwright/test';
import fs from 'node:fs';

const PORT = Number(process.env.E2E_PORT ?? 4399);
const chromium = ['/usr/bin/chromium', '/usr/lib/chromium/chromium'].find((p) => fs.existsSync(p));

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 90_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    // The site registers a service worker (issue #16); specs that test it opt in (offline.spec.ts), the rest see the network directly.
    serviceWorkers: 'block',
    launchOptions: {
      ...(chromium ? { executablePath: chromium } : {}),
      // Chromium's lazy-image distance follows its own estimate of the connection (1 250 px on 4G, 8 000 px on slow 2G);
      // on a loaded machine the estimate drops and every catalogue card loads at once, so it is pinned to 4G.
      args: ['--force-effective-connection-type=4G', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  webServer: {
    command: `node tests/e2e/serve.ts`,
    url: `http://127.0.0.1:${PORT}/`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: { E2E_PORT: String(PORT) },
  },
});
