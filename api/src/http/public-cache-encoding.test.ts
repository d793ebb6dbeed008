import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import http from 'node:http';
import zlib from 'node:zlib';
import { startTestApp, DB_KIND, type TestApp } from '../test/harness.ts';
import { acceptedEncoding } from './encoded-body.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });
afterEach(() => { vi.restoreAllMocks(); });

/** Accept-Encoding as Chromium sends it. */
const CHROMIUM = 'gzip, deflate, br, zstd';

/** GET `path` over node:http, which never decodes: status, headers and the bytes exactly as sent. */
function wire(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(`${t.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

/** Spies on every zlib compressor the app or the compression package could use; `calls()` sums their calls. */
function spyOnCompressors() {
  const spies = (['gzipSync', 'createGzip', 'deflateSync', 'createDeflate', 'brotliCompressSync', 'createBrotliCompress'] as const)
    .map((name) => vi.spyOn(zlib, name));
  return { calls: () => spies.reduce((n, s) => n + s.mock.calls.length, 0) };
}

describe(`public read cache, encoded entries (${DB_KIND})`, () => {
  it('a cached GET /api/courses with Accept-Encoding: gzip is gzip, decodes to the identity JSON, with its own Content-Length, Vary and ETag', async () => {
    const plain = await wire('/api/courses', { 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    for (const attempt of ['hit 1', 'hit 2']) {
      const res = await wire('/api/courses', { 'accept-encoding': 'gzip' });
      expect(res.status, attempt).toBe(200);
      expect(res.headers['content-encoding'], attempt).toBe('gzip');
      expect(res.headers.vary, attempt).toMatch(/accept-encoding/i);
      expect(res.headers['content-length'], attempt).toBe(String(res.bytes.length));
      expect(res.headers.etag, attempt).toBe(String(plain.headers.etag).replace(/"$/, '-gzip"'));
      expect(res.headers['content-security-policy'], attempt).toBe(plain.headers['content-security-policy']);
      expect(JSON.parse(zlib.gunzipSync(res.bytes).toString('utf8'))).toEqual(JSON.parse(plain.bytes.toString('utf8')));
    }
    const browser = await wire('/api/courses', { 'accept-encoding': CHROMIUM });
    expect(browser.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(browser.bytes).toString('utf8'))).toEqual(JSON.parse(plain.bytes.toString('utf8')));
  });

  it('a cached entry is encoded once: later reads with gzip or a browser\'s Accept-Encoding call no zlib compressor', async () => {
    await wire('/api/courses?encoded-once=1', { 'accept-encoding': CHROMIUM }); // the miss makes the entry
    const zlibCalls = spyOnCompressors();
    for (const acceptEncoding of [CHROMIUM, 'gzip', CHROMIUM, 'gzip', 'br']) {
      const res = await wire('/api/courses?encoded-once=1', { 'accept-encoding': acceptEncoding });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toMatch(/^(gzip|br)$/);
    }
    expect(zlibCalls.calls(), 'zlib compressor calls for 5 cached reads').toBe(0);
  });

  it('a cached read by a caller with a stale session cookie (past the fast path) is not compressed again either', async () => {
    const stale = { cookie: 'college.sid=s%3Anot-a-session.x', 'accept-encoding': 'gzip' };
    await wire('/api/courses?stale-cookie=1', stale);
    const zlibCalls = spyOnCompressors();
    const res = await wire('/api/courses?stale-cookie=1', stale);
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(zlibCalls.calls()).toBe(0);
    expect(JSON.parse(zlib.gunzipSync(res.bytes).toString('utf8')).courses.length).toBeGreaterThan(0);
  });

  it('identity when no encoding is accepted: no header, identity, gzip;q=0', async () => {
    const first = await wire('/api/courses');
    for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'gzip;q=0, br;q=0' }] as Record<string, string>[]) {
      const res = await wire('/api/courses', headers);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding'], JSON.stringify(headers)).toBeUndefined();
      expect(res.headers['content-length']).toBe(String(res.bytes.length));
      expect(res.bytes.equals(first.bytes)).toBe(true);
    }
  });

  it('If-None-Match with the tag of the encoding sent answers a bare 304, with that tag and Vary', async () => {
    for (const acceptEncoding of [CHROMIUM, 'gzip', 'identity']) {
      const { headers } = await wire('/api/courses', { 'accept-encoding': acceptEncoding });
      const res = await wire('/api/courses', { 'accept-encoding': acceptEncoding, 'if-none-match': String(headers.etag) });
      expect(res.status, acceptEncoding).toBe(304);
      expect(res.bytes.length).toBe(0);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.etag).toBe(headers.etag);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
    }
  });
});

/** The three representations of a read ≥ 1 KB, as the cache sends them: identity, gzip and br. */
async function tagsOf(path: string) {
  const identity = String((await wire(path, { 'accept-encoding': 'identity' })).headers.etag);
  const gzip = String((await wire(path, { 'accept-encoding': 'gzip' })).headers.etag);
  const br = String((await wire(path, { 'accept-encoding': CHROMIUM })).headers.etag);
  return { identity, gzip, br };
}

/** The ways a read reaches the cache: the fast path, the middleware (a stale session cookie), a miss (no-cache). */
const ROUTES: [string, Record<string, string>][] = [['fast path', {}], ['middleware hit', { cookie: 'college.sid=s%3Anot-a-session.x' }], ['miss', { 'cache-control': 'no-cache' }]];

describe(`public read cache, an ETag per encoding (RFC 9110 §8.8.3) (${DB_KIND})`, () => {
  it('identity, gzip and br bodies carry three different ETags: the hash, "<hash>-gzip" and "<hash>-br"', async () => {
    for (const [route, extra] of ROUTES) {
      const identity = String((await wire('/api/courses', { ...extra, 'accept-encoding': 'identity' })).headers.etag);
      const gzip = (await wire('/api/courses', { ...extra, 'accept-encoding': 'gzip' })).headers.etag;
      const br = (await wire('/api/courses', { ...extra, 'accept-encoding': CHROMIUM })).headers.etag;
      expect(identity, route).toMatch(/^"[\w-]+"$/);
      expect(gzip, route).toBe(identity.replace(/"$/, '-gzip"'));
      expect(br, route).toBe(identity.replace(/"$/, '-br"'));
    }
  });

  it('no 304 for a tag of an encoding the request does not take: the gzip tag with identity, the br tag with gzip', async () => {
    const tags = await tagsOf('/api/courses');
    for (const [route, extra] of ROUTES) {
      const identity = await wire('/api/courses', { ...extra, 'accept-encoding': 'identity', 'if-none-match': tags.gzip });
      expect(identity.status, `${route}: gzip tag, identity request`).toBe(200);
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(identity.bytes.toString('utf8')).courses.length).toBeGreaterThan(0);
      const gzip = await wire('/api/courses', { ...extra, 'accept-encoding': 'gzip', 'if-none-match': tags.br });
      expect(gzip.status, `${route}: br tag, gzip request`).toBe(200);
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gzip.headers.etag).toBe(tags.gzip);
    }
  });

  it('a 304 carries the tag the request holds when it names a body the request takes: identity always, another accepted encoding, a list, W/, *', async () => {
    const tags = await tagsOf('/api/courses');
    const cases: [string, string, string, string][] = [
      // [Accept-Encoding, If-None-Match, the 304's ETag, why]
      [CHROMIUM, tags.br, tags.br, 'the br body a br request gets'],
      [CHROMIUM, tags.identity, tags.identity, 'identity is always acceptable'],
      ['gzip', tags.identity, tags.identity, 'identity is always acceptable'],
      [CHROMIUM, tags.gzip, tags.gzip, 'the request takes gzip too'],
      [CHROMIUM, `"other", ${tags.gzip}, ${tags.br}`, tags.br, 'the chosen one first in a list'],
      ['gzip', `W/${tags.gzip}`, tags.gzip, 'weak comparison'],
      ['gzip', '*', tags.gzip, 'any current body'],
    ];
    for (const [route, extra] of ROUTES) {
      for (const [acceptEncoding, ifNoneMatch, etag, why] of cases) {
        const res = await wire('/api/courses', { ...extra, 'accept-encoding': acceptEncoding, 'if-none-match': ifNoneMatch });
        expect(res.status, `${route}: ${why}`).toBe(304);
        expect(res.headers.etag, `${route}: ${why}`).toBe(etag);
        expect(res.bytes.length).toBe(0);
      }
    }
  });
});

describe('acceptedEncoding (RFC 9110 §12.5.3)', () => {
  it('takes the highest q among br and gzip, br first at equal q, identity otherwise', () => {
    expect(acceptedEncoding(undefined)).toBe('identity');
    expect(acceptedEncoding(CHROMIUM)).toBe('br');
    expect(acceptedEncoding('gzip, deflate')).toBe('gzip');
    expect(acceptedEncoding('br;q=0.5, gzip')).toBe('gzip');
    expect(acceptedEncoding('GZIP;Q=0.8, br;q=0')).toBe('gzip');
    expect(acceptedEncoding('*')).toBe('br');
    expect(acceptedEncoding('*;q=0.5, br;q=0')).toBe('gzip');
    expect(acceptedEncoding('deflate, identity')).toBe('identity');
  });
});
