import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signUpStudent, signInAdmin, DB_KIND, type TestApp } from '../test/harness.ts';
import { readContentVersion, startContentWatcher, type ContentWatcher } from '../cluster/content-watcher.ts';
import { SiteBuilder } from './builder.ts';

// Volume audit: every account deletion rebuilt the whole site. The ON DELETE SET NULL of announcements.created_by
// is an UPDATE statement on announcements, and the statement-level trigger of migration 0004 bumped the content
// version even when it changed no row; the builder then rebuilt identical content.
describe(`site rebuilds on content changes only (${DB_KIND})`, () => {
  let t: TestApp;
  let watcher: ContentWatcher;
  let builder: SiteBuilder;
  const builds: string[] = [];
  const changes: number[] = [];
  beforeAll(async () => {
    t = await startTestApp();
    builder = new SiteBuilder({
      db: t.database.db, dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'rebuild-on-change-')), apiUrl: () => t.url, debounceMs: 0,
      runBuild: async (out) => { builds.push(out); fs.mkdirSync(out, { recursive: true }); fs.writeFileSync(path.join(out, 'index.html'), '<h1>Home</h1>'); },
    });
    // Wired as server.ts wires them: every newer content version schedules a rebuild.
    watcher = await startContentWatcher(t.database, { pollMs: 60_000, listen: false });
    watcher.onChange((v, source) => { changes.push(v); builder.schedule(`content version ${v} (${source})`); });
    expect(await builder.ensureBuilt()).toBe('built');
  });
  afterAll(async () => { builder.stop(); await watcher.close(); await t.close(); });

  it('POST /api/profile/delete › deleting a student account does not move the content version or start a site build', async () => {
    const s = await signUpStudent(t);
    const before = await readContentVersion(t.database.db);
    expect((await s.agent.post('/api/profile/delete').send({ password: s.password })).body.outcome).toBe('deleted');
    await watcher.check();
    await builder.idle();
    expect(await readContentVersion(t.database.db)).toBe(before);
    expect(changes).toEqual([]);
    expect(builds).toHaveLength(1); // the start-up build only
  });

  it('publishing an announcement still moves the version once and rebuilds', async () => {
    const { agent } = await signInAdmin(t);
    const before = await readContentVersion(t.database.db);
    const built = builds.length;
    const res = await agent.post('/api/announcements').send({ title: 'Open day on Saturday', content: 'Visit the Tshikombani campus from 9:00.', date: '2026-11-28', active: true });
    expect(res.status).toBe(201);
    await watcher.check();
    await builder.idle();
    expect(await readContentVersion(t.database.db)).toBe(before + 1);
    expect(builds).toHaveLength(built + 1);
  });
});
