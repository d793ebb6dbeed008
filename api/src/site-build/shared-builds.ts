/**
 * One `astro build` per content change across every node (issue #13 point 2: a publish on node A reaches node B's
 * static pages within 30 s). Without this every node rebuilt the same content at the same moment; two builds on
 * one machine's two cores took 30–48 s where one takes about 12 s.
 *
 * With a shared object store (the S3 document store, api/src/storage/document-store.ts) the first node to claim a
 * content hash in `shared_site_builds` builds it, packs the build folder as one gzip tarball (`tar`), uploads it
 * under `site-builds/<hash>.tgz` and marks it `ready`; every other node waits for that, downloads and unpacks the
 * tarball into its own builds folder and switches to it as to a build of its own (api/src/site-build/builder.ts).
 * The claimant renews its heartbeat every `heartbeatMs`; a claim whose heartbeat is older than `staleMs` (node
 * killed mid-build) or that was released after a failure is taken over by the next node that asks, so a lost
 * node delays the others' pages by at most `staleMs`, never forever. A `ready` row whose object is gone is marked
 * `failed` and rebuilt. After each upload only the newest `keep` builds stay in the store.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { setTimeout as delay } from 'node:timers/promises';
import * as tar from 'tar';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { sharedSiteBuilds } from '../db/schema/system.ts';
import type { DocumentStore } from '../storage/document-store.ts';

/** How a node got the build for a content hash: it must build it (`claimed`), or it was `fetched` into `outDir`. */
export type SharedBuildResult = 'claimed' | 'fetched';

export interface BuildShare {
  /**
   * Claims `hash` for this node or, when another node holds the claim, waits for that node's build and unpacks it
   * into `outDir`. Polls every `pollMs`. Rejects with an Error('superseded') when `signal` aborts, and with the
   * store's error when a ready build cannot be downloaded (the caller then builds on its own).
   */
  acquire(hash: string, outDir: string, signal: AbortSignal): Promise<SharedBuildResult>;
  /** After a claimed build succeeded: uploads `dir` and marks `hash` ready for the other nodes. Throws on a store error. */
  publish(hash: string, dir: string): Promise<{ bytes: number }>;
  /** Gives a claim back after a failed or stopped build, so that another node builds `hash`. */
  release(hash: string): Promise<void>;
}

export interface BuildShareOptions {
  db: Db;
  store: DocumentStore;
  /** Poll interval while another node builds, ms (default 300). */
  pollMs?: number;
  /** Heartbeat interval of a claim, ms (default 3 000). */
  heartbeatMs?: number;
  /** A claim without a heartbeat for this long is taken over, ms (default 20 000). */
  staleMs?: number;
  /** Builds kept in the store (default 3). */
  keep?: number;
  log?: (msg: string) => void;
}

const objectKey = (hash: string) => `site-builds/${hash}.tgz`;

/** Waits `ms`; rejects with Error('superseded') when `signal` aborts (node:timers/promises does the waiting). */
const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  delay(ms, undefined, { signal }).catch(() => { throw new Error('superseded'); });

/** The BuildShare described in the module docstring, over `shared_site_builds` and `store`. */
export function createBuildShare(opts: BuildShareOptions): BuildShare {
  const { db, store } = opts;
  const pollMs = opts.pollMs ?? 300;
  const heartbeatMs = opts.heartbeatMs ?? 3000;
  const staleMs = opts.staleMs ?? 20_000;
  const keep = opts.keep ?? 3;
  const heartbeats = new Map<string, NodeJS.Timeout>();
  const t = sharedSiteBuilds;

  const stopHeartbeat = (hash: string) => { clearInterval(heartbeats.get(hash)); heartbeats.delete(hash); };
  const startHeartbeat = (hash: string) => {
    stopHeartbeat(hash);
    const timer = setInterval(() => {
      db.update(t).set({ heartbeatAt: sql`now()` }).where(and(eq(t.contentHash, hash), eq(t.status, 'building')))
        .catch((err) => opts.log?.(`site: shared build heartbeat failed: ${err?.message ?? err}`));
    }, heartbeatMs);
    timer.unref();
    heartbeats.set(hash, timer);
  };

  /** True when this node now holds the claim: a new hash, a failed one, or one whose claimant went silent. */
  const claim = async (hash: string): Promise<boolean> => {
    const rows = await db.insert(t).values({ contentHash: hash, status: 'building' })
      .onConflictDoUpdate({
        target: t.contentHash,
        set: { status: 'building', objectKey: null, bytes: null, finishedAt: null, claimedAt: sql`now()`, heartbeatAt: sql`now()` },
        setWhere: sql`${t.status} = 'failed' or (${t.status} = 'building' and ${t.heartbeatAt} < now() - make_interval(secs => ${staleMs / 1000}))`,
      })
      .returning({ hash: t.contentHash });
    return rows.length === 1;
  };

  const prune = async () => {
    const old = await db.select({ hash: t.contentHash, key: t.objectKey }).from(t).where(eq(t.status, 'ready'))
      .orderBy(desc(t.finishedAt)).offset(keep);
    for (const row of old) {
      if (row.key) await store.delete(row.key);
      await db.delete(t).where(and(eq(t.contentHash, row.hash), eq(t.status, 'ready')));
    }
  };

  return {
    async acquire(hash, outDir, signal) {
      for (;;) {
        if (signal.aborted) throw new Error('superseded');
        if (await claim(hash)) { startHeartbeat(hash); return 'claimed'; }
        const [row] = await db.select().from(t).where(eq(t.contentHash, hash));
        if (row?.status === 'ready' && row.objectKey) {
          const obj = await store.get(row.objectKey);
          if (!obj) {
            opts.log?.(`site: shared build ${hash.slice(0, 12)} is missing from the store; building it again`);
            await db.update(t).set({ status: 'failed' }).where(and(eq(t.contentHash, hash), eq(t.status, 'ready')));
            continue;
          }
          fs.rmSync(outDir, { recursive: true, force: true });
          fs.mkdirSync(outDir, { recursive: true });
          await pipeline(obj.stream, tar.x({ cwd: outDir, strict: true }));
          return 'fetched';
        }
        await sleep(pollMs, signal);
      }
    },

    async publish(hash, dir) {
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'site-build-'));
      try {
        const file = path.join(tmp, 'site.tgz');
        await tar.c({ gzip: true, file, cwd: dir, portable: true }, ['.']);
        const bytes = fs.statSync(file).size;
        const key = objectKey(hash);
        await store.put(key, fs.createReadStream(file), { contentType: 'application/gzip', size: bytes });
        await db.update(t).set({ status: 'ready', objectKey: key, bytes, finishedAt: sql`now()` }).where(eq(t.contentHash, hash));
        stopHeartbeat(hash);
        await prune().catch((err) => opts.log?.(`site: pruning shared builds failed: ${err?.message ?? err}`));
        return { bytes };
      } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    },

    async release(hash) {
      stopHeartbeat(hash);
      await db.update(t).set({ status: 'failed' }).where(and(eq(t.contentHash, hash), eq(t.status, 'building')));
    },
  };
}
