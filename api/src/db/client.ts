/**
 * Database client: embedded PGlite under DATA_DIR by default, a PostgreSQL server when DATABASE_URL is set.
 * Both expose the same drizzle API (`Db`) plus a `pool` with `query(text, params) → {rows}` for
 * connect-pg-simple, and `close()`. Migrations are applied by `migrate()` (DESIGN §1).
 */
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import lockfile from 'proper-lockfile';
import pg from 'pg';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as users from './schema/users.ts';
import * as catalogue from './schema/catalogue.ts';
import * as applications from './schema/applications.ts';
import * as messaging from './schema/messaging.ts';
import * as system from './schema/system.ts';
import * as accounts from './schema/accounts.ts';
import * as rateLimits from './schema/rate-limits.ts';
import { assertNotOrphanedDocuments } from './data-dir-guard.ts';
import { assertKnownMigrationLevel } from './migration-level.ts';
import { ensurePrivateDir } from './private-dir.ts';

export const schema = { ...users, ...catalogue, ...applications, ...messaging, ...system, ...accounts, ...rateLimits };
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** The handle inside `db.transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** What a repo function runs on: the database itself or an open transaction (writes that belong together share one). */
export type DbOrTx = Db | Tx;

export interface QueryPool {
  query(text: string, params?: unknown[]): Promise<{ rows: any[] }>;
  on(event: string, fn: (...args: unknown[]) => void): void;
}

export interface Database {
  db: Db;
  pool: QueryPool;
  kind: 'pglite' | 'postgres';
  /**
   * LISTEN on `channel`: `onMessage(payload)` for every NOTIFY (issue #13). On PostgreSQL a dedicated connection
   * that reconnects after 1 s when lost (notifications sent meanwhile are missed: callers also poll). Resolves
   * once listening; the returned function stops it.
   */
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * Runs `fn` while holding the start-up lock, so that nodes starting at once on one database take turns (seed, first
   * admin, stored secrets). On PostgreSQL a session advisory lock (`pg_advisory_lock`) on a dedicated connection,
   * waited for as long as another node holds it, released when `fn` settles or that connection drops (a node killed
   * mid-start); on PGlite (one process) `fn` just runs. Resolves or rejects as `fn` does.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Thrown by `openDatabase` when the database was reached (or opened) but applying the migrations failed: a schema
 * problem, not a connection problem. `message` is the database's own error (drizzle's "Failed query" wrapper removed);
 * `cause` is the original error.
 */
export class MigrationError extends Error {}

/** Key of the PostgreSQL advisory lock that serialises start-up work between nodes (an arbitrary constant of this app). */
const STARTUP_LOCK_KEY = '7302411952846001';

/** The database's own message of a failed migration (drizzle wraps it as "Failed query: …" with the SQL). */
function migrationError(err: any): MigrationError {
  const inner = err?.cause?.message ?? err?.message ?? String(err);
  return new MigrationError(inner, { cause: err });
}

/** Runs `fn` holding the start-up advisory lock of the PostgreSQL database at `url` (see `Database.exclusive`). */
async function withStartupLock<T>(url: string, fn: () => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  c.on('error', (err) => console.error('[db] start-up lock connection error:', err.message));
  await c.connect();
  try {
    await c.query('select pg_advisory_lock($1::bigint)', [STARTUP_LOCK_KEY]);
    return await fn();
  } finally {
    await c.query('select pg_advisory_unlock($1::bigint)', [STARTUP_LOCK_KEY]).catch(() => {});
    await c.end().catch(() => {});
  }
}

/**
 * The PostgreSQL extensions the migrations create, as PGlite bundles them: every PGlite of this app (a DATA_DIR, a
 * test database, the test template) must load them, or a query or a restored template that uses one fails with
 * 'could not access file "unaccent"'. unaccent: name searches (api/src/db/text-search.ts); pg_trgm: the trigram indexes
 * that serve them (migration 0021).
 */
const pgliteExtensions = { unaccent, pg_trgm };

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Opens the database. `dataDir` undefined with no url means in-memory PGlite (tests), started from `template`
 * (a `pgliteTemplate()` dump) when given; migrations still run, and find nothing left to apply.
 * Throws if a PostgreSQL server cannot be reached, ConfigError when `dataDir` has documents but no database yet
 * (data-dir-guard.ts) or when the database was migrated by a newer release (migration-level.ts), DataDirInUseError if `dataDir`'s embedded database is open in
 * another process, and MigrationError when the database opened but a migration failed. On PostgreSQL the migrations
 * run under the start-up lock (`exclusive`), so nodes starting at once apply them one after the other. When opening or migrating fails, what was opened is closed first (the pool ended, the
 * embedded folder's lock released), so the caller can fix the cause and try again in the same process.
 */
export async function openDatabase(opts: { url?: string; dataDir?: string; template?: Blob }): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: Number(process.env.DB_POOL_MAX ?? 20), connectionTimeoutMillis: 10_000, idleTimeoutMillis: 30_000 });
    pool.on('error', (err) => console.error('[db] idle client error:', err.message));
    // A client checked out between two statements (inside a transaction) has no listener of the pool's;
    // a server restart would then be an unhandled 'error' event that kills the process. Its next query
    // fails instead, and the request answers 503 (issue #8: database restart).
    pool.on('connect', (client) => { client.on('error', (err) => console.error('[db] client error:', err.message)); });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    const exclusive = <T>(fn: () => Promise<T>) => withStartupLock(opts.url!, fn);
    try {
      const client = await pool.connect();
      client.release();
      // Nodes starting at once would otherwise run the same CREATE TABLEs side by side, and one of them fail.
      // The level check records which releases may run here (migration-level.ts): under the same lock, so a node of an
      // older release cannot overwrite what a newer one just wrote.
      await exclusive(async () => {
        await migratePg(db as any, { migrationsFolder }).catch((err) => { throw migrationError(err); });
        await assertKnownMigrationLevel((text, params) => pool.query(text, params as any[]));
      });
    } catch (err) {
      await pool.end().catch(() => {});
      throw err;
    }
    const listen = (channel: string, onMessage: (payload: string) => void) => listenPg(opts.url!, channel, onMessage);
    return { db, pool: pool as unknown as QueryPool, kind: 'postgres', listen, exclusive, close: () => pool.end() };
  }
  let dir: string | undefined;
  if (opts.dataDir) {
    assertNotOrphanedDocuments(opts.dataDir);
    // The folder's mode protects the database whatever modes PGlite gives its files (most are 0666).
    ensurePrivateDir(opts.dataDir);
    dir = path.join(opts.dataDir, 'pgdata');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  }
  const release = dir ? await lockDataDir(dir) : async () => {};
  const client = new PGlite(dir ? { dataDir: dir, extensions: pgliteExtensions }
    : { extensions: pgliteExtensions, ...(opts.template ? { loadDataDir: opts.template } : {}) });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  try {
    await client.waitReady;
    await migratePglite(db as any, { migrationsFolder }).catch((err) => { throw migrationError(err); });
    await assertKnownMigrationLevel((text, params) => client.query(text, params as any[]));
  } catch (err) {
    // A damaged folder or a failed migration must not leave the folder locked for the next try (or admin:create).
    if (!client.closed) await client.close().catch(() => {});
    await release();
    throw err;
  }
  const pool: QueryPool = {
    query: (text, params) => client.query(text, params as any[]) as Promise<{ rows: any[] }>,
    on: () => {},
  };
  const listen = async (channel: string, onMessage: (payload: string) => void) => {
    const stop = await client.listen(channel, onMessage);
    return async () => { if (!client.closed) await stop(); };
  };
  return { db, pool, kind: 'pglite', listen, exclusive: (fn) => fn(), close: async () => { await client.close(); await release(); } };
}

/**
 * Opens an existing embedded database folder `<dataDir>/pgdata` as it is, for maintenance (backup, db:to-postgres):
 * takes the folder's lock like `openDatabase` (throws DataDirInUseError when another process holds it), loads the
 * extensions, applies no migration and creates nothing. Resolves to the PGlite client and `close()` (closes it and
 * releases the lock). Throws a plain Error when the folder holds no database (no `PG_VERSION`).
 */
export async function openPgliteFolder(dataDir: string): Promise<{ client: PGlite; close: () => Promise<void> }> {
  const dir = path.join(dataDir, 'pgdata');
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) throw new Error(`${dataDir} holds no embedded database (${dir} is missing or empty)`);
  const release = await lockDataDir(dir);
  const client = new PGlite({ dataDir: dir, extensions: pgliteExtensions });
  try { await client.waitReady; } catch (err) { await release(); throw err; }
  return { client, close: async () => { if (!client.closed) await client.close(); await release(); } };
}

/**
 * Copies the embedded database folder `<dataDir>/pgdata`, file by file, to `<dest>/pgdata` while holding the folder's
 * lock (DataDirInUseError when another process holds it; a plain Error when there is no database), without opening it:
 * the source's files are only read, never written (a PGlite opened on them would write at least its shutdown
 * checkpoint). The copy is a stopped cluster, for maintenance that must not touch the live folder (createBackup). The
 * copy is asynchronous, so the lock keeps being renewed however large the folder is.
 */
export async function copyPgliteFolder(dataDir: string, dest: string): Promise<void> {
  const dir = path.join(dataDir, 'pgdata');
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) throw new Error(`${dataDir} holds no embedded database (${dir} is missing or empty)`);
  const release = await lockDataDir(dir);
  try { await fs.promises.cp(dir, path.join(dest, 'pgdata'), { recursive: true, errorOnExist: true, force: false }); } finally { await release(); }
}

/** True when another live process holds the lock of `<dataDir>/pgdata` (a running `npm start`); answers at once. */
export async function pgliteFolderInUse(dataDir: string): Promise<boolean> {
  const dir = path.join(dataDir, 'pgdata');
  if (!fs.existsSync(dir)) return false;
  return lockfile.check(dir, { stale: LOCK_STALE_MS });
}

/**
 * A new embedded database folder `<dataDir>/pgdata` loaded from `dump` (a `dumpDataDir('none')` tarball, see
 * `pgliteTemplate`), then `fn(client)` run on it (e.g. ending the sessions of a restored copy) before it is closed.
 * Throws when the folder already holds a database.
 */
export async function loadPgliteFolder(dataDir: string, dump: Blob, fn: (client: PGlite) => Promise<void>): Promise<void> {
  const dir = path.join(dataDir, 'pgdata');
  if (fs.existsSync(path.join(dir, 'PG_VERSION'))) throw new Error(`${dir} already holds a database`);
  ensurePrivateDir(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const client = new PGlite({ dataDir: dir, extensions: pgliteExtensions, loadDataDir: dump });
  try {
    await client.waitReady;
    await fn(client);
  } finally { if (!client.closed) await client.close(); }
}

/** Thrown by `openDatabase` when DATA_DIR's embedded database is open in another process. */
export class DataDirInUseError extends Error {}

/** How old (ms) the lock of a process that died without releasing it (`kill -9`) must be before another takes it over. */
const LOCK_STALE_MS = 10_000;

/**
 * Takes the lock on an embedded database folder (proper-lockfile: `<dir>.lock`, renewed every 5 s, removed on
 * exit). PGlite serves one process at a time, and a second process on the same files (a second `npm start`, or
 * `npm run admin:create` beside a running server) would write where the first never looks and lose the work.
 * Waits up to 12 s, so a restart right after a crash takes over the stale lock. Resolves to the release
 * function; throws DataDirInUseError when another live process holds the folder.
 */
async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(dir, {
      stale: LOCK_STALE_MS,
      retries: { retries: 12, factor: 1, minTimeout: 1000, maxTimeout: 1000 },
      onCompromised: (err) => console.error(`[db] the lock on ${dir} was lost: ${err.message}`),
    });
  } catch (err: any) {
    if (err?.code !== 'ELOCKED') throw err;
    throw new DataDirInUseError(`${dir} is open in another process. The embedded database serves one process at a time: stop that process first, or set DATABASE_URL to share a PostgreSQL server.`);
  }
}

/** LISTEN on its own pg.Client (a pooled client would be handed to other queries); reconnects after 1 s. */
async function listenPg(url: string, channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new TypeError(`Invalid channel name: ${channel}`);
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  const reconnectSoon = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => { retry = null; connect().catch(reconnectSoon); }, 1000);
    retry.unref();
  };
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
    const lost = () => {
      if (client !== c) return;
      client = null;
      c.end().catch(() => {});
      reconnectSoon();
    };
    c.on('error', (err) => { console.error(`[db] LISTEN ${channel} connection error:`, err.message); lost(); });
    c.on('end', lost);
    c.on('notification', (n) => { if (n.channel === channel) onMessage(n.payload ?? ''); });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch (err) {
      c.end().catch(() => {});
      throw err;
    }
    if (stopped) { await c.end(); return; }
    client = c;
  };
  await connect().catch((err) => { console.error(`[db] LISTEN ${channel} failed, retrying:`, err?.message ?? err); reconnectSoon(); });
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const c = client;
    client = null;
    await c?.end().catch(() => {});
  };
}

/**
 * The data folder of a fresh in-memory PGlite with every migration applied, as an uncompressed tarball (≈ 40 MB).
 * Tests start their databases from it (`openDatabase({ template })`): restoring takes ≈ 0.7 s where creating a
 * cluster and migrating takes ≈ 2.5 s (api/src/test/global-setup.ts). Not used by the product.
 */
export async function pgliteTemplate(): Promise<Blob> {
  const client = new PGlite({ extensions: pgliteExtensions });
  try {
    await migratePglite(drizzlePglite(client, { schema }) as any, { migrationsFolder });
    return await client.dumpDataDir('none');
  } finally { await client.close(); }
}
