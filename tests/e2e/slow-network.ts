/**
 * Helpers for uploads on a bad network (issue #16 point 5), shared by tests/e2e/resumable-upload.spec.ts and
 * bench/tus-cuts.ts: CDP throttling (250 kbps down, 100 kbps up, 400 ms round trip), cuts, the wizard's document
 * step, and a meter of the tus requests.
 */
import { expect, type CDPSession, type Page } from '@playwright/test';
import crypto from 'node:crypto';
import { uniqueEmail } from './fixtures.ts';

const KBPS = 1000 / 8;
export const SLOW = { offline: false, latency: 400, downloadThroughput: 250 * KBPS, uploadThroughput: 100 * KBPS };

export async function signUp(page: Page) {
  const res = await page.request.post('/api/auth/register', {
    data: { firstName: 'Thandi', lastName: 'Mokoena', email: uniqueEmail('tus'), password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true },
  });
  expect(res.status()).toBe(201);
}

/** Opens the wizard of course 2 at step 3 (Supporting Documents) through a saved draft. */
export async function openDocumentsStep(page: Page) {
  await signUp(page);
  const inst = { name: 'Mbilwi Secondary', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', qualification: 'NSC', grade: '72%' };
  const res = await page.request.put('/api/applications/draft?key=course-2', { data: { step: 2, data: {
    courseId: '2', firstName: 'Thandi', lastName: 'Mokoena', email: 'thandi@example.com', phone: '0821234567', dateOfBirth: '2001-04-12', nationality: 'za',
    addressLine1: '12 Church Street', addressLine2: '', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za',
    academicHistory: { highSchool: inst, college: { ...inst, name: '' } },
  } } });
  expect(res.ok()).toBe(true);
  await page.goto('/apply/2');
  await expect(page.getByRole('heading', { name: 'Supporting Documents' })).toBeVisible({ timeout: 60_000 });
}

/** A valid PDF of exactly `n` bytes (random padding in a comment, so nothing compresses it). */
export const pdfOf = (n: number) => Buffer.concat([Buffer.from('%PDF-1.4\n%'), crypto.randomBytes(n - 16), Buffer.from('\n%%EOF')]);

/** CHUNK_BYTES of site/islands/applications/tus-upload.ts: the body of one tus PATCH. */
const CHUNK = 64 * 1024;

/** Counts the tus requests of `page` for a file of `size` bytes (see the module docstring). */
export function tusMeter(page: Page, size: number) {
  const offsets: number[] = [];
  const heads: number[] = [];
  let posts = 0;
  page.on('request', (r) => {
    if (!r.url().includes('/api/uploads/tus')) return;
    if (r.method() === 'PATCH') offsets.push(Number(r.headers()['upload-offset']));
    if (r.method() === 'POST') posts++;
  });
  page.on('requestfinished', async (r) => {
    if (r.method() === 'HEAD' && r.url().includes('/api/uploads/tus/')) heads.push(Number((await r.response())?.headers()['upload-offset'] ?? 0));
  });
  return {
    offsets, heads,
    /** Uploads created (POST): more than one would mean the upload started over. */
    creations: () => posts,
    /** Bytes put on the wire by PATCH requests, each counted in full even when cut. */
    sent: () => offsets.reduce((n, o) => n + Math.min(CHUNK, size - o), 0),
  };
}

export async function throttle(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW);
  return cdp;
}

/** Cuts the connection for `ms` and restores the slow network. */
export async function cut(cdp: CDPSession, ms: number) {
  await cdp.send('Network.emulateNetworkConditions', { ...SLOW, offline: true });
  await new Promise((r) => setTimeout(r, ms));
  await cdp.send('Network.emulateNetworkConditions', SLOW);
}


/**
 * Holds every `method` request to a URL matching `url` until `release()` (a gate the test opens, never a timer);
 * `seen.n` counts them. Other methods, and held requests once released, go on to the next route or the network.
 */
export async function hold(page: Page, url: string | RegExp, method: string): Promise<{ release: () => void; seen: { n: number } }> {
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const seen = { n: 0 };
  await page.route(url, async (route) => {
    if (route.request().method() !== method) return route.fallback();
    seen.n++;
    await gate;
    await route.fallback();
  });
  return { release, seen };
}
