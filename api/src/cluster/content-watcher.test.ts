import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import supertest from 'supertest';
import { startTestApp, signInAdmin, DB_KIND, type TestApp } from '../test/harness.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { createApp } from '../app.ts';
import { SiteBuilder } from '../site-build/builder.ts';
import { startContentWatcher, claimHookForCurrentVersion, releaseHookClaim, readContentVersion, type ContentWatcher } from './content-watcher.ts';

let t: TestApp;
/** "Node B": its own database connection (on PostgreSQL), its own watcher, its own app and public cache. */
let dbB: Database;
let watcherB: ContentWatcher;
let nodeB: { url: string; close(): void };
beforeAll(async () => {
  t = await startTestApp();
  dbB = t.databaseUrl ? await openDatabase({ url: t.databaseUrl }) : t.database;
  watcherB = await startContentWatcher(dbB, { log: () => {} });
  const app = createApp({ ...t.deps, database: dbB, contentWatcher: watcherB, onContentChanged: undefined });
  const server = await new Promise<http.Server>((r) => { const s = app.listen(0, '127.0.0.1', () => r(s)); });
  nodeB = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => { server.close(); server.closeAllConnections(); } };
});
afterAll(async () => {
  nodeB.close();
  await watcherB.close();
  if (dbB !== t.database) await dbB.close();
  await t.close();
});

/** Resolves with the next version `w` announces (rejects after 15 s, far beyond the 1 s poll). */
function nextChange(w: ContentWatcher): Promise<{ version: number; source: string }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { off(); reject(new Error('no content change announced')); }, 15_000);
    const off = w.onChange((version, source) => { clearTimeout(timer); off(); resolve({ version, source }); });
  });
}

describe(`a publish reaches every node (${DB_KIND})`, () => {
  it('a course created on node A is in node B\'s cached public catalogue as soon as B hears the change', async () => {
    const b = supertest(nodeB.url);
    const before = await b.get('/api/courses');
    expect(before.status).toBe(200);
    expect((await b.get('/api/courses')).headers.etag).toBe(before.headers.etag);
    const admin = await signInAdmin(t);
    const heard = nextChange(watcherB);
    const title = `Cluster Course ${Date.now()}`;
    const created = await admin.agent.post('/api/courses').send({ title, description: 'Made on node A to test node B.', duration: 6, department: 'Technology', tuitionFee: 'R6,500', startDate: 'February 2027' });
    expect(created.status).toBe(201);
    const { version } = await heard;
    expect(version).toBe(await readContentVersion(t.database.db));
    const after = await b.get('/api/courses');
    expect(JSON.stringify(after.body)).toContain(title);
  });

  it('LISTEN/NOTIFY announces a change written by any connection, even straight SQL', async () => {
    const w = await startContentWatcher(dbB, { pollMs: 60_000, log: () => {} });
    try {
      const heard = nextChange(w);
      await t.database.db.execute(sql`update announcements set title = title where id = (select min(id) from announcements)`);
      expect((await heard).source).toBe('notify');
    } finally { await w.close(); }
  });

  it('a node that misses notifications catches up by polling the content version', async () => {
    const w = await startContentWatcher(dbB, { listen: false, pollMs: 200, log: () => {} });
    try {
      const start = w.version();
      const heard = nextChange(w);
      await t.database.db.execute(sql`update settings set value = value`);
      await t.database.db.execute(sql`update courses set title = title where id = 1`);
      const got = await heard;
      expect(got.source).toBe('poll');
      expect(got.version).toBeGreaterThan(start);
    } finally { await w.close(); }
  });

  it('applications and other personal data do not announce content changes', async () => {
    const v = await readContentVersion(t.database.db);
    await t.database.db.execute(sql`update users set first_name = first_name`);
    expect(await readContentVersion(t.database.db)).toBe(v);
  });
});

describe(`SITE_BUILD_HOOK_URL is called once per change across nodes (${DB_KIND})`, () => {
  let hook: http.Server;
  let calls = 0;
  let failNext = false;
  let hookUrl: string;
  const dirs: string[] = [];
  beforeAll(async () => {
    hook = http.createServer((req, res) => { req.resume(); calls++; res.statusCode = failNext ? 500 : 200; failNext = false; res.end(); });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', () => r()));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => { hook.close(); for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

  const builderOn = (database: Database) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'college-hook-test-'));
    dirs.push(dataDir);
    return new SiteBuilder({
      db: database.db, dataDir, debounceMs: 0, hookUrl, apiUrl: () => 'http://127.0.0.1:9', log: () => {}, retryBaseMs: 3600_000,
      hookClaim: { claim: () => claimHookForCurrentVersion(database.db), release: (v) => releaseHookClaim(database.db, v) },
    });
  };

  it('two nodes rebuilding for the same change make one hook call; the next change makes one more; a failed call is retried', async () => {
    const a = builderOn(t.database);
    const b = builderOn(dbB);
    await t.database.db.execute(sql`update courses set title = title where id = 1`);
    calls = 0;
    await Promise.all([a.buildNow('change 1'), b.buildNow('change 1')]);
    await Promise.all([a.buildNow('again'), b.buildNow('again')]);
    expect(calls).toBe(1);

    await t.database.db.execute(sql`update courses set title = title where id = 1`);
    failNext = true;
    await a.buildNow('change 2');
    expect(calls).toBe(2);
    await b.buildNow('change 2, other node');
    expect(calls).toBe(3);
    await Promise.all([a.buildNow('change 2'), b.buildNow('change 2')]);
    expect(calls).toBe(3);
    a.stop();
    b.stop();
  });
});
