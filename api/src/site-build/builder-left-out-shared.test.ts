import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '../db/client.ts';
import { openTestDatabase } from '../test/harness.ts';
import { courses } from '../db/schema/catalogue.ts';
import { S3DocumentStore } from '../storage/s3-store.ts';
import { startS3Server, type TestS3Server } from '../test/s3-server.ts';
import { createBuildShare } from './shared-builds.ts';
import { SiteBuilder } from './builder.ts';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'builder-left-out-shared-'));

describe('pictures left out, with several nodes sharing one build (review: the warning vanished when a fetching node finished last)', () => {
  let database: Database;
  let s3: TestS3Server;
  let store: S3DocumentStore;
  beforeAll(async () => {
    database = await openTestDatabase();
    s3 = await startS3Server({ bucket: 'left-out-shared' });
    store = new S3DocumentStore({ bucket: s3.bucket, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    await store.init();
  });
  afterAll(async () => { await s3.close(); await database.close(); });

  it("a node that downloads the build records the building node's left-out pictures, so lastBuild keeps them whichever node finished last", async () => {
    const url = `http://localhost:4999/shared-${Date.now()}.svg`;
    await database.db.insert(courses).values({ title: 'Shared beekeeping', description: 'Bees.', level: 'certificate', duration: 3, tuitionFee: 'R1', department: 'Business', imageUrl: url });
    const runs = { A: 0, B: 0 };
    const node = (name: 'A' | 'B') => new SiteBuilder({
      db: database.db, dataDir: tmp(), apiUrl: () => 'http://127.0.0.1:1', debounceMs: 0, log: () => {}, retryBaseMs: 3600_000,
      share: createBuildShare({ db: database.db, store, pollMs: 50 }),
      runBuild: async (out, _signal, output) => {
        runs[name] += 1;
        output?.(`[site] image left out, ${url}: localhost is not on the public internet\n`);
        fs.mkdirSync(out, { recursive: true });
        fs.writeFileSync(path.join(out, 'index.html'), `<!doctype html><h1>Built on ${name}</h1>`);
      },
    });
    const a = node('A');
    const b = node('B');
    await a.buildNow('course updated');
    expect((await a.lastBuild())?.leftOut).toEqual([{ course: 'Shared beekeeping', url, reason: 'localhost is not on the public internet' }]);
    await b.buildNow('course updated');
    a.stop();
    b.stop();
    expect(runs).toEqual({ A: 1, B: 0 });
    const last = await b.lastBuild();
    expect(last?.reason).toContain('fetched from another node');
    expect(last).toMatchObject({ status: 'ok', error: null, leftOut: [{ course: 'Shared beekeeping', url, reason: 'localhost is not on the public internet' }] });
  });

  it('a downloaded build with an enormous left-out file records at most 500 pictures, each URL cut to 2 048 characters (security review)', async () => {
    const page = (out: string) => { fs.mkdirSync(out, { recursive: true }); fs.writeFileSync(path.join(out, 'index.html'), '<!doctype html><h1>Home</h1>'); };
    const huge = Array.from({ length: 5000 }, (_, i) => ({ url: `http://localhost/${i}/${'x'.repeat(5000)}`, reason: 'r'.repeat(5000) }));
    const b = new SiteBuilder({ db: database.db, dataDir: tmp(), apiUrl: () => 'http://127.0.0.1:1', debounceMs: 0, log: () => {}, retryBaseMs: 3600_000,
      share: { acquire: async (_hash, out) => { page(out); fs.writeFileSync(path.join(out, '.left-out.json'), JSON.stringify(huge)); return 'fetched'; }, publish: async () => ({ bytes: 1 }), release: async () => {} },
      runBuild: async () => { throw new Error('a fetching node runs no build'); } });
    await b.buildNow('course updated');
    b.stop();
    const last = await b.lastBuild();
    expect(last?.status).toBe('ok');
    expect(last?.leftOut).toHaveLength(500);
    expect(Math.max(...last!.leftOut.map((l) => l.url.length))).toBe(2048);
    expect(Math.max(...last!.leftOut.map((l) => l.reason.length))).toBe(500);
  });

  it("a build shared without the left-out file (an older release built it) takes the notes from the building node's row", async () => {
    const url = `http://localhost:4999/older-${Date.now()}.svg`;
    await database.db.insert(courses).values({ title: 'Older beekeeping', description: 'Bees.', level: 'certificate', duration: 3, tuitionFee: 'R1', department: 'Business', imageUrl: url });
    const page = (out: string) => { fs.mkdirSync(out, { recursive: true }); fs.writeFileSync(path.join(out, 'index.html'), '<!doctype html><h1>Home</h1>'); };
    const a = new SiteBuilder({ db: database.db, dataDir: tmp(), apiUrl: () => 'http://127.0.0.1:1', debounceMs: 0, log: () => {}, retryBaseMs: 3600_000,
      runBuild: async (out, _signal, output) => { output?.(`[site] image left out, ${url}: not an image\n`); page(out); } });
    await a.buildNow('course updated');
    a.stop();
    const b = new SiteBuilder({ db: database.db, dataDir: tmp(), apiUrl: () => 'http://127.0.0.1:1', debounceMs: 0, log: () => {}, retryBaseMs: 3600_000,
      share: { acquire: async (_hash, out) => { page(out); return 'fetched'; }, publish: async () => ({ bytes: 1 }), release: async () => {} },
      runBuild: async () => { throw new Error('a fetching node runs no build'); } });
    await b.buildNow('course updated');
    b.stop();
    expect(await b.lastBuild()).toMatchObject({ status: 'ok', leftOut: [{ course: 'Older beekeeping', url, reason: 'not an image' }] });
  });
});
