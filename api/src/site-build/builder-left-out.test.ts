import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '../db/client.ts';
import { openTestDatabase } from '../test/harness.ts';
import { courses } from '../db/schema/catalogue.ts';
import { SiteBuilder } from './builder.ts';

describe('pictures a build leaves out (admin audit: a course picture dropped silently)', () => {
  let database: Database;
  beforeAll(async () => { database = await openTestDatabase(); });
  afterAll(async () => { await database.close(); });

  it("the build's 'image left out' warning reaches the server log, and lastBuild names the course and the reason", async () => {
    const url = `http://localhost:4999/favicon-${Date.now()}.svg`;
    await database.db.insert(courses).values({ title: 'Beekeeping basics', description: 'Bees.', level: 'certificate', duration: 3, tuitionFee: 'R1', department: 'Business', imageUrl: url });
    const logs: string[] = [];
    const builder = new SiteBuilder({
      db: database.db, dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'builder-left-out-')), apiUrl: () => 'http://127.0.0.1:1', debounceMs: 0, log: (m) => logs.push(m),
      runBuild: async (out, _signal, output) => {
        output?.(`09:00:01 [build] pages\n[site] image left out, ${url}: localhost is not on the public internet\n09:00:02 [build] done\n`);
        fs.mkdirSync(out, { recursive: true });
        fs.writeFileSync(path.join(out, 'index.html'), '<!doctype html><h1>Home</h1>');
      },
    });
    await builder.buildNow('course 1 updated');
    builder.stop();
    expect(logs.filter((l) => l.includes('image left out'))).toEqual([`site: [site] image left out, ${url}: localhost is not on the public internet`]);
    const last = await builder.lastBuild();
    expect(last).toMatchObject({ status: 'ok', error: null, leftOut: [{ course: 'Beekeeping basics', url, reason: 'localhost is not on the public internet' }] });
  });

  it('a picture left out on several pages is recorded once, also when its URL is longer than the 2 048 characters kept', async () => {
    const url = `http://localhost:4999/${'long-'.repeat(600)}${Date.now()}.svg`;
    const builder = new SiteBuilder({
      db: database.db, dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'builder-left-out-')), apiUrl: () => 'http://127.0.0.1:1', debounceMs: 0, log: () => {},
      runBuild: async (out, _signal, output) => {
        output?.(`[site] image left out, ${url}: not an image\n`);
        output?.(`09:00:03 [build] /courses/2\n[site] image left out, ${url}: not an image\n`);
        fs.mkdirSync(out, { recursive: true });
        fs.writeFileSync(path.join(out, 'index.html'), '<!doctype html><h1>Home</h1>');
      },
    });
    await builder.buildNow('course 2 updated');
    builder.stop();
    expect((await builder.lastBuild())?.leftOut.map((l) => l.url)).toEqual([url.slice(0, 2048)]);
  });
});
