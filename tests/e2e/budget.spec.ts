/**
 * Data budget in bytes (issue #17; bytes are deterministic, time is not): every public page's first HTML response
 * fits in one round trip (≤ 14 KB gzip, 10 TCP segments), carries no inline stylesheet, and links its CSS as one
 * hashed file under /_astro/ served `immutable`, so a second page costs no CSS. Figures: bench/data-budget.ts.
 */
import http from 'node:http';
import { expect, test } from '@playwright/test';

const PUBLIC = ['/', '/courses', '/courses/1', '/about', '/contact', '/assessment-centre', '/terms', '/privacy'];
const HTML_BUDGET = 14 * 1024;

/** Raw (still compressed) body bytes and headers of GET `url` with Accept-Encoding gzip. */
function rawGet(url: string): Promise<{ status: number; bytes: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
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
