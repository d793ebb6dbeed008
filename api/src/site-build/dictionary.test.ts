import { describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import express from 'express';
import supertest from 'supertest';
import { DICTIONARY_INFO, isPageDictionary, pageDictionaryFor, writePageDictionary } from './dictionary.ts';
import { siteMiddleware } from './serve.ts';

const shell = (main: string) => `<!doctype html><html lang="en"><head><title>${main}</title><link rel="stylesheet" href="/_astro/BaseLayout.abc.css"></head><body><header>${'<a href="/courses">Courses</a><a href="/about">About and fees</a>'.repeat(20)}</header><main><h1>${main}</h1></main><footer>${'<p>Tshikombani · Siloam · Biaba Likhade · Tshitavha</p>'.repeat(20)}</footer></body></html>`;

/** A build with the log-in page, two course pages, home and a page in a dot-folder that must never be touched. */
function build(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictionary-'));
  for (const [page, title] of [['login', 'Log in'], ['courses/12', 'Plumbing'], ['courses/3', 'Bookkeeping'], ['', 'Welcome']] as const) {
    fs.mkdirSync(path.join(dir, page), { recursive: true });
    fs.writeFileSync(path.join(dir, page, 'index.html'), shell(title));
  }
  fs.mkdirSync(path.join(dir, '.git'));
  fs.writeFileSync(path.join(dir, '.git', 'x.html'), shell('secret'));
  return dir;
}

/** Decodes a dcz body (RFC 9842 §6.2): 8 magic bytes, the dictionary's SHA-256, a zstd frame made with it. */
function decodeDcz(body: Buffer, dictionary: Buffer): { magic: string; hash: Buffer; text: string } {
  return {
    magic: body.subarray(0, 8).toString('hex'),
    hash: body.subarray(8, 40),
    text: zlib.zstdDecompressSync(body.subarray(40), { dictionary }).toString(),
  };
}

describe('page dictionary of a build (issue #17, RFC 9842)', () => {
  it('is the log-in page then the lowest-numbered course page, and every page gets a dcz copy that decodes with it to the page', async () => {
    const dir = build();
    const r = await writePageDictionary(dir);
    const bytes = Buffer.concat([fs.readFileSync(path.join(dir, 'login', 'index.html')), fs.readFileSync(path.join(dir, 'courses', '3', 'index.html'))]);
    const digest = crypto.createHash('sha256').update(bytes).digest();
    expect(r.dictionary).toEqual({ url: `/_astro/dictionary.${digest.toString('hex').slice(0, 12)}.txt`, hash: digest.toString('base64') });
    expect(r.pages).toBe(4);
    expect(fs.readFileSync(path.join(dir, r.dictionary!.url)).equals(bytes)).toBe(true);
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, `${r.dictionary!.url}.br`))).equals(bytes)).toBe(true);
    expect(pageDictionaryFor(dir)).toEqual(r.dictionary);
    for (const page of ['index.html', 'courses/12/index.html', 'login/index.html']) {
      const original = fs.readFileSync(path.join(dir, page));
      const copy = fs.readFileSync(path.join(dir, `${page}.dcz`));
      const decoded = decodeDcz(copy, bytes);
      expect(decoded.magic).toBe('5e2a4d1820000000');
      expect(decoded.hash.equals(digest)).toBe(true);
      expect(decoded.text).toBe(original.toString());
      expect(copy.length).toBeLessThan(zlib.brotliCompressSync(original).length / 2);
    }
    expect(fs.existsSync(path.join(dir, '.git', 'x.html.dcz'))).toBe(false);
    expect(fs.readdirSync(dir).some((n) => n.endsWith('.tmp'))).toBe(false);
    expect((await writePageDictionary(dir)).pages).toBe(0);
  });

  it('a build without a log-in page or course pages gets none, and an aborted run writes no copies', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'dictionary-'));
    fs.writeFileSync(path.join(empty, 'index.html'), shell('Welcome'));
    expect(await writePageDictionary(empty)).toMatchObject({ dictionary: null, pages: 0 });
    expect(pageDictionaryFor(empty)).toBeNull();
    const dir = build();
    const ctrl = new AbortController();
    ctrl.abort();
    expect((await writePageDictionary(dir, ctrl.signal)).pages).toBe(0);
    expect(fs.existsSync(path.join(dir, 'index.html.dcz'))).toBe(false);
  });

  it('only /_astro/dictionary.<12 hex>.txt is a dictionary URL', () => {
    expect(isPageDictionary('/_astro/dictionary.0123456789ab.txt')).toBe(true);
    for (const p of ['/_astro/dictionary.txt', '/dictionary.0123456789ab.txt', '/_astro/dictionary.0123456789ab.txt.br', '/_astro/app.0123456789ab.js']) expect(isPageDictionary(p)).toBe(false);
  });
});

describe('serving pages with the dictionary (issue #17)', () => {
  async function served() {
    const dir = build();
    const { dictionary } = await writePageDictionary(dir);
    fs.writeFileSync(path.join(dir, 'login', 'index.html.br'), zlib.brotliCompressSync(fs.readFileSync(path.join(dir, 'login', 'index.html'))));
    return { dir, dictionary: dictionary!, app: express().use(siteMiddleware({ dir: () => dir })) };
  }

  it('a browser without the dictionary gets Brotli and a Link to it; one that names it and takes dcz gets the dcz copy', async () => {
    const { dir, dictionary, app } = await served();
    const first = await supertest(app).get('/login').set('Accept-Encoding', 'gzip, deflate, br, zstd');
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.link).toBe(`<${dictionary.url}>; rel="compression-dictionary"`);
    expect(first.headers.vary).toMatch(/Accept-Encoding.*Available-Dictionary/i);

    const dict = await supertest(app).get(dictionary.url).set('Accept-Encoding', 'br');
    expect(dict.headers['use-as-dictionary']).toBe('match="/*", match-dest=("document" "")');
    expect(dict.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(dict.headers['content-encoding']).toBe('br');
    const bytes = fs.readFileSync(path.join(dir, dictionary.url));

    const next = await supertest(app).get('/courses/12').set('Accept-Encoding', 'gzip, deflate, br, zstd, dcb, dcz').set('Available-Dictionary', `:${dictionary.hash}:`)
      .buffer(true).parse((res, done) => { const chunks: Buffer[] = []; res.on('data', (c: Buffer) => chunks.push(c)); res.on('end', () => done(null, Buffer.concat(chunks))); });
    expect(next.headers['content-encoding']).toBe('dcz');
    expect(next.headers['content-type']).toMatch(/^text\/html/);
    expect(next.headers.link).toBeUndefined();
    expect(next.headers.vary).toMatch(/Available-Dictionary/i);
    expect(next.headers.etag).toMatch(/-dcz"$/);
    expect(decodeDcz(next.body as Buffer, bytes).text).toBe(fs.readFileSync(path.join(dir, 'courses', '12', 'index.html'), 'utf8'));

    const revalidated = await supertest(app).get('/courses/12').set('Accept-Encoding', 'br, dcz').set('Available-Dictionary', `:${dictionary.hash}:`).set('If-None-Match', next.headers.etag);
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.etag).toBe(next.headers.etag);
    expect(revalidated.headers.vary).toMatch(/Available-Dictionary/i);
    expect(revalidated.headers.link).toBeUndefined();

    // A browser (or a cache answering for one) holding another dictionary also offers dcz: the dcz copy held is not
    // confirmed to it, since its bytes need this build's dictionary; it gets the page.
    const otherDictionary = await supertest(app).get('/courses/12').set('Accept-Encoding', 'br, dcz')
      .set('Available-Dictionary', ':AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=:').set('If-None-Match', next.headers.etag);
    expect(otherDictionary.status).toBe(200);
    expect(otherDictionary.headers['content-encoding']).not.toBe('dcz');
  });

  it('a page whose dcz copy is missing goes out as Brotli; an unknown dictionary URL is a 404 that offers no dictionary', async () => {
    const { dir, dictionary, app } = await served();
    fs.rmSync(path.join(dir, 'login', 'index.html.dcz'));
    const page = await supertest(app).get('/login').set('Accept-Encoding', 'br, dcz').set('Available-Dictionary', `:${dictionary.hash}:`);
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.text).toContain('<h1>Log in</h1>');
    const missing = await supertest(app).get('/_astro/dictionary.000000000000.txt');
    expect(missing.status).toBe(404);
    expect(missing.headers['use-as-dictionary']).toBeUndefined();
  });

  it('an older dictionary, or one named without dcz in Accept-Encoding, gets Brotli or the file; a script never varies on it', async () => {
    const { dictionary, app } = await served();
    const stale = await supertest(app).get('/login').set('Accept-Encoding', 'br, dcz').set('Available-Dictionary', ':AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=:');
    expect(stale.headers['content-encoding']).toBe('br');
    expect(stale.headers.link).toBe(`<${dictionary.url}>; rel="compression-dictionary"`);
    const noDcz = await supertest(app).get('/login').set('Accept-Encoding', 'br').set('Available-Dictionary', `:${dictionary.hash}:`);
    expect(noDcz.headers['content-encoding']).toBe('br');
    expect(noDcz.text).toContain('<h1>Log in</h1>');
    const identity = await supertest(app).get('/').set('Accept-Encoding', 'identity').set('Available-Dictionary', `:${dictionary.hash}:`);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.text).toContain('<h1>Welcome</h1>');
    const asset = await supertest(app).get(dictionary.url).set('Accept-Encoding', 'br, dcz').set('Available-Dictionary', `:${dictionary.hash}:`);
    expect(asset.headers.vary ?? '').not.toMatch(/Available-Dictionary/i);
    expect(asset.headers.link).toBeUndefined();
  });

  it('a build whose dictionary is not written yet is served as before, with no Link, and the dictionary is named only once every page has its copy', async () => {
    const dir = build();
    const ctrl = new AbortController();
    const run = writePageDictionary(dir, ctrl.signal);
    ctrl.abort();
    expect((await run).dictionary).toBeNull();
    expect(fs.existsSync(path.join(dir, DICTIONARY_INFO))).toBe(false);
    const res = await supertest(express().use(siteMiddleware({ dir: () => dir }))).get('/login').set('Accept-Encoding', 'br, dcz');
    expect(res.status).toBe(200);
    expect(res.headers.link).toBeUndefined();
    expect(res.headers.vary ?? '').not.toMatch(/Available-Dictionary/i);
  });
});
