import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, DB_KIND, type TestApp } from '../test/harness.ts';
import { SiteBuilder } from './builder.ts';

let t: TestApp;
const dirs: string[] = [];
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

/** A node's builder on `dataDir`; the "build" writes a page naming the content, no Astro needed. */
function nodeBuilder(dataDir: string, builds: string[]) {
  return new SiteBuilder({
    db: t.database.db, dataDir, debounceMs: 0, apiUrl: () => 'http://127.0.0.1:9', log: () => {}, retryBaseMs: 3600_000,
    runBuild: async (out) => { fs.mkdirSync(out, { recursive: true }); fs.writeFileSync(path.join(out, 'index.html'), '<!doctype html><title>x</title>'); builds.push(out); },
  });
}

// Issue #13: a node that starts later (or restarts after missing changes) serves the current content.
describe(`a node that starts later builds the current content (${DB_KIND})`, () => {
  it('a restart with an up-to-date build reuses it; one after content changed meanwhile rebuilds', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'college-late-node-'));
    dirs.push(dataDir);
    const builds: string[] = [];
    expect(await nodeBuilder(dataDir, builds).ensureBuilt()).toBe('built');
    expect(await nodeBuilder(dataDir, builds).ensureBuilt()).toBe('skipped');
    // While this node is down, another node publishes.
    await t.database.db.execute(sql`update courses set title = title || ' (updated)' where id = 1`);
    const restarted = nodeBuilder(dataDir, builds);
    expect(await restarted.ensureBuilt()).toBe('built');
    expect(builds.length).toBe(2);
    expect(restarted.dir()).toBe(builds[1]);
  });
});
