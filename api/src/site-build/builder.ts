/**
 * Rebuild on publish (DESIGN §4): `schedule(reason)` debounces changes, runs one `astro build` at a time
 * (a change during a build queues exactly one more), builds into a new directory under
 * DATA_DIR/site/builds, and switches the live site only when the build succeeded; a failed build keeps
 * the last good one. With SITE_BUILD_HOOK_URL it POSTs to a CDN build hook instead.
 * The content hash (public data + site sources) lets a restart skip a build when nothing changed.
 * Every build is recorded in `site_builds` (status, duration ms, error).
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { siteBuilds } from '../db/schema/system.ts';
import { publicSnapshot } from './snapshot.ts';
import { writeCspManifest } from './csp.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SOURCE_PATHS = ['site', 'content', 'astro.config.mjs', 'api/contracts', 'package.json'];

export interface BuildStatus { id: number; status: string; reason: string | null; startedAt: string; finishedAt: string | null; durationMs: number | null; error: string | null }

export interface SiteBuilderOptions {
  db: Db; dataDir: string; apiUrl: () => string; debounceMs: number; hookUrl?: string;
  log?: (msg: string) => void;
}

function hashSources(): string {
  const h = crypto.createHash('sha256');
  const walk = (p: string) => {
    const abs = path.join(ROOT, p);
    let st: fs.Stats;
    try { st = fs.statSync(abs); } catch { return; }
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(abs).sort()) if (!name.startsWith('.') && name !== 'node_modules') walk(path.join(p, name));
    } else { h.update(p); h.update(fs.readFileSync(abs)); }
  };
  SOURCE_PATHS.forEach(walk);
  return h.digest('hex');
}

export class SiteBuilder {
  private opts: SiteBuilderOptions;
  private live: string | null = null;
  private running: Promise<void> | null = null;
  private queued = false;
  private timer: NodeJS.Timeout | null = null;
  private sourceHash = hashSources();
  private siteDir: string;

  constructor(opts: SiteBuilderOptions) {
    this.opts = opts;
    this.siteDir = path.join(opts.dataDir, 'site');
    fs.mkdirSync(path.join(this.siteDir, 'builds'), { recursive: true });
    const current = this.readCurrent();
    if (current && fs.existsSync(path.join(current.dir, 'index.html'))) this.live = current.dir;
  }

  /** The live build directory, or null before the first build. */
  dir(): string | null { return this.live; }
  isBuilding(): boolean { return this.running !== null; }

  private readCurrent(): { dir: string; hash: string } | null {
    try { return JSON.parse(fs.readFileSync(path.join(this.siteDir, 'current.json'), 'utf8')); } catch { return null; }
  }

  async contentHash(): Promise<string> {
    const snap = await publicSnapshot(this.opts.db);
    return crypto.createHash('sha256').update(this.sourceHash).update(JSON.stringify(snap)).digest('hex');
  }

  /** Builds now unless the live build already matches the content (start-up). */
  async ensureBuilt(): Promise<'skipped' | 'built' | 'failed'> {
    const hash = await this.contentHash();
    const current = this.readCurrent();
    if (this.live && current?.hash === hash) {
      this.opts.log?.('site: content unchanged, reusing the last build');
      return 'skipped';
    }
    await this.buildNow('start-up');
    return this.readCurrent()?.hash === hash ? 'built' : 'failed';
  }

  /** Debounced rebuild after a publish. */
  schedule(reason: string): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.timer = null; void this.buildNow(reason); }, this.opts.debounceMs);
    this.timer.unref?.();
  }

  /** Runs a build now, or queues one more if a build is already running. Resolves when the site is current. */
  buildNow(reason: string): Promise<void> {
    if (this.running) { this.queued = true; return this.running.then(() => this.running ?? undefined); }
    this.running = this.runOnce(reason).finally(() => {
      this.running = null;
      if (this.queued) { this.queued = false; void this.buildNow('queued change'); }
    });
    return this.running;
  }

  /** Waits for pending and running builds to finish (tests, benchmarks). */
  async idle(): Promise<void> {
    while (this.timer || this.running) {
      if (this.running) await this.running;
      else await new Promise((r) => setTimeout(r, 50));
    }
  }

  async lastBuild(): Promise<BuildStatus | null> {
    const [row] = await this.opts.db.select().from(siteBuilds).orderBy(desc(siteBuilds.id)).limit(1);
    if (!row) return null;
    return { id: row.id, status: row.status, reason: row.reason, startedAt: row.startedAt.toISOString(), finishedAt: row.finishedAt?.toISOString() ?? null, durationMs: row.durationMs, error: row.error };
  }

  private async runOnce(reason: string): Promise<void> {
    const db = this.opts.db;
    const started = Date.now();
    const hash = await this.contentHash();
    const [rec] = await db.insert(siteBuilds).values({ status: 'running', reason, contentHash: hash }).returning({ id: siteBuilds.id });
    try {
      if (this.opts.hookUrl) {
        const res = await fetch(this.opts.hookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reason, hash }), signal: AbortSignal.timeout(10_000) });
        if (!res.ok) throw new Error(`Build hook answered ${res.status}`);
      } else {
        const out = path.join(this.siteDir, 'builds', `${Date.now()}-${rec.id}`);
        await this.runAstro(out);
        if (!fs.existsSync(path.join(out, 'index.html'))) throw new Error('The build produced no index.html');
        writeCspManifest(out);
        const tmp = path.join(this.siteDir, 'current.json.tmp');
        fs.writeFileSync(tmp, JSON.stringify({ dir: out, hash }));
        fs.renameSync(tmp, path.join(this.siteDir, 'current.json'));
        const previous = this.live;
        this.live = out;
        this.prune([out, previous].filter(Boolean) as string[]);
      }
      const durationMs = Date.now() - started;
      await db.update(siteBuilds).set({ status: 'ok', finishedAt: new Date(), durationMs }).where(eq(siteBuilds.id, rec.id));
      this.opts.log?.(`site: build ok in ${durationMs} ms (${reason})`);
    } catch (err: any) {
      const durationMs = Date.now() - started;
      const message = String(err?.message ?? err).slice(-2000);
      await db.update(siteBuilds).set({ status: 'error', finishedAt: new Date(), durationMs, error: message }).where(eq(siteBuilds.id, rec.id)).catch(() => {});
      this.opts.log?.(`site: build FAILED after ${durationMs} ms (${reason}); keeping the live site. ${message.split('\n').slice(-5).join(' | ')}`);
    }
  }

  private runAstro(outDir: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [path.join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], {
        cwd: ROOT,
        env: { ...process.env, SITE_API_URL: this.opts.apiUrl(), SITE_OUT_DIR: outDir, SITE_CACHE_DIR: path.join(this.siteDir, 'cache'), ASTRO_TELEMETRY_DISABLED: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let log = '';
      child.stdout.on('data', (d) => { log = (log + d).slice(-8000); });
      child.stderr.on('data', (d) => { log = (log + d).slice(-8000); });
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`astro build exited with ${code}:\n${log}`))));
    });
  }

  private prune(keep: string[]): void {
    const dir = path.join(this.siteDir, 'builds');
    for (const name of fs.readdirSync(dir)) {
      const abs = path.join(dir, name);
      if (!keep.includes(abs)) fs.rmSync(abs, { recursive: true, force: true });
    }
  }
}
