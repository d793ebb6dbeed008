/**
 * Rebuild on publish (DESIGN §4): `schedule(reason)` debounces changes, runs one `astro build` at a time
 * (a change during a build queues exactly one more and stops the running build, whose content is already stale,
 * at most `MAX_SUPERSEDES` times in a row so that a stream of publishes still ends in a build; issue #13:
 * publish-to-page latency is one build, not two), builds into a new directory under
 * DATA_DIR/site/builds, and switches the live site only when the build succeeded; a failed build keeps
 * the last good one. With SITE_BUILD_HOOK_URL it POSTs to a CDN build hook instead. With `share` (several nodes
 * on a shared object store) one node builds each content hash and the others download its build (shared-builds.ts).
 * The content hash (public data + site sources) lets a restart skip a build when nothing changed.
 * Every build is recorded in `site_builds` (status, duration ms, error).
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { spawn } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { siteBuilds } from '../db/schema/system.ts';
import { courses } from '../db/schema/catalogue.ts';
import { publicSnapshot } from './snapshot.ts';
import { southAfricanMidnight, todayInSouthAfrica } from '#contracts/sa-calendar.ts';
import { writeCspManifest } from './csp.ts';
import { precompressBuild } from './precompress.ts';
import { writePageDictionary } from './dictionary.ts';
import type { SiteStatus } from './serve.ts';
import type { BuildShare } from './shared-builds.ts';
import { assetIndex, earlierBuilds, pruneBuilds } from './kept-builds.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SOURCE_PATHS = ['site', 'content', 'astro.config.mjs', 'api/contracts', 'package.json'];
/**
 * The college's time zone, for the dates `astro build` writes into pre-rendered pages (announcements on the home
 * page): every campus is in South Africa (UTC+2, no daylight saving), while servers often run in UTC, which dated
 * an announcement posted at 00:30 the day before. TZ in the environment, when set, wins.
 */
export const SITE_TIME_ZONE = 'Africa/Johannesburg';

/** The environment of an `astro build` child: `base` plus `extra`, with TZ = base.TZ or SITE_TIME_ZONE. */
export function astroBuildEnv(base: NodeJS.ProcessEnv, extra: Record<string, string>): NodeJS.ProcessEnv {
  return { ...base, TZ: base.TZ || SITE_TIME_ZONE, ...extra };
}

/**
 * The settings of an `astro build` that change its pages: the site's origin (canonical and og: URLs, sitemap), the
 * time zone of pre-rendered dates, whether picture links may be fetched from private hosts, and source maps. Part
 * of the content hash, so a node restarted with another PUBLIC_URL rebuilds instead of reusing pages that name the
 * old origin.
 */
export function buildSettings(env: NodeJS.ProcessEnv): string {
  return JSON.stringify({ PUBLIC_URL: env.PUBLIC_URL ?? '', TZ: env.TZ || SITE_TIME_ZONE, SITE_IMAGES_FROM_PRIVATE_HOSTS: env.SITE_IMAGES_FROM_PRIVATE_HOSTS ?? '', SITE_SOURCEMAP: env.SITE_SOURCEMAP ?? '' });
}

/**
 * 00:00 on 1 January of the year after the one in South Africa at `now`, in ms since the epoch: the calendar's one
 * UTC+2 rule (todayInSouthAfrica, southAfricanMidnight in api/contracts/sa-calendar.ts).
 */
export function nextSouthAfricanNewYear(now: number): number {
  const year = Number(todayInSouthAfrica(new Date(now)).slice(0, 4));
  return southAfricanMidnight(`${String(year + 1).padStart(4, '0')}-01-01`);
}

/** Consecutive running builds a newer change may stop before one is let finish (issue #13). */
const MAX_SUPERSEDES = 2;

/** A picture the build left out (site/lib/remote-image.ts): its URL, why, and the course that links it (null: another page's picture). */
export interface LeftOutImage { course: string | null; url: string; reason: string }
/**
 * The last build as the admin dashboard shows it; `error` only for a failed build, `leftOut` the pictures an ok build
 * left out (kept in site_builds.error of an ok build as LEFT_OUT_HEAD + one `url<TAB>reason` line each; no migration).
 */
export interface BuildStatus { id: number; status: string; reason: string | null; startedAt: string; finishedAt: string | null; durationMs: number | null; error: string | null; leftOut: LeftOutImage[] }

const LEFT_OUT_HEAD = 'images left out:';
/**
 * The pictures a build left out, as JSON `[{ url, reason }]`, kept in the build folder so that they travel with a
 * shared build: a node that downloads it runs no build and sees no output (review: the dashboard's warning vanished
 * when such a node recorded the newest row). A dot-file: the static server never serves it (serve.ts).
 */
const LEFT_OUT_FILE = '.left-out.json';
/**
 * The most pictures one build records as left out, and the longest URL (characters) and reason kept of each: the
 * list of a downloaded build comes from a file in the shared store, and all of it lands in one row and one query
 * (security review: an unbounded list would make the dashboard's build status fail). A college has far fewer courses.
 */
const MAX_LEFT_OUT = 500, MAX_LEFT_OUT_URL = 2048, MAX_LEFT_OUT_REASON = 500;
/** The warning site/lib/remote-image.ts prints for each image it leaves out: `[site] image left out, <url>: <reason>`. */
const LEFT_OUT_LINE = /\[site\] image left out, (\S+?): (.*)$/;

/** The pictures named by `[site] image left out, <url>: <reason>` lines of a build's output, in order, each URL once. */
export function imagesLeftOut(output: string): { url: string; reason: string }[] {
  const found = new Map<string, string>();
  for (const line of output.split('\n')) {
    const m = LEFT_OUT_LINE.exec(line.replace(/\x1b\[[0-9;]*m/g, '').trimEnd());
    if (m && !found.has(m[1]!)) found.set(m[1]!, m[2]!);
  }
  return [...found].map(([url, reason]) => ({ url, reason }));
}

export interface SiteBuilderOptions {
  db: Db; dataDir: string; apiUrl: () => string; debounceMs: number; hookUrl?: string;
  log?: (msg: string) => void;
  /**
   * With `hookUrl` on several nodes: claims the current content version so that one node calls the hook per
   * change (issue #13; api/src/cluster/content-watcher.ts). `claim` answers the version or null (already called);
   * `release` gives a claim back after a failed call.
   */
  hookClaim?: { claim(): Promise<number | null>; release(version: number): Promise<void> };
  /**
   * With a shared object store on several nodes: one node builds each content hash and the others download its
   * build (issue #13; api/src/site-build/shared-builds.ts). Without it every node builds on its own.
   */
  share?: BuildShare;
  /** `false` when SITE_BUILD=never: the 503 page then says the server is API-only. */
  enabled?: boolean;
  /** First retry delay after a failed build, ms; doubles per failure up to `retryMaxMs` (defaults 5 000 and 300 000). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /**
   * Runs the build into `outDir` (tests replace it); defaults to `astro build` in a child process. `signal` aborts
   * when a newer change supersedes the build: the build should stop and reject. `output` receives the build's
   * stdout/stderr text: its "image left out" warnings go to the log and to the build's record.
   */
  runBuild?: (outDir: string, signal: AbortSignal, output?: (text: string) => void) => Promise<void>;
}

/**
 * The line of an `astro build` log that names the cause: the underlying error after a "Caused by:" label, else a
 * system error line ("ENOSPC: no space left on device, write"), else the message Astro prints before its
 * "Hint:"/"Error reference:"/"Location:"/"Stack trace:" blocks (never the docs URL under "Error reference:"), else the
 * first line mentioning an error, else the last line.
 */
export function firstErrorLine(log: string): string {
  const lines = log.split('\n').map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trimEnd());
  const isNoise = (l: string) => !l.trim() || /^npm (warn|notice)/i.test(l) || /^\d\d:\d\d:\d\d /.test(l) || /^\s*[├└▶│]/.test(l);
  const isBlock = (l: string) => /^\s*(at |https?:\/\/)/.test(l) || /^\s*[A-Z][\w ]*:\s*$/.test(l);
  const caused = lines.findIndex((l) => /^\s*Caused by:/.test(l));
  if (caused >= 0) {
    const rest = lines[caused]!.replace(/^\s*Caused by:\s*/, '');
    if (rest.trim()) return rest.trim();
    const next = lines.slice(caused + 1).find((l) => !isNoise(l) && !isBlock(l));
    if (next) return next.trim();
  }
  const sys = lines.find((l) => /^\s*(\w*Error: )?E[A-Z]{3,}: /.test(l));
  if (sys) return sys.trim();
  const marker = lines.findIndex((l) => /^\s*(Hint|Error reference|Location|Stack trace):\s*$/.test(l));
  if (marker > 0) for (let i = marker - 1; i >= 0; i--) if (!isNoise(lines[i]!) && !isBlock(lines[i]!)) return lines[i]!.trim();
  const err = lines.find((l) => !isNoise(l) && /error|cannot|failed/i.test(l));
  return (err ?? [...lines].reverse().find((l) => l.trim()) ?? 'unknown error').trim();
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

/** How long (ms) a node whose live build was downloaded waits before claiming a new build (see `liveFetched`). */
const CLAIM_GRACE_MS = 1500;

/**
 * Astro pre-renders by importing its server chunks from `outDir/.prerender`; their bare imports
 * (`@oslojs/encoding`, …) resolve by walking up from there. A DATA_DIR outside the checkout has no
 * node_modules above it, so a link `<siteDir>/node_modules` → the checkout's node_modules is kept beside the builds
 * (issue #11). A link that points elsewhere, or nowhere (a DATA_DIR restored or moved from another checkout, an old
 * release's folder removed), is replaced. Throws only when the link cannot be created.
 */
export function linkNodeModules(siteDir: string): void {
  const link = path.join(siteDir, 'node_modules');
  const target = path.join(ROOT, 'node_modules');
  try {
    if (fs.realpathSync(link) === fs.realpathSync(target)) return;
  } catch { /* missing, or a dangling link (realpath follows it): removed below */ }
  // lstat-level removal: a dangling link, a link elsewhere or a stale folder; nothing when missing.
  fs.rmSync(link, { recursive: true, force: true });
  fs.symlinkSync(target, link, process.platform === 'win32' ? 'junction' : 'dir');
}

/**
 * The per-node static-site builder described above (DESIGN §4, issue #11, #13): `schedule(reason)` after a content change,
 * `dir()` the live build folder (null until the first build succeeds), `status()` for the 503 page and health. Build
 * failures are recorded and retried with back-off (ms, doubling), never thrown to the caller.
 */
export class SiteBuilder {
  private opts: SiteBuilderOptions;
  private live: string | null = null;
  private running: Promise<void> | null = null;
  private queued = false;
  private timer: NodeJS.Timeout | null = null;
  private sourceHash = hashSources();
  private siteDir: string;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryAt: number | null = null;
  private abort: AbortController | null = null;
  /** Set by stop(): no new build starts, and a build ended by the stop is recorded as stopped, not as a failure. */
  private stopped = false;
  private supersedes = 0;
  private compressing: AbortController | null = null;
  private yearTimer: NodeJS.Timeout | null = null;
  /** True when the live build was downloaded from another node (shared builds), so this node's build cache is cold. */
  private liveFetched = false;
  /** `/_astro/` files of the kept earlier builds (kept-builds.ts), refreshed on every swap. */
  private earlierAssets = new Map<string, string>();

  constructor(opts: SiteBuilderOptions) {
    this.opts = opts;
    this.siteDir = path.join(opts.dataDir, 'site');
    fs.mkdirSync(path.join(this.siteDir, 'builds'), { recursive: true });
    const current = this.readCurrent();
    if (current && fs.existsSync(path.join(current.dir, 'index.html'))) { this.live = current.dir; this.compressLive(current.dir); }
    this.earlierAssets = assetIndex(earlierBuilds(path.join(this.siteDir, 'builds'), this.live));
  }

  /**
   * Writes the page dictionary with its dcz copies (dictionary.ts), then the Brotli copies (precompress.ts), of the live
   * build `dir` in the background; a newer live build stops it.
   */
  private compressLive(dir: string): void {
    this.compressing?.abort();
    const ctrl = new AbortController();
    this.compressing = ctrl;
    writePageDictionary(dir, ctrl.signal)
      .then((r) => { if (r.dictionary && r.pages) this.opts.log?.(`site: page dictionary ${r.dictionary.url} and ${r.pages} dcz copies written in ${r.ms} ms`); })
      .catch((err) => { if (!ctrl.signal.aborted) this.opts.log?.(`site: page dictionary not written (${err?.message ?? err}); pages are sent as Brotli`); })
      .then(() => precompressBuild(dir, path.join(this.siteDir, 'cache', 'brotli'), ctrl.signal))
      .then((r) => { if (r.compressed || r.reused) this.opts.log?.(`site: brotli copies written in ${r.ms} ms (${r.compressed} compressed, ${r.reused} from the cache)`); })
      .catch((err) => { if (!ctrl.signal.aborted) this.opts.log?.(`site: brotli copies not written (${err?.message ?? err}); pages are compressed on the fly`); });
  }

  /** The live build directory, or null before the first build. */
  dir(): string | null { return this.live; }

  /**
   * The kept earlier build (absolute folder) to send `_astro/<name>` from when the live build lacks it, or null
   * (kept-builds.ts: a tab opened before a deploy or a publish still loads its chunks and pictures).
   */
  earlierAsset(name: string): string | null { return this.earlierAssets.get(name) ?? null; }
  isBuilding(): boolean { return this.running !== null; }

  /** State for the 503 page and the health check (issue #11). */
  status(): SiteStatus {
    const retryInMs = this.retryAt == null ? null : Math.max(0, this.retryAt - Date.now());
    const state = this.live ? 'ready'
      : this.opts.enabled === false && !this.running ? 'disabled'
        : this.failures > 0 && !this.running ? 'failed' : 'building';
    return { state, failures: this.failures, retryInMs };
  }

  private readCurrent(): { dir: string; hash: string } | null {
    try { return JSON.parse(fs.readFileSync(path.join(this.siteDir, 'current.json'), 'utf8')); } catch { return null; }
  }

  /**
   * Hex SHA-256 of what the static site is built from: the site's sources, the build settings (buildSettings of
   * this process's environment), the public content snapshot and the year in South Africa at `now` (the footer's
   * '© YYYY', site/components/Footer.astro), so that a build from last year is not reused at start-up, or shared
   * between nodes, once the year has turned in Johannesburg.
   */
  async contentHash(now: Date = new Date()): Promise<string> {
    const snap = await publicSnapshot(this.opts.db);
    const year = todayInSouthAfrica(now).slice(0, 4);
    return crypto.createHash('sha256').update(this.sourceHash).update(buildSettings(process.env)).update(JSON.stringify(snap)).update(`year:${year}`).digest('hex');
  }

  /**
   * On a node that keeps running, schedules a rebuild when the year turns in South Africa (the footer's '© YYYY'
   * is in the content hash; without a content change nothing else would rebuild). Re-arms itself at most a day
   * ahead (a Node timer cannot wait longer than about 24.8 days); `stop()` ends it.
   */
  watchYear(now: number = Date.now()): void {
    if (this.yearTimer) clearTimeout(this.yearTimer);
    const newYear = nextSouthAfricanNewYear(now);
    this.yearTimer = setTimeout(() => {
      this.yearTimer = null;
      if (Date.now() >= newYear) this.schedule('new year in South Africa');
      this.watchYear();
    }, Math.min(newYear - now + 1000, 24 * 3600_000));
    this.yearTimer.unref?.();
  }

  /** Builds now unless the live build already matches the content (start-up; SITE_BUILD=auto). */
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

  /**
   * Debounced rebuild after a publish (`debounceMs`). A build already running for older content is stopped and
   * the queued one starts at once, unless `MAX_SUPERSEDES` builds in a row were already stopped.
   */
  schedule(reason: string): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.timer = null; this.buildNow(reason, { supersede: true }).catch((err) => this.opts.log?.(`site: build failed to start: ${err?.message ?? err}`)); }, this.opts.debounceMs);
    this.timer.unref?.();
  }

  /**
   * Runs a build now, or queues one more if a build is already running (with `supersede`, also stops the running
   * build: its content is stale). Resolves when the site is current. A build whose content hash is the live
   * build's is skipped, unless `force` (SITE_BUILD=always at start-up).
   */
  buildNow(reason: string, opts: { supersede?: boolean; force?: boolean } = {}): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.queued = true;
      if (opts.supersede && this.abort && !this.abort.signal.aborted && this.supersedes < MAX_SUPERSEDES) {
        this.supersedes += 1;
        this.abort.abort();
      }
      return this.running.then(() => this.running ?? undefined);
    }
    this.running = this.runOnce(reason, opts.force === true).finally(() => {
      this.running = null;
      if (this.queued) { this.queued = false; this.buildNow('queued change').catch((err) => this.opts.log?.(`site: build failed to start: ${err?.message ?? err}`)); }
    });
    return this.running;
  }

  /** Waits for pending and running builds to finish (tests, benchmarks); a scheduled retry is not waited for. */
  async idle(): Promise<void> {
    while (this.timer || this.running) {
      if (this.running) await this.running;
      else await new Promise((r) => setTimeout(r, 50));
    }
  }

  async lastBuild(): Promise<BuildStatus | null> {
    const [row] = await this.opts.db.select().from(siteBuilds).orderBy(desc(siteBuilds.id)).limit(1);
    if (!row) return null;
    const noted = row.status === 'ok' && row.error?.startsWith(LEFT_OUT_HEAD)
      ? row.error.split('\n').slice(1).filter(Boolean).map((l) => { const [url = '', reason = ''] = l.split('\t'); return { url, reason }; }) : [];
    const titles = noted.length ? await this.opts.db.select({ title: courses.title, imageUrl: courses.imageUrl }).from(courses).where(inArray(courses.imageUrl, noted.map((n) => n.url))) : [];
    const leftOut = noted.map((n) => ({ course: titles.find((c) => c.imageUrl === n.url)?.title ?? null, ...n }));
    return { id: row.id, status: row.status, reason: row.reason, startedAt: row.startedAt.toISOString(), finishedAt: row.finishedAt?.toISOString() ?? null, durationMs: row.durationMs,
      error: row.status === 'ok' ? null : row.error, leftOut };
  }

  private async runOnce(reason: string, force = false): Promise<void> {
    // A change the public site does not show (a statement on courses/announcements/settings that changed nothing the
    // snapshot holds, e.g. an account deletion's ON DELETE SET NULL) leaves the content hash as it is: keep the live
    // build rather than rebuild identical pages (volume audit). Start-up compares the same way (ensureBuilt).
    const hash = await this.contentHash();
    if (!force && !this.opts.hookUrl && this.live) {
      if (this.readCurrent()?.hash === hash) {
        this.opts.log?.(`site: content unchanged, keeping the live build (${reason})`);
        this.failures = 0;
        this.cancelRetry();
        return;
      }
    }
    let claimed: number | null = null;
    if (this.opts.hookUrl && this.opts.hookClaim) {
      claimed = await this.opts.hookClaim.claim().catch((err) => { this.opts.log?.(`site: could not claim the build hook: ${err?.message ?? err}`); return null; });
      if (claimed === null) { this.opts.log?.(`site: build hook already called for this content by another node (${reason})`); return; }
    }
    const started = Date.now();
    // The background Brotli copies yield the CPU to the build (two cores: publish-to-page comes first) and resume after it.
    this.compressing?.abort();
    this.compressing = null;
    try {
      await this.buildAndSwitch(reason, started, claimed, hash);
    } finally {
      if (this.live && !this.compressing) this.compressLive(this.live);
    }
  }

  private async buildAndSwitch(reason: string, started: number, claimed: number | null, hash: string): Promise<void> {
    const db = this.opts.db;
    const abort = new AbortController();
    this.abort = abort;
    if (this.stopped) abort.abort();
    const [rec] = await db.insert(siteBuilds).values({ status: 'running', reason, contentHash: hash }).returning({ id: siteBuilds.id });
    let shared: 'claimed' | 'fetched' | null = null;
    const leftOut: { url: string; reason: string }[] = [];
    let output = '';
    const onOutput = (text: string) => {
      output += text;
      // Whole lines only; each warning is forwarded as it comes (operators grep the server log for it).
      const end = output.lastIndexOf('\n');
      if (end < 0) return;
      for (const i of imagesLeftOut(output.slice(0, end))) {
        this.opts.log?.(`site: [site] image left out, ${i.url}: ${i.reason}`);
        const url = i.url.slice(0, MAX_LEFT_OUT_URL);
        if (leftOut.length < MAX_LEFT_OUT && !leftOut.some((l) => l.url === url)) leftOut.push({ url, reason: i.reason.slice(0, MAX_LEFT_OUT_REASON) });
      }
      output = output.slice(end + 1);
    };
    try {
      if (this.opts.hookUrl) {
        const res = await fetch(this.opts.hookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reason, hash }), signal: AbortSignal.timeout(10_000) });
        if (!res.ok) throw new Error(`Build hook answered ${res.status}`);
      } else {
        const out = path.join(this.siteDir, 'builds', `${Date.now()}-${rec.id}`);
        if (this.opts.share) {
          // A node whose live build was downloaded has a cold build cache (Astro's optimised images: AVIF takes tens
          // of seconds to encode), so it lets a node that built last claim first; alone, it claims a moment later.
          if (this.liveFetched) await delay(CLAIM_GRACE_MS, undefined, { signal: abort.signal });
          shared = await this.opts.share.acquire(hash, out, abort.signal).catch((err: any) => {
            if (abort.signal.aborted) throw err;
            this.opts.log?.(`site: could not use the shared build (${err?.message ?? err}); building here`);
            return null;
          });
        }
        if (shared !== 'fetched') await (this.opts.runBuild ?? ((dir: string, signal: AbortSignal, out?: (t: string) => void) => this.runAstro(dir, signal, out)))(out, abort.signal, onOutput);
        if (output) onOutput('\n');
        if (shared === 'fetched') leftOut.push(...await this.fetchedLeftOut(out, hash, rec.id));
        else fs.writeFileSync(path.join(out, LEFT_OUT_FILE), JSON.stringify(leftOut));
        fs.rmSync(path.join(out, '.prerender'), { recursive: true, force: true });
        if (!fs.existsSync(path.join(out, 'index.html'))) throw new Error('The build produced no index.html');
        writeCspManifest(out);
        const tmp = path.join(this.siteDir, 'current.json.tmp');
        fs.writeFileSync(tmp, JSON.stringify({ dir: out, hash }));
        fs.renameSync(tmp, path.join(this.siteDir, 'current.json'));
        this.live = out;
        this.earlierAssets = assetIndex(pruneBuilds(path.join(this.siteDir, 'builds'), out));
        if (shared === 'claimed') {
          const share = this.opts.share!;
          shared = null;
          await share.publish(hash, out)
            .then(({ bytes }) => this.opts.log?.(`site: shared the build with the other nodes (${Math.round(bytes / 1024)} KB)`))
            .catch(async (err) => {
              this.opts.log?.(`site: could not share the build (${err?.message ?? err}); the other nodes build it themselves`);
              await share.release(hash).catch(() => {});
            });
        }
        // After sharing: the tarball is packed from this folder, which must not change while it is read.
        this.compressLive(out);
      }
      const durationMs = Date.now() - started;
      if (shared === 'fetched') reason = `${reason}, fetched from another node`;
      if (!this.opts.hookUrl) this.liveFetched = shared === 'fetched';
      this.failures = 0;
      this.supersedes = 0;
      this.cancelRetry();
      const notes = leftOut.length ? [LEFT_OUT_HEAD, ...leftOut.map((i) => `${i.url}\t${i.reason.replace(/[\t\n]/g, ' ')}`)].join('\n') : null;
      await db.update(siteBuilds).set({ status: 'ok', reason, finishedAt: new Date(), durationMs, error: notes }).where(eq(siteBuilds.id, rec.id));
      this.opts.log?.(`site: build ok in ${durationMs} ms (${reason})`);
    } catch (err: any) {
      const durationMs = Date.now() - started;
      if (shared === 'claimed') await this.opts.share!.release(hash).catch(() => {});
      // Aborted (a newer change, or the server stopping), or the build process killed by the stop's signal: not a failure.
      if (abort.signal.aborted || this.stopped) {
        fs.readdirSync(path.join(this.siteDir, 'builds')).forEach((name) => { if (name.endsWith(`-${rec.id}`)) fs.rmSync(path.join(this.siteDir, 'builds', name), { recursive: true, force: true }); });
        await db.update(siteBuilds).set({ status: 'superseded', finishedAt: new Date(), durationMs, ...(this.stopped ? { reason: `${reason}; stopped: the server was shutting down` } : {}) })
          .where(eq(siteBuilds.id, rec.id)).catch(() => {});
        if (claimed !== null) await this.opts.hookClaim?.release(claimed).catch(() => {});
        this.opts.log?.(this.stopped ? `site: build stopped after ${durationMs} ms (${reason}): the server is shutting down`
          : `site: build stopped after ${durationMs} ms (${reason}): a newer change supersedes it`);
        return;
      }
      const full = String(err?.message ?? err);
      const cause = firstErrorLine(full);
      await db.update(siteBuilds).set({ status: 'error', finishedAt: new Date(), durationMs, error: `${cause}\n${full.slice(-2000)}` }).where(eq(siteBuilds.id, rec.id)).catch(() => {});
      if (claimed !== null) await this.opts.hookClaim?.release(claimed).catch(() => {});
      this.failures += 1;
      const delay = Math.min(this.opts.retryMaxMs ?? 300_000, (this.opts.retryBaseMs ?? 5_000) * 2 ** (this.failures - 1));
      this.opts.log?.(`site: build FAILED after ${durationMs} ms (${reason}): ${cause}. ${this.live ? 'Keeping the live site; ' : 'No live site yet; '}retry ${this.failures} in ${Math.round(delay / 1000)} s.`);
      this.scheduleRetry(delay);
    }
  }

  /**
   * The pictures left out by the build this node downloaded (`out`), at most MAX_LEFT_OUT of them, cut to
   * MAX_LEFT_OUT_URL / MAX_LEFT_OUT_REASON characters: from its LEFT_OUT_FILE, or, for a build shared
   * before that file existed, from the newest ok row of another node for the same content hash (null notes: none).
   */
  private async fetchedLeftOut(out: string, hash: string, ownId: number): Promise<{ url: string; reason: string }[]> {
    try {
      const list = JSON.parse(fs.readFileSync(path.join(out, LEFT_OUT_FILE), 'utf8'));
      if (Array.isArray(list)) return list.filter((i) => typeof i?.url === 'string' && typeof i?.reason === 'string').slice(0, MAX_LEFT_OUT)
        .map((i) => ({ url: i.url.slice(0, MAX_LEFT_OUT_URL), reason: i.reason.slice(0, MAX_LEFT_OUT_REASON) }));
    } catch { /* no file: an older build; the building node's row below */ }
    const rows = await this.opts.db.select({ id: siteBuilds.id, error: siteBuilds.error }).from(siteBuilds)
      .where(and(eq(siteBuilds.contentHash, hash), eq(siteBuilds.status, 'ok'))).orderBy(desc(siteBuilds.id)).limit(5);
    const row = rows.find((r) => r.id !== ownId);
    return row?.error?.startsWith(LEFT_OUT_HEAD)
      ? row.error.split('\n').slice(1).filter(Boolean).map((l) => { const [url = '', reason = ''] = l.split('\t'); return { url, reason }; }) : [];
  }

  /** Retries a failed build after `delayMs` unless a newer build (publish, retry) runs first. */
  private scheduleRetry(delayMs: number): void {
    this.cancelRetry();
    this.retryAt = Date.now() + delayMs;
    this.retryTimer = setTimeout(() => { this.retryTimer = null; this.retryAt = null; void this.buildNow(`retry ${this.failures}`); }, delayMs);
    this.retryTimer.unref?.();
  }

  private cancelRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.retryAt = null;
  }

  /**
   * Server shutdown: stops any scheduled retry or debounced build, the new-year watch and the background Brotli copies,
   * and aborts the build in progress (its child process is ended, its folder deleted, its row marked `superseded` with
   * "stopped: the server was shutting down" in its reason, not `error`). No build starts afterwards.
   */
  stop(): void {
    this.stopped = true;
    this.queued = false;
    this.abort?.abort();
    this.cancelRetry();
    if (this.yearTimer) clearTimeout(this.yearTimer);
    this.yearTimer = null;
    this.compressing?.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private runAstro(outDir: string, signal: AbortSignal, output?: (text: string) => void): Promise<void> {
    linkNodeModules(this.siteDir);
    return new Promise((resolve, reject) => {
      if (signal.aborted) { reject(new Error('superseded')); return; }
      // Astro writes its pre-render bundle to `outDir/.prerender` only when outDir lies under the working directory;
      // otherwise to `<cwd>/.astro/.prerender`, one folder for every build from this checkout. Two nodes with their
      // DATA_DIR outside the checkout (or a node and a benchmark) then broke each other's builds. Run in siteDir, so
      // every build has its own; `--root` keeps the project where it is (same output, byte for byte).
      const child = spawn(process.execPath, [path.join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build', '--root', ROOT], {
        cwd: this.siteDir,
        env: astroBuildEnv(process.env, { SITE_API_URL: this.opts.apiUrl(), SITE_OUT_DIR: outDir, SITE_CACHE_DIR: path.join(this.siteDir, 'cache'), ASTRO_TELEMETRY_DISABLED: '1' }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let log = '';
      child.stdout.on('data', (d) => { log = (log + d).slice(-20_000); output?.(String(d)); });
      child.stderr.on('data', (d) => { log = (log + d).slice(-20_000); output?.(String(d)); });
      const stop = () => child.kill('SIGTERM');
      signal.addEventListener('abort', stop, { once: true });
      child.on('error', reject);
      child.on('exit', () => signal.removeEventListener('abort', stop));
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`astro build exited with ${code}:\n${log}`))));
    });
  }
}
