import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '../db/client.ts';
import { openTestDatabase } from '../test/harness.ts';
import { SiteBuilder, astroBuildEnv, firstErrorLine, linkNodeModules, nextSouthAfricanNewYear, ROOT } from './builder.ts';
import { execFileSync } from 'node:child_process';
import { settings } from '../db/schema/system.ts';

/** The tail of a real `astro build` log when the build folder had no node_modules above it (issue #11). */
const ASTRO_LOG = `npm warn Unknown user config "nodedir".
09:05:48 [build] output: "static"
09:06:14 [vite] ✓ built in 10.49s
09:06:14 [build] Rearranging server assets...
Cannot find package '@oslojs/encoding' imported from /srv/portal-data/site/builds/x/.prerender/chunks/server_HWLKWwn_.mjs
  Location:
    /srv/portal/node_modules/@tailwindcss/node/dist/index.mjs:1:539
  Stack trace:
    at Object.getPackageJSONURL (node:internal/modules/package_json_reader:331:9)
    at ModuleJob.link (node:internal/modules/esm/module_job:381:17)
`;

describe('site builder start-up (issue #11)', () => {
  let database: Database;
  beforeAll(async () => { database = await openTestDatabase(); });
  afterAll(async () => { await database.close(); });

  it("reports Astro's first error line, not the last stack frames", () => {
    expect(firstErrorLine(ASTRO_LOG)).toBe("Cannot find package '@oslojs/encoding' imported from /srv/portal-data/site/builds/x/.prerender/chunks/server_HWLKWwn_.mjs");
    expect(firstErrorLine('09:04:33 [content] Syncing content\nfetch failed\n  Stack trace:\n  at x')).toBe('fetch failed');
  });

  it('names the underlying cause of a failed build, not the Astro docs URL (operations audit: a full disk)', () => {
    const log = ['09:06:14 [build] Rearranging server assets...', '[GenerateError] Could not write the page.', '  Hint:', '    See the error below.',
      '  Error reference:', '    https://docs.astro.build/en/reference/errors/generate-error/', '  Location:', '    /srv/portal/x.mjs:1:1',
      '  Stack trace:', '    at write (node:fs)', '  Caused by:', '  ENOSPC: no space left on device, write', '    at async writeFile (node:fs)'].join('\n');
    expect(firstErrorLine(log)).toBe('ENOSPC: no space left on device, write');
    const noCause = ['[GenerateError] Could not write the page.', '  Error reference:', '    https://docs.astro.build/en/reference/errors/generate-error/', '  Stack trace:', '    at x'].join('\n');
    expect(firstErrorLine(noCause)).toBe('[GenerateError] Could not write the page.');
  });

  it('a failed first build is retried with backoff until it succeeds, and the state says so meanwhile', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'builder-'));
    const logs: string[] = [];
    let attempts = 0;
    const builder = new SiteBuilder({
      db: database.db, dataDir, apiUrl: () => 'http://127.0.0.1:1', debounceMs: 0, log: (m) => logs.push(m),
      retryBaseMs: 40, retryMaxMs: 1000,
      runBuild: async (out) => {
        attempts += 1;
        if (attempts < 3) throw new Error(`astro build exited with 1:\n${ASTRO_LOG}`);
        fs.mkdirSync(out, { recursive: true });
        fs.writeFileSync(path.join(out, 'index.html'), '<!doctype html><h1>Home</h1>');
      },
    });
    expect(builder.status().state).toBe('building');
    await builder.buildNow('start-up');
    expect(builder.dir()).toBeNull();
    const failed = builder.status();
    expect(failed.state).toBe('failed');
    expect(failed.failures).toBe(1);
    expect(failed.retryInMs).toBeGreaterThan(0);
    expect(logs.at(-1)).toContain("Cannot find package '@oslojs/encoding'");
    expect(logs.at(-1)).toContain('retry 1 in');

    const deadline = Date.now() + 10_000;
    while (!builder.dir() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(attempts).toBe(3);
    expect(builder.dir()).not.toBeNull();
    expect(builder.status()).toEqual({ state: 'ready', failures: 0, retryInMs: null });
    await builder.idle(); // the live site switches before the build's row is marked ok (seen on PostgreSQL in CI)
    const last = await builder.lastBuild();
    expect(last?.status).toBe('ok');
    builder.stop();
  });

  it("the footer's year: a build is not reused once the year has turned in South Africa (00:00 SAST, 22:00 UTC)", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'builder-'));
    let builds = 0;
    const builder = new SiteBuilder({
      db: database.db, dataDir, apiUrl: () => '', debounceMs: 0,
      runBuild: async (out) => { builds += 1; fs.mkdirSync(out, { recursive: true }); fs.writeFileSync(path.join(out, 'index.html'), `<p>build ${builds}</p>`); },
    });
    const at = (iso: string) => vi.useFakeTimers({ toFake: ['Date'], now: new Date(iso) });
    try {
      at('2026-12-31T21:30:00Z'); // 23:30 on New Year's Eve in Johannesburg
      expect(await builder.ensureBuilt()).toBe('built');
      at('2026-12-31T21:59:00Z');
      expect(await builder.ensureBuilt()).toBe('skipped'); // same content, same year: the build is reused
      at('2026-12-31T22:30:00Z'); // 00:30 on 1 January 2027 in Johannesburg, still 2026 in UTC
      expect(await builder.ensureBuilt()).toBe('built');
      expect(builds).toBe(2);
    } finally { vi.useRealTimers(); }
    expect(await builder.contentHash(new Date('2026-06-01T10:00:00Z'))).toBe(await builder.contentHash(new Date('2026-12-31T21:59:59Z')));
    expect(await builder.contentHash(new Date('2026-12-31T22:00:00Z'))).not.toBe(await builder.contentHash(new Date('2026-12-31T21:59:59Z')));
    await builder.idle();
    builder.stop();
  });

  it('an API-only server (SITE_BUILD=never) says so instead of "building"', () => {
    const builder = new SiteBuilder({ db: database.db, dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'builder-')), apiUrl: () => '', debounceMs: 0, enabled: false });
    expect(builder.status().state).toBe('disabled');
  });

  it('a publish during a build stops the stale build and builds the new content at once, but lets the third one finish (issue #13)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'builder-'));
    const logs: string[] = [];
    const started: string[] = [];
    let release: (() => void) | null = null;
    const builder = new SiteBuilder({
      db: database.db, dataDir, apiUrl: () => '', debounceMs: 0, log: (m) => logs.push(m),
      runBuild: (out, signal) => new Promise<void>((resolve, reject) => {
        started.push(out);
        signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true });
        release = () => { fs.mkdirSync(out, { recursive: true }); fs.writeFileSync(path.join(out, 'index.html'), `<h1>${started.length}</h1>`); resolve(); };
      }),
    });
    const waitStarts = async (n: number) => { while (started.length < n) await new Promise((r) => setTimeout(r, 10)); };
    // Each change really changes what the site shows (an unchanged content hash keeps the live build).
    const publish = async (n: number) => {
      const value = `${Date.now()}-${n}`;
      await database.db.insert(settings).values({ key: 'builder-test-supersede', value })
        .onConflictDoUpdate({ target: settings.key, set: { value } });
      builder.schedule(`change ${n}`);
    };
    const first = builder.buildNow('start-up');
    await waitStarts(1);
    await publish(1);
    await waitStarts(2);
    await publish(2);
    await waitStarts(3);
    await publish(3);
    await new Promise((r) => setTimeout(r, 50));
    expect(started).toHaveLength(3);
    release!();
    await first;
    await waitStarts(4);
    release!();
    await builder.idle();
    expect(logs.filter((l) => l.includes('a newer change supersedes it'))).toHaveLength(2);
    expect(logs.filter((l) => l.includes('build ok'))).toHaveLength(2);
    expect(builder.status()).toEqual({ state: 'ready', failures: 0, retryInMs: null });
    expect(fs.readFileSync(path.join(builder.dir()!, 'index.html'), 'utf8')).toBe('<h1>4</h1>');
    expect(fs.readdirSync(path.join(dataDir, 'site', 'builds'))).toHaveLength(2);
    builder.stop();
  });

  it('a stop (SIGTERM) aborts the build in progress: the stop does not wait for it, and the build is recorded as stopped, not failed', async () => {
    const logs: string[] = [];
    let started = false;
    const builder = new SiteBuilder({
      db: database.db, dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'builder-')), apiUrl: () => '', debounceMs: 0, log: (m) => logs.push(m),
      // Like astro build killed by the signal: it exits with an error once aborted, and never finishes otherwise.
      runBuild: (_out, signal) => new Promise<void>((_resolve, reject) => {
        started = true;
        signal.addEventListener('abort', () => reject(new Error('astro build exited with null:\n')), { once: true });
      }),
    });
    const build = builder.buildNow('publish');
    while (!started) await new Promise((r) => setTimeout(r, 10));
    builder.stop();
    await builder.idle(); // used to wait for the build for ever (81 s with a real one)
    await build;
    const last = await builder.lastBuild();
    expect(last).toMatchObject({ status: 'superseded', error: null });
    expect(last!.reason).toMatch(/shutting down/);
    expect(logs.some((l) => /FAILED/.test(l))).toBe(false);
    expect(builder.status().retryInMs).toBeNull();
  }, 30_000);

  it('a change that leaves the public content as it is (an account deletion) keeps the live build: no new build starts', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'builder-'));
    let builds = 0;
    const logs: string[] = [];
    const builder = new SiteBuilder({
      db: database.db, dataDir, apiUrl: () => '', debounceMs: 0, log: (m) => logs.push(m),
      runBuild: async (out) => { builds += 1; fs.mkdirSync(out, { recursive: true }); fs.writeFileSync(path.join(out, 'index.html'), `<p>build ${builds}</p>`); },
    });
    expect(await builder.ensureBuilt()).toBe('built');
    const live = builder.dir();
    const recorded = (await builder.lastBuild())?.id;

    builder.schedule('content version 7 (notify)'); // what the content watcher does after any bump of the version
    await builder.idle();
    expect(builds).toBe(1);
    expect(builder.dir()).toBe(live);
    expect((await builder.lastBuild())?.id).toBe(recorded); // no build row either (the admin's "last build" is unchanged)
    expect(logs.at(-1)).toContain('content unchanged, keeping the live build');

    const value = String(Date.now());
    await database.db.insert(settings).values({ key: 'builder-test-unchanged', value })
      .onConflictDoUpdate({ target: settings.key, set: { value } });
    builder.schedule('content version 8 (notify)');
    await builder.idle();
    expect(builds).toBe(2); // a real change still builds
    builder.stop();
  });

  it('SITE_BUILD=always builds at start-up even when the content is unchanged; a new PUBLIC_URL is a change', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'builder-'));
    let builds = 0;
    const builder = new SiteBuilder({
      db: database.db, dataDir, apiUrl: () => '', debounceMs: 0,
      runBuild: async (out) => { builds += 1; fs.mkdirSync(out, { recursive: true }); fs.writeFileSync(path.join(out, 'index.html'), `<p>build ${builds}</p>`); },
    });
    expect(await builder.ensureBuilt()).toBe('built');
    await builder.buildNow('start-up', { force: true }); // what server.ts does for SITE_BUILD=always
    expect(builds).toBe(2);
    expect(await builder.ensureBuilt()).toBe('skipped');

    const before = process.env.PUBLIC_URL;
    process.env.PUBLIC_URL = 'https://apply.college.example';
    try {
      expect(await builder.ensureBuilt()).toBe('built'); // canonical and og: URLs name the new origin
      expect(builds).toBe(3);
    } finally {
      if (before === undefined) delete process.env.PUBLIC_URL; else process.env.PUBLIC_URL = before;
      builder.stop();
    }
  });

  it('a node that keeps running rebuilds when the year turns in South Africa, with no content change', async () => {
    expect(new Date(nextSouthAfricanNewYear(Date.parse('2026-12-31T21:59:00Z'))).toISOString()).toBe('2026-12-31T22:00:00.000Z');
    expect(new Date(nextSouthAfricanNewYear(Date.parse('2026-12-31T22:00:00Z'))).toISOString()).toBe('2027-12-31T22:00:00.000Z');
    const builder = new SiteBuilder({ db: database.db, dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'builder-')), apiUrl: () => '', debounceMs: 0, runBuild: async () => {} });
    const scheduled: string[] = [];
    builder.schedule = (reason: string) => { scheduled.push(reason); };
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      vi.setSystemTime(new Date('2026-12-30T10:00:00Z'));
      builder.watchYear();
      await vi.advanceTimersByTimeAsync(24 * 3600_000); // 31 December, 10:00 UTC: still 2026 in Johannesburg
      expect(scheduled).toEqual([]);
      await vi.advanceTimersByTimeAsync(12 * 3600_000 + 2000); // 22:00:02 UTC = 00:00:02 SAST on 1 January
      expect(scheduled).toEqual(['new year in South Africa']);
      await vi.advanceTimersByTimeAsync(3 * 24 * 3600_000);
      expect(scheduled).toHaveLength(1);
    } finally {
      builder.stop();
      vi.useRealTimers();
    }
  });
});

describe('dates on pre-rendered pages', () => {
  /** What site/lib/format.ts's formatDate prints in a process started with `env`, as the build child is. */
  const formatIn = (env: NodeJS.ProcessEnv, iso: string) => execFileSync(process.execPath,
    ['--input-type=module', '-e', `import { formatDate } from './site/lib/format.ts'; process.stdout.write(formatDate(${JSON.stringify(iso)}));`],
    { cwd: ROOT, env, encoding: 'utf8' });

  it("an announcement posted at 00:30 on 1 December in South Africa is dated December 1, though the server runs in UTC", () => {
    const server = { ...process.env };
    delete server.TZ;
    const env = astroBuildEnv(server, { SITE_OUT_DIR: '/tmp/x' });
    expect(env.SITE_OUT_DIR).toBe('/tmp/x');
    expect(formatIn(env, '2026-11-30T22:30:00Z')).toBe('December 1, 2026');
    // The same moment in a UTC process, which is what the build printed before.
    expect(formatIn({ ...server, TZ: 'UTC' }, '2026-11-30T22:30:00Z')).toBe('November 30, 2026');
  });

  it('a TZ set for the server is kept', () => {
    expect(astroBuildEnv({ TZ: 'UTC' }, {}).TZ).toBe('UTC');
  });
});

describe('site/node_modules link (backup and restore audit)', () => {
  it('a dangling link (DATA_DIR restored or moved from another checkout) is replaced, so every build is not EEXIST forever', () => {
    const siteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'builder-link-'));
    try {
      const link = path.join(siteDir, 'node_modules');
      fs.symlinkSync(path.join(siteDir, 'old-checkout', 'node_modules'), link, 'dir');
      linkNodeModules(siteDir);
      expect(fs.realpathSync(link)).toBe(fs.realpathSync(path.join(ROOT, 'node_modules')));
      linkNodeModules(siteDir); // the next build finds it right and keeps it
      expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    } finally { fs.rmSync(siteDir, { recursive: true, force: true }); }
  });
});
