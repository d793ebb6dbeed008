/**
 * "A publish reaches every node" (issue #13 point 2, DESIGN §6). Content the public site shows (courses,
 * announcements, settings) bumps the one-row `content_version` table inside the writing transaction, and the
 * same trigger sends `NOTIFY content_changed, '<version>'` (migration 0004). Every node runs one watcher:
 * - it LISTENs on `content_changed` and reacts at once;
 * - it also reads `content_version` every `pollMs` (default 1000 ms), so a node that missed a notification
 *   (its LISTEN connection was down, PostgreSQL restarted) catches up within a second.
 * Listeners get each newer version once, in order of discovery (`source` says how it was found). The node
 * clears its public read cache and schedules its debounced static rebuild from there (server.ts, app.ts).
 * Errors reading the version (database down) are logged once per outage and retried on the next tick.
 */
import { eq, sql } from 'drizzle-orm';
import type { Database, Db } from '../db/client.ts';
import { contentVersion } from '../db/schema/system.ts';

export const CONTENT_CHANNEL = 'content_changed';

export type ContentChangeListener = (version: number, source: 'notify' | 'poll') => void;

export interface ContentWatcher {
  /** The newest version this node has seen. */
  version(): number;
  /** Calls `fn` for every newer version; returns an unsubscribe function. */
  onChange(fn: ContentChangeListener): () => void;
  /** Reads the version now (e.g. right after this node wrote content) and announces it if newer. */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** The current content version (the one-row table of migration 0004). */
export async function readContentVersion(db: Db): Promise<number> {
  const [row] = await db.select({ version: contentVersion.version }).from(contentVersion).where(eq(contentVersion.id, 1));
  return Number(row?.version ?? 0);
}

/**
 * Claims the current content version for one call of SITE_BUILD_HOOK_URL across every node: the version for
 * exactly one caller per version (a compare-and-set on `hooked_version`, atomic on PostgreSQL and PGlite),
 * null when another node has already claimed it.
 */
export async function claimHookForCurrentVersion(db: Db): Promise<number | null> {
  const rows = await db.update(contentVersion).set({ hookedVersion: sql`${contentVersion.version}` })
    .where(sql`${contentVersion.id} = 1 and ${contentVersion.hookedVersion} < ${contentVersion.version}`)
    .returning({ version: contentVersion.version });
  return rows.length ? Number(rows[0].version) : null;
}

/**
 * Gives a claimed version back after the hook call failed, so the next node's (or the next change's) attempt
 * calls the hook again. Only releases if no newer claim happened meanwhile.
 */
export async function releaseHookClaim(db: Db, claimed: number): Promise<void> {
  await db.update(contentVersion).set({ hookedVersion: claimed - 1 })
    .where(sql`${contentVersion.id} = 1 and ${contentVersion.hookedVersion} = ${claimed}`);
}

/** Starts watching. Resolves once the baseline version is read and LISTEN is set up (or retrying). */
export async function startContentWatcher(database: Database, opts: { pollMs?: number; listen?: boolean; log?: (m: string) => void } = {}): Promise<ContentWatcher> {
  const pollMs = opts.pollMs ?? 1000;
  const log = opts.log ?? ((m: string) => console.info(m));
  const listeners = new Set<ContentChangeListener>();
  let seen = await readContentVersion(database.db).catch(() => 0);
  let failing = false;
  let closed = false;

  const announce = (v: number, source: 'notify' | 'poll') => {
    if (!(v > seen)) return;
    seen = v;
    for (const fn of listeners) {
      try { fn(v, source); } catch (err: any) { log(`[content] listener failed: ${err?.message ?? err}`); }
    }
  };
  const check = async () => {
    try {
      announce(await readContentVersion(database.db), 'poll');
      if (failing) { failing = false; log('[content] content version readable again'); }
    } catch (err: any) {
      if (!failing) { failing = true; log(`[content] cannot read the content version: ${err?.message ?? err}`); }
    }
  };

  const unlisten = opts.listen === false ? null : await database.listen(CONTENT_CHANNEL, (payload) => {
    const v = Number(payload);
    if (Number.isFinite(v)) announce(v, 'notify');
    else void check();
  });
  let timer: NodeJS.Timeout | null = null;
  const tick = () => { void check().finally(() => { if (!closed) { timer = setTimeout(tick, pollMs); timer.unref(); } }); };
  timer = setTimeout(tick, pollMs);
  timer.unref();

  return {
    version: () => seen,
    onChange: (fn) => { listeners.add(fn); return () => { listeners.delete(fn); }; },
    check,
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      listeners.clear();
      await unlisten?.();
    },
  };
}
