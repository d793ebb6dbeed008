import { describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import supertest from 'supertest';
import etag from 'etag';
import { siteMiddleware, type SiteStatus } from './serve.ts';

/** A build folder under a dot-folder, like the default DATA_DIR `.data` (issue #11). */
function buildUnderDotFolder(): string {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'serve-'));
  const dir = path.join(base, 'check out', '.data', 'site', 'builds', '1');
  fs.mkdirSync(path.join(dir, 'about'), { recursive: true });
  fs.mkdirSync(path.join(dir, '.git'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><h1>Home</h1>');
  fs.writeFileSync(path.join(dir, 'about', 'index.html'), '<!doctype html><h1>About</h1>');
  fs.writeFileSync(path.join(dir, '404.html'), '<!doctype html><h1>Page Not Found</h1>');
  fs.writeFileSync(path.join(dir, '.env'), 'SECRET=1');
  fs.writeFileSync(path.join(dir, '.git', 'config'), '[core]');
  return dir;
}

describe('static site under any DATA_DIR (issue #11)', () => {
  it('serves pages when the build lives inside a dot-folder and a folder with a space', async () => {
    const app = express().use(siteMiddleware({ dir: buildUnderDotFolder }));
    const home = await supertest(app).get('/');
    expect(home.status).toBe(200);
    expect(home.text).toContain('Home');
    expect((await supertest(app).get('/about')).text).toContain('About');
  });

  it('never serves dot-files of the URL path: /.env, /.git/config and /.data answer 404', async () => {
    const dir = buildUnderDotFolder();
    const app = express().use(siteMiddleware({ dir: () => dir }));
    for (const p of ['/.env', '/.git/config', '/.data', '/%2eenv', '/about/../.env']) {
      const res = await supertest(app).get(p);
      expect(res.status, p).toBe(404);
      expect(res.text, p).not.toContain('SECRET');
    }
  });

  it('while no build is live, the 503 page says what is happening: building, failed with a retry, or API-only', async () => {
    let status: SiteStatus = { state: 'building', failures: 0, retryInMs: null };
    const app = express().use(siteMiddleware({ dir: () => null, status: () => status }));
    const building = await supertest(app).get('/');
    expect(building.status).toBe(503);
    expect(building.text).toContain('The site is being prepared');

    status = { state: 'failed', failures: 2, retryInMs: 19_500 };
    const failed = await supertest(app).get('/courses');
    expect(failed.status).toBe(503);
    expect(failed.text).toContain('could not be built (2 attempts so far)');
    expect(failed.text).toContain('in 20 seconds');
    expect(failed.headers['retry-after']).toBe('20');

    status = { state: 'disabled', failures: 0, retryInMs: null };
    expect((await supertest(app).get('/')).text).toContain('API only (SITE_BUILD=never)');
  });

  it('a hashed asset under /_astro carries nosniff, CORP and a one-year immutable cache, not the document-only headers (issue #17)', async () => {
    const dir = buildUnderDotFolder();
    fs.mkdirSync(path.join(dir, '_astro'));
    fs.writeFileSync(path.join(dir, '_astro', 'app.AbCdEf12.js'), 'console.log(1)');
    const app = express()
      .use((_req, res, next) => { res.setHeader('Content-Security-Policy', "default-src 'self'"); res.setHeader('X-Frame-Options', 'SAMEORIGIN'); res.setHeader('Cross-Origin-Resource-Policy', 'same-origin'); next(); })
      .use(siteMiddleware({ dir: () => dir }));
    const js = await supertest(app).get('/_astro/app.AbCdEf12.js');
    expect(js.status).toBe(200);
    expect(js.text).toBe('console.log(1)');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    expect(js.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(js.headers['content-security-policy']).toBeUndefined();
    expect(js.headers['x-frame-options']).toBeUndefined();
    const page = await supertest(app).get('/about');
    expect(page.headers['content-security-policy']).toBe("default-src 'self'");
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(page.headers['cache-control']).toBe('no-cache');
  });

  it('the favicon is cached for a week, so a page outside the service worker does not fetch it again; pages stay no-cache (issue #17)', async () => {
    const dir = buildUnderDotFolder();
    fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const app = express().use(siteMiddleware({ dir: () => dir }));
    const icon = await supertest(app).get('/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers['cache-control']).toBe('public, max-age=604800');
    expect(icon.headers.etag).toBeTruthy();
    expect((await supertest(app).get('/about')).headers['cache-control']).toBe('no-cache');
  });

  it('a page revalidates by its ETag alone: no Last-Modified or Accept-Ranges, and a matching If-None-Match answers 304 (issue #17)', async () => {
    const dir = buildUnderDotFolder();
    const app = express().use(siteMiddleware({ dir: () => dir }));
    const page = await supertest(app).get('/about');
    expect(page.status).toBe(200);
    expect(page.headers.etag).toBeTruthy();
    expect(page.headers['last-modified']).toBeUndefined();
    expect(page.headers['accept-ranges']).toBeUndefined();
    const again = await supertest(app).get('/about').set('If-None-Match', page.headers.etag!);
    expect(again.status).toBe(304);
  });

  it('a 304 for a page carries its CSP and other document headers, so a deploy that changes a policy but no page still reaches the browser', async () => {
    const dir = buildUnderDotFolder();
    let policy = "script-src 'self'";
    const documentHeaders = (_req: express.Request, res: express.Response, next: express.NextFunction) => {
      res.setHeader('Content-Security-Policy', policy);
      res.setHeader('Permissions-Policy', 'camera=()');
      next();
    };
    const app = express().use(documentHeaders, siteMiddleware({ dir: () => dir }));
    const page = await supertest(app).get('/about').set('Accept-Encoding', 'gzip');
    policy = "script-src 'none'";
    const again = await supertest(app).get('/about').set('Accept-Encoding', 'gzip').set('If-None-Match', page.headers.etag!);
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(page.headers.etag);
    expect(again.headers['content-security-policy']).toBe("script-src 'none'");
    expect(again.headers['permissions-policy']).toBe('camera=()');
  });

  it('/r, the set-password link of a walk-in SMS, is the reset-password page itself (the token stays in the fragment, never sent here)', async () => {
    const dir = buildUnderDotFolder();
    fs.mkdirSync(path.join(dir, 'reset-password'));
    fs.writeFileSync(path.join(dir, 'reset-password', 'index.html'), '<!doctype html><h1>Choose a new password</h1>');
    const app = express().use(siteMiddleware({ dir: () => dir }));
    for (const p of ['/r', '/r/']) {
      const res = await supertest(app).get(p);
      expect(res.status, p).toBe(200);
      expect(res.text, p).toContain('Choose a new password');
      expect(res.headers['cache-control'], p).toBe('no-cache');
    }
    expect((await supertest(app).get('/r/x')).status).toBe(404);
  });
});

/** A build whose /about page (3 KB, so `compression` encodes it) has a `.br` copy, and whose /contact page has none. */
async function buildWithCodings() {
  const dir = buildUnderDotFolder();
  const zlib = await import('node:zlib');
  const html = `<!doctype html><h1>About</h1>${'<p>Vhembe Skills College, Thohoyandou.</p>'.repeat(80)}`;
  fs.writeFileSync(path.join(dir, 'about', 'index.html'), html);
  fs.writeFileSync(path.join(dir, 'about', 'index.html.br'), zlib.brotliCompressSync(html));
  fs.mkdirSync(path.join(dir, 'contact'));
  fs.writeFileSync(path.join(dir, 'contact', 'index.html'), html.replace('About', 'Contact'));
  return express().use(siteMiddleware({ dir: () => dir }));
}

/** GET `p` with `acceptEncoding` (and `ifNoneMatch` when given): status, ETag and Content-Encoding. */
async function get(app: express.Express, p: string, acceptEncoding: string, ifNoneMatch?: string) {
  const req = supertest(app).get(p).set('Accept-Encoding', acceptEncoding);
  const res = await (ifNoneMatch ? req.set('If-None-Match', ifNoneMatch) : req);
  return { status: res.status, etag: res.headers.etag as string | undefined, coding: res.headers['content-encoding'] as string | undefined };
}

describe('an ETag per content coding of a page (RFC 9110 §8.8.3)', () => {
  it('identity, the gzip compression makes, the .br copy and the br compression makes carry the file\'s tag, "-gzip" and "-br"', async () => {
    const app = await buildWithCodings();
    const identity = await get(app, '/about', 'identity');
    expect(identity.coding).toBeUndefined();
    expect(identity.etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    const gzip = await get(app, '/about', 'gzip');
    expect(gzip.coding).toBe('gzip');
    expect(gzip.etag).toBe(identity.etag!.replace(/"$/, '-gzip"'));
    const brCopy = await get(app, '/about', 'gzip, deflate, br, zstd');
    expect(brCopy.coding).toBe('br');
    expect(brCopy.etag).toBe(identity.etag!.replace(/"$/, '-br"'));
    const contact = await get(app, '/contact', 'identity');
    const brMade = await get(app, '/contact', 'br');
    expect(brMade.coding).toBe('br');
    expect(brMade.etag).toBe(contact.etag!.replace(/"$/, '-br"'));
  });

  it('no 304 for the tag of a coding the request does not take; a 304, with the tag held, for one it may be given', async () => {
    const app = await buildWithCodings();
    const identity = (await get(app, '/about', 'identity')).etag!;
    const gzip = identity.replace(/"$/, '-gzip"');
    const br = identity.replace(/"$/, '-br"');
    expect(await get(app, '/about', 'identity', gzip), 'gzip tag, identity request').toEqual({ status: 200, etag: identity, coding: undefined });
    expect(await get(app, '/about', 'gzip', br), 'br tag, gzip request').toEqual({ status: 200, etag: gzip, coding: 'gzip' });
    expect(await get(app, '/about', 'br', gzip), 'gzip tag, br request').toEqual({ status: 200, etag: br, coding: 'br' });
    expect(await get(app, '/about', 'gzip', gzip)).toEqual({ status: 304, etag: gzip, coding: undefined });
    expect(await get(app, '/about', 'gzip, deflate, br, zstd', br)).toEqual({ status: 304, etag: br, coding: undefined });
    expect(await get(app, '/about', 'gzip, deflate, br, zstd', `W/"other", ${gzip}`), 'the request takes gzip too').toEqual({ status: 304, etag: gzip, coding: undefined });
    expect(await get(app, '/about', 'br', identity), 'identity is always acceptable').toEqual({ status: 304, etag: identity, coding: undefined });
  });
});

describe('the identity ETag of a page is the one `send` makes', () => {
  it('equals the `etag` package\'s weak stat tag of the file and Express\'s own sendFile tag for it', async () => {
    const dir = buildUnderDotFolder();
    const file = path.join(dir, 'about', 'index.html');
    const page = await supertest(express().use(siteMiddleware({ dir: () => dir }))).get('/about').set('Accept-Encoding', 'identity');
    expect(page.headers.etag).toBe(etag(fs.statSync(file), { weak: true }));
    const bySend = await supertest(express().get('/about', (_req, res) => res.sendFile('about/index.html', { root: dir }))).get('/about');
    expect(bySend.status).toBe(200);
    expect(page.headers.etag).toBe(bySend.headers.etag);
  });

  it('a page found by its path is stat-ed once here (the ETag reuses the stat that found it)', async () => {
    const dir = buildUnderDotFolder();
    const file = path.join(dir, 'about', 'index.html');
    const app = express().use(siteMiddleware({ dir: () => dir }));
    const statSync = vi.spyOn(fs, 'statSync');
    try {
      expect((await supertest(app).get('/about').set('Accept-Encoding', 'identity')).status).toBe(200);
      expect(statSync.mock.calls.filter(([p]) => p === file)).toHaveLength(1);
    } finally {
      statSync.mockRestore();
    }
  });
});

describe('precompressed Brotli copies of the build (issue #17)', () => {
  it('a browser that accepts br gets the .br copy with its own type; one that does not gets the file itself', async () => {
    const dir = buildUnderDotFolder();
    const zlib = await import('node:zlib');
    const script = `export const courses = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `Course ${i}`))};`;
    fs.mkdirSync(path.join(dir, '_astro'), { recursive: true });
    fs.writeFileSync(path.join(dir, '_astro', 'app.abc123.js'), script);
    fs.writeFileSync(path.join(dir, '_astro', 'app.abc123.js.br'), zlib.brotliCompressSync(script));
    fs.writeFileSync(path.join(dir, 'about', 'index.html.br'), zlib.brotliCompressSync('<!doctype html><h1>About</h1>'));
    const app = express().use(siteMiddleware({ dir: () => dir }));

    const br = await supertest(app).get('/_astro/app.abc123.js').set('Accept-Encoding', 'gzip, deflate, br, zstd');
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(br.text).toBe(script);

    const page = await supertest(app).get('/about').set('Accept-Encoding', 'br');
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('About');

    const plain = await supertest(app).get('/_astro/app.abc123.js').set('Accept-Encoding', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(script);
    const gzip = await supertest(app).get('/_astro/app.abc123.js').set('Accept-Encoding', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.text).toBe(script);
  });
});
