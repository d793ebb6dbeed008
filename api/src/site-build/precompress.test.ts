import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { precompressBuild } from './precompress.ts';

/** A small build: a page, a hashed script, a tiny file and an image. */
function build(root: string, page: string): string {
  const dir = fs.mkdtempSync(path.join(root, 'build-'));
  fs.mkdirSync(path.join(dir, '_astro'));
  fs.writeFileSync(path.join(dir, 'index.html'), page);
  fs.writeFileSync(path.join(dir, '_astro', 'app.abc123.js'), `export const list = ${JSON.stringify(Array.from({ length: 300 }, (_, i) => `course ${i}`))};`);
  fs.writeFileSync(path.join(dir, 'robots.txt'), 'User-agent: *');
  fs.writeFileSync(path.join(dir, '_astro', 'hero.webp'), Buffer.alloc(4096, 7));
  return dir;
}

describe('Brotli copies of a build (issue #17)', () => {
  it('writes a .br copy that decodes to each compressible file of 1 KB or more, reuses hashed copies in a later build, and skips what it has done', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'precompress-'));
    const cache = path.join(root, 'cache');
    const page = `<!doctype html><h1>Courses</h1>${'<p>Plumbing, welding and bookkeeping.</p>'.repeat(60)}`;
    const first = build(root, page);
    const r1 = await precompressBuild(first, cache);
    expect(r1).toMatchObject({ compressed: 2, reused: 0, present: 0 });
    const js = fs.readFileSync(path.join(first, '_astro', 'app.abc123.js'));
    const jsBr = fs.readFileSync(path.join(first, '_astro', 'app.abc123.js.br'));
    expect(zlib.brotliDecompressSync(jsBr).equals(js)).toBe(true);
    expect(jsBr.length).toBeLessThan(js.length / 3);
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(first, 'index.html.br'))).toString()).toBe(page);
    expect(fs.existsSync(path.join(first, 'robots.txt.br'))).toBe(false);
    expect(fs.existsSync(path.join(first, '_astro', 'hero.webp.br'))).toBe(false);
    expect(fs.readdirSync(first).some((n) => n.endsWith('.tmp'))).toBe(false);

    expect(await precompressBuild(first, cache)).toMatchObject({ compressed: 0, reused: 0, present: 2 });
    const second = build(root, page.replace('Courses', 'Short courses'));
    expect(await precompressBuild(second, cache)).toMatchObject({ compressed: 1, reused: 1 });
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(second, 'index.html.br'))).toString()).toContain('Short courses');
  });

  it('stops without error when its build is replaced (aborted)', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'precompress-'));
    const dir = build(root, `<!doctype html>${'<p>x</p>'.repeat(500)}`);
    const ctrl = new AbortController();
    ctrl.abort();
    expect(await precompressBuild(dir, path.join(root, 'cache'), ctrl.signal)).toMatchObject({ compressed: 0, reused: 0 });
    expect(fs.existsSync(path.join(dir, 'index.html.br'))).toBe(false);
  });
});
