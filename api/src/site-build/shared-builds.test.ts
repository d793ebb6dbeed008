import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { openTestDatabase } from '../test/harness.ts';
import { sharedSiteBuilds } from '../db/schema/system.ts';
import { S3DocumentStore } from '../storage/s3-store.ts';
import { startS3Server, type TestS3Server } from '../test/s3-server.ts';
import { createBuildShare, type BuildShare } from './shared-builds.ts';
import { SiteBuilder } from './builder.ts';
import { announcements } from '../db/schema/messaging.ts';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'shared-build-'));
const newHash = () => crypto.randomBytes(32).toString('hex');

/** A build folder as `astro build` leaves it: pages and a hashed asset. */
function fakeBuild(dir: string, label: string): void {
  fs.mkdirSync(path.join(dir, '_astro'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'courses', '1'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><h1>${label}</h1>`);
  fs.writeFileSync(path.join(dir, 'courses', '1', 'index.html'), `<!doctype html><h1>Course of ${label}</h1>`);
  fs.writeFileSync(path.join(dir, '_astro', 'site.Ab12Cd34.css'), 'body{margin:0}'.repeat(500));
}

describe('one static build per content change across nodes (issue #13)', () => {
  let database: Database;
  let s3: TestS3Server;
  let store: S3DocumentStore;
  /** Two nodes' view of the share: same database and store, own timers. */
  let nodeA: BuildShare;
  let nodeB: BuildShare;

  beforeAll(async () => {
    database = await openTestDatabase();
    s3 = await startS3Server({ bucket: 'shared-builds' });
    store = new S3DocumentStore({ bucket: s3.bucket, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    await store.init();
    nodeA = createBuildShare({ db: database.db, store, pollMs: 50 });
    nodeB = createBuildShare({ db: database.db, store, pollMs: 50 });
  });
  afterAll(async () => { await s3.close(); await database.close(); });

  it("the first node to ask builds; the second waits and gets the first's files byte for byte", async () => {
    const hash = newHash();
    const built = tmp();
    const fetched = path.join(tmp(), 'build');
    expect(await nodeA.acquire(hash, path.join(tmp(), 'unused'), new AbortController().signal)).toBe('claimed');
    const waiting = nodeB.acquire(hash, fetched, new AbortController().signal);
    fakeBuild(built, 'Build of node A');
    const { bytes } = await nodeA.publish(hash, built);
    expect(await waiting).toBe('fetched');
    for (const file of ['index.html', 'courses/1/index.html', '_astro/site.Ab12Cd34.css']) {
      expect(fs.readFileSync(path.join(fetched, file)), file).toEqual(fs.readFileSync(path.join(built, file)));
    }
    const [row] = await database.db.select().from(sharedSiteBuilds).where(eq(sharedSiteBuilds.contentHash, hash));
    expect(row).toMatchObject({ status: 'ready', objectKey: `site-builds/${hash}.tgz`, bytes });
    expect(await store.exists(`site-builds/${hash}.tgz`)).toBe(true);
    // A node that starts later gets the same build without building.
    expect(await nodeB.acquire(hash, path.join(tmp(), 'late'), new AbortController().signal)).toBe('fetched');
  });

  it('a claim given back after a failed build passes to the waiting node, which builds it', async () => {
    const hash = newHash();
    expect(await nodeA.acquire(hash, tmp(), new AbortController().signal)).toBe('claimed');
    const waiting = nodeB.acquire(hash, tmp(), new AbortController().signal);
    await new Promise((r) => setTimeout(r, 150));
    await nodeA.release(hash);
    expect(await waiting).toBe('claimed');
    await nodeB.release(hash);
  });

  it('a claimant that went silent (killed mid-build) is taken over after the stale limit', async () => {
    const hash = newHash();
    const silent = createBuildShare({ db: database.db, store, heartbeatMs: 60_000, staleMs: 600 });
    const taker = createBuildShare({ db: database.db, store, pollMs: 50, staleMs: 600 });
    expect(await silent.acquire(hash, tmp(), new AbortController().signal)).toBe('claimed');
    const t0 = Date.now();
    expect(await taker.acquire(hash, tmp(), new AbortController().signal)).toBe('claimed');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(500);
    await silent.release(hash);
    await taker.release(hash);
  });

  it('a live claimant keeps its claim past the stale limit by its heartbeat', async () => {
    const hash = newHash();
    const alive = createBuildShare({ db: database.db, store, heartbeatMs: 100, staleMs: 600 });
    const other = createBuildShare({ db: database.db, store, pollMs: 50, staleMs: 600 });
    expect(await alive.acquire(hash, tmp(), new AbortController().signal)).toBe('claimed');
    const abort = new AbortController();
    const waiting = other.acquire(hash, tmp(), abort.signal);
    await new Promise((r) => setTimeout(r, 1500));
    abort.abort();
    await expect(waiting).rejects.toThrow('superseded');
    await alive.release(hash);
  });

  it('a ready build whose object is gone is built again by the next node', async () => {
    const hash = newHash();
    const dir = tmp();
    fakeBuild(dir, 'Lost');
    expect(await nodeA.acquire(hash, tmp(), new AbortController().signal)).toBe('claimed');
    await nodeA.publish(hash, dir);
    await store.delete(`site-builds/${hash}.tgz`);
    expect(await nodeB.acquire(hash, tmp(), new AbortController().signal)).toBe('claimed');
    await nodeB.release(hash);
  });

  it('a node whose live build was downloaded lets the node that built last claim the next build (its image cache is warm)', async () => {
    const builds = { A: 0, B: 0 };
    const builder = (name: 'A' | 'B', share: BuildShare) => new SiteBuilder({ db: database.db, dataDir: tmp(), apiUrl: () => 'http://127.0.0.1:1', debounceMs: 0, share,
      runBuild: async (out) => { builds[name] += 1; fakeBuild(out, `Built on ${name}`); } });
    const a = builder('A', nodeA);
    const b = builder('B', nodeB);
    await a.buildNow('start-up');
    await b.buildNow('start-up');
    expect(builds).toEqual({ A: 1, B: 0 });
    await database.db.insert(announcements).values({ title: `Open day ${newHash().slice(0, 8)}`, content: 'Come and see the campus.' });
    // B hears of the change first; A a moment later. A builds, B downloads A's build.
    const onB = b.buildNow('publish');
    await new Promise((r) => setTimeout(r, 300));
    await Promise.all([onB, a.buildNow('publish')]);
    expect(builds).toEqual({ A: 2, B: 0 });
    expect(fs.readFileSync(path.join(b.dir()!, 'index.html'), 'utf8')).toContain('Built on A');
  });

  it('keeps only the newest builds in the store', async () => {
    const keeper = createBuildShare({ db: database.db, store, keep: 2 });
    const hashes = [newHash(), newHash(), newHash()];
    const dir = tmp();
    fakeBuild(dir, 'Pruned');
    for (const hash of hashes) {
      expect(await keeper.acquire(hash, tmp(), new AbortController().signal)).toBe('claimed');
      await keeper.publish(hash, dir);
    }
    expect(await store.exists(`site-builds/${hashes[0]}.tgz`)).toBe(false);
    expect(await store.exists(`site-builds/${hashes[2]}.tgz`)).toBe(true);
  });
});

describe('the site builder with a share (issue #13)', () => {
  let database: Database;
  beforeAll(async () => { database = await openTestDatabase(); });
  afterAll(async () => { await database.close(); });

  /** A share that answers `answer` and records what the builder did with it. */
  function recordingShare(answer: 'claimed' | 'fetched') {
    const calls: string[] = [];
    const share: BuildShare = {
      acquire: async (_hash, outDir) => { calls.push('acquire'); if (answer === 'fetched') fakeBuild(outDir, 'Fetched'); return answer; },
      publish: async (_hash, dir) => { calls.push(`publish ${fs.readFileSync(path.join(dir, 'index.html'), 'utf8')}`); return { bytes: 1 }; },
      release: async () => { calls.push('release'); },
    };
    return { share, calls };
  }

  it('goes live with a fetched build without running a build of its own', async () => {
    const { share, calls } = recordingShare('fetched');
    let builds = 0;
    const builder = new SiteBuilder({ db: database.db, dataDir: tmp(), apiUrl: () => 'http://127.0.0.1:1', debounceMs: 0, share, runBuild: async () => { builds += 1; } });
    await builder.buildNow('publish');
    expect(builds).toBe(0);
    expect(calls).toEqual(['acquire']);
    expect(fs.readFileSync(path.join(builder.dir()!, 'index.html'), 'utf8')).toContain('Fetched');
    expect((await builder.lastBuild())?.reason).toContain('fetched from another node');
  });

  it('builds a claimed hash and shares the result; a failed build gives the claim back', async () => {
    const ok = recordingShare('claimed');
    const builder = new SiteBuilder({ db: database.db, dataDir: tmp(), apiUrl: () => 'http://127.0.0.1:1', debounceMs: 0, share: ok.share, runBuild: async (out) => fakeBuild(out, 'Built here') });
    await builder.buildNow('publish');
    expect(ok.calls).toEqual(['acquire', 'publish <!doctype html><h1>Built here</h1>']);
    expect(builder.dir()).not.toBeNull();

    const failing = recordingShare('claimed');
    const broken = new SiteBuilder({ db: database.db, dataDir: tmp(), apiUrl: () => 'http://127.0.0.1:1', debounceMs: 0, retryBaseMs: 60_000, share: failing.share, runBuild: async () => { throw new Error('astro build exited with 1'); } });
    await broken.buildNow('publish');
    broken.stop();
    expect(failing.calls).toEqual(['acquire', 'release']);
    expect(broken.dir()).toBeNull();
  });
});
