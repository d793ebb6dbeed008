import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import supertest from 'supertest';
import type { Database } from '../db/client.ts';
import { openTestDatabase } from '../test/harness.ts';
import { SiteBuilder } from './builder.ts';
import { siteMiddleware } from './serve.ts';
import { KEEP_BUILDS_MS, KEEP_NEWEST_BUILDS, pruneBuilds } from './kept-builds.ts';

const HOUR = 3600_000;
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'kept-builds-'));

/** A finished build folder as builder.ts leaves it: pages, its csp.json and one hashed chunk per build. */
function fakeBuild(out: string, n: number): void {
  fs.mkdirSync(path.join(out, '_astro'), { recursive: true });
  fs.writeFileSync(path.join(out, 'index.html'), `<!doctype html><h1>Build ${n}</h1><script type="module" src="/_astro/ReviewStep.hash${n}.js"></script>`);
  fs.writeFileSync(path.join(out, '404.html'), '<!doctype html><h1>Page Not Found</h1>');
  fs.writeFileSync(path.join(out, '_astro', `ReviewStep.hash${n}.js`), `export const build = ${n};`);
}

describe('a tab opened before a deploy or a publish (audit: the site changes under an open tab)', () => {
  let database: Database;
  beforeAll(async () => { database = await openTestDatabase(); });
  afterAll(async () => { await database.close(); });

  it("an old build's chunk is still served, immutable, after a publish swaps the build and after a restart on new code", async () => {
    const dataDir = tmp();
    let n = 0;
    const start = () => new SiteBuilder({ db: database.db, dataDir, apiUrl: () => '', debounceMs: 0, runBuild: async (out) => fakeBuild(out, ++n) });
    let builder = start();
    await builder.buildNow('start-up', { force: true });
    const app = express().use(siteMiddleware({ dir: () => builder.dir(), earlierAsset: (name) => builder.earlierAsset(name) }));
    expect((await supertest(app).get('/')).text).toContain('Build 1');

    await builder.buildNow('a picture changed', { force: true });
    expect((await supertest(app).get('/')).text).toContain('Build 2');
    const old = await supertest(app).get('/_astro/ReviewStep.hash1.js');
    expect(old.status).toBe(200);
    expect(old.text).toBe('export const build = 1;');
    expect(old.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(old.headers['content-type']).toMatch(/javascript/);

    // A code deploy: the node restarts on the same DATA_DIR and builds new code.
    builder.stop();
    builder = start();
    expect((await supertest(app).get('/_astro/ReviewStep.hash1.js')).status).toBe(200);
    await builder.buildNow('start-up', { force: true });
    expect((await supertest(app).get('/')).text).toContain('Build 3');
    for (const k of [1, 2, 3]) expect((await supertest(app).get(`/_astro/ReviewStep.hash${k}.js`)).text).toBe(`export const build = ${k};`);

    // Only files of the builds' _astro folders: no other name, no way out of them.
    for (const p of ['/_astro/ReviewStep.hash9.js', '/_astro/..%2findex.html', '/_astro/%2e%2e/%2e%2e/current.json', '/_astro/..%2f..%2fcurrent.json', '/_astro/%E0%A4%A', '/_astro/']) {
      const res = await supertest(app).get(p);
      expect(res.status, p).toBe(404);
      expect(res.text, p).not.toContain('"hash"');
    }
    builder.stop();
  });

  it(`pruning keeps the ${KEEP_NEWEST_BUILDS} newest builds and every build replaced less than a day ago, and removes the rest`, () => {
    const dir = tmp();
    const now = Date.parse('2026-11-26T10:00:00Z');
    const make = (startedMsAgo: number, id: number, complete = true) => {
      const b = path.join(dir, `${now - startedMsAgo}-${id}`);
      fs.mkdirSync(b, { recursive: true });
      fs.writeFileSync(path.join(b, 'index.html'), 'x');
      if (complete) fs.writeFileSync(path.join(b, 'csp.json'), '{}');
      return b;
    };
    const months = make(90 * 24 * HOUR, 1); // live for months, replaced by build 2 an hour ago
    const b2 = make(HOUR, 2);
    const b3 = make(HOUR / 2, 3);
    const b4 = make(HOUR / 4, 4);
    const failed = make(HOUR / 8, 5, false); // a build that failed (no csp.json): of no use to any tab
    const live = make(0, 6);
    const exists = (b: string) => fs.existsSync(b);

    // Six builds on one busy morning: all kept (open tabs may hold any of them), except the failed one.
    expect(pruneBuilds(dir, live, now)).toEqual([b4, b3, b2, months]);
    expect(exists(failed)).toBe(false);

    // A day after build 2 replaced the months-old build, that one goes; builds 3 and 4 were replaced less than a day ago.
    expect(pruneBuilds(dir, live, now - HOUR + KEEP_BUILDS_MS - 1)).toEqual([b4, b3, b2, months]);
    expect(pruneBuilds(dir, live, now - HOUR + KEEP_BUILDS_MS + 1)).toEqual([b4, b3, b2]);
    expect(exists(months)).toBe(false);

    // Two days on, only the newest three remain (the live one and the two before it), however old.
    expect(pruneBuilds(dir, live, now + 2 * KEEP_BUILDS_MS)).toEqual([b4, b3]);
    expect([b2, months].map(exists)).toEqual([false, false]);
    expect([live, b4, b3].map(exists)).toEqual([true, true, true]);
  });
});
