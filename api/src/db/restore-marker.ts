/**
 * The marker of an unfinished restore (review of aade6f1): `npm run restore` writes `DATA_DIR/RESTORE-INCOMPLETE`
 * into the folder it restores into before it loads the database, and removes it only at the very end, after a
 * success or after a failure it undid completely. A restore killed meanwhile (Ctrl-C, out of memory) leaves a loaded
 * database and a half-filled bucket; the marker makes `npm start` refuse that DATA_DIR (server.ts) and makes the next
 * restore's refusals say what to empty. Synchronous: written and read once per run.
 * The file is seen by the restoring host only; a second node with its own DATA_DIR but the same DATABASE_URL and bucket
 * sees the table RESTORE_MARKER_TABLE in the database and the object RESTORE-INCOMPLETE at the bucket's root, which the
 * restore also writes (below: createDatabaseMarker, writeBucketMarker) and removes where it removes the file.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

/** The marker's file name in DATA_DIR. */
export const RESTORE_MARKER = 'RESTORE-INCOMPLETE';

/** `dataDir/RESTORE-INCOMPLETE`. */
export const restoreMarkerPath = (dataDir: string): string => path.join(dataDir, RESTORE_MARKER);

/**
 * Writes the marker into `dataDir` (which must exist), mode 0600, with `details` (what the restore writes into: the
 * archive, the database, the bucket; no secret) and the time. Throws on I/O errors.
 */
export function writeRestoreMarker(dataDir: string, details: string): void {
  fs.writeFileSync(restoreMarkerPath(dataDir), `npm run restore started at ${new Date().toISOString()} and has not finished.\n${details}\n`, { mode: 0o600 });
}

/** Removes the marker from `dataDir` (a missing one is not an error). */
export function clearRestoreMarker(dataDir: string): void {
  fs.rmSync(restoreMarkerPath(dataDir), { force: true });
}

/** True when `dataDir` holds the marker. */
export function hasRestoreMarker(dataDir: string): boolean {
  return fs.existsSync(restoreMarkerPath(dataDir));
}

/**
 * What to tell the operator when `dataDir` holds the marker (the start-up refusal: ConfigError in server.ts), or
 * undefined when it does not. Quotes the marker's first lines (what the restore was writing into).
 */
export function incompleteRestoreMessage(dataDir: string): string | undefined {
  if (!hasRestoreMarker(dataDir)) return undefined;
  let details = '';
  try { details = fs.readFileSync(restoreMarkerPath(dataDir), 'utf8').trim().split('\n').slice(0, 6).join(' '); } catch { /* unreadable: the name says enough */ }
  return `${restoreMarkerPath(dataDir)} exists: a restore (npm run restore) into this DATA_DIR did not finish (it was interrupted, or what it had written could not be removed again), so the database and the document store may hold half a college${details ? ` (${details})` : ''}. Do not start it: empty this folder, the database in DATABASE_URL (dropdb, createdb) and the S3 bucket the restore wrote into, then run the restore again.`;
}

/**
 * The marker every node sees (security review of the DATA_DIR marker: a second node with its own DATA_DIR but the
 * same DATABASE_URL and bucket started on a half-restored college). `npm run restore` creates this table in the
 * database it restores into (PostgreSQL: before pg_restore runs; embedded: right after the folder is loaded) and
 * drops it where the DATA_DIR marker is cleared. Not a portal table: a restore's checks let it through, `npm start`,
 * `npm run backup`, `admin:create` and `check:documents` refuse a database that holds it.
 */
export const RESTORE_MARKER_TABLE = 'restore_incomplete';

/** A query function of a PostgreSQL client or pool, or of PGlite (`$1` parameters). */
export type MarkerQuery = (sql: string, params?: unknown[]) => Promise<{ rows: any[] }>;

/** What to do about a database or bucket marker (the refusal's last sentence). */
const EMPTY_AND_RESTORE_AGAIN = 'Do not start it or back it up: empty the database in DATABASE_URL (dropdb, createdb), the S3 bucket the restore wrote into and the DATA_DIR it restored into, then run the restore again.';

/**
 * Creates the table RESTORE_MARKER_TABLE (`started_at timestamptz`, `details text`) in `public` of the database behind
 * `query` if it is not there (a restored dump that already carries it is fine), and adds one row with `details` (what
 * the restore writes into; no secret). Rejects on database errors.
 */
export async function createDatabaseMarker(query: MarkerQuery, details: string): Promise<void> {
  await query(`create table if not exists public.${RESTORE_MARKER_TABLE} (started_at timestamptz not null default now(), details text)`);
  await query(`insert into public.${RESTORE_MARKER_TABLE} (details) values ($1)`, [details]);
}

/** Drops the table RESTORE_MARKER_TABLE from the database behind `query` (a missing one is not an error). */
export async function dropDatabaseMarker(query: MarkerQuery): Promise<void> {
  await query(`drop table if exists public.${RESTORE_MARKER_TABLE}`);
}

/**
 * The refusal when the database behind `query` holds RESTORE_MARKER_TABLE (`to_regclass`), else undefined. `where`
 * names the database in the message ("The PostgreSQL database in DATABASE_URL"); the first row's time and details are
 * quoted. Rejects on database errors.
 */
export async function databaseMarkerMessage(query: MarkerQuery, where: string): Promise<string | undefined> {
  const present = (await query(`select to_regclass('public.${RESTORE_MARKER_TABLE}') is not null as present`)).rows[0]?.present;
  if (!present) return undefined;
  let details = '';
  try {
    const row = (await query(`select started_at::text as started_at, details from public.${RESTORE_MARKER_TABLE} order by started_at limit 1`)).rows[0];
    if (row) details = `npm run restore started at ${row.started_at} and has not finished. ${row.details ?? ''}`.trim();
  } catch { /* unreadable: the name says enough */ }
  return `${where} holds the table ${RESTORE_MARKER_TABLE}: a restore (npm run restore) into it did not finish (it was interrupted, or what it had written could not be removed again), so the database and the document store may hold half a college${details ? ` (${details})` : ''}. ${EMPTY_AND_RESTORE_AGAIN}`;
}

/** How a PostgreSQL database is named in the marker refusals. */
export const POSTGRES_DATABASE = 'The PostgreSQL database in DATABASE_URL';

/**
 * How the embedded (PGlite) database of `dataDir` (the DATA_DIR, not its pgdata folder) is named at the start of an
 * operator's message: "The embedded database in <dataDir>". The marker refusals (beside POSTGRES_DATABASE: npm start,
 * npm run backup, a restore's check of its target) and the refusals of a folder open in another process (backup,
 * db:to-postgres) all begin with it.
 */
export const embeddedDatabase = (dataDir: string): string => `The embedded database in ${dataDir}`;

/**
 * databaseMarkerMessage for the PostgreSQL database `url`, on one connection of its own (no migration runs). Rejects
 * when the server cannot be reached (cannotConnectYet tells that apart from the other failures) and on database errors.
 */
export async function postgresMarkerMessage(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {});
  await client.connect();
  try { return await databaseMarkerMessage((sql, params) => client.query(sql, params as any[]), POSTGRES_DATABASE); } finally { await client.end().catch(() => {}); }
}

/** Node's socket errors that mean nothing answered at DATABASE_URL's host and port (yet). */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN']);

/**
 * Whether `err`, from postgresMarkerMessage, means the PostgreSQL server cannot be reached or does not take connections
 * yet — and only that: a socket error (UNREACHABLE_CODES; ENOENT of a Unix socket that is not there; an AggregateError
 * of such errors, one per address of the host), pg's `timeout expired` (connectionTimeoutMillis) and `Connection
 * terminated unexpectedly` (closed before the start-up finished), or SQLSTATE 57P03 cannot_connect_now (starting up,
 * shutting down, in recovery). The start-up check before the migrations (server.ts) lets only these through, to
 * openDatabase, which says "Could not connect" in its own words (and the check after opening still refuses a marked
 * database). Anything else — a wrong password (28P01), no pg_hba.conf entry (28000), no CONNECT privilege (42501), a
 * database that does not exist (3D000), a failed query — means the server answered but the marker could not be read:
 * start-up then refuses before any migration runs (review of the swallowed pre-migration check, 2026-11-28).
 */
export function cannotConnectYet(err: unknown): boolean {
  const e = err as { code?: unknown; syscall?: unknown; message?: unknown; errors?: unknown } | null | undefined;
  if (!e || typeof e !== 'object') return false;
  // Every address of a host name refused (Node's AggregateError of its connection attempts).
  if (Array.isArray(e.errors) && e.errors.length) return e.errors.every(cannotConnectYet);
  if (typeof e.code === 'string') {
    if (UNREACHABLE_CODES.has(e.code)) return true;
    if (e.code === 'ENOENT' && e.syscall === 'connect') return true;
    return e.code === '57P03';
  }
  return e.message === 'timeout expired' || e.message === 'Connection terminated unexpectedly';
}

/** The part of a document store the bucket marker needs (DocumentStore's put, exists, delete; `bucket` on S3). */
export interface MarkerStore {
  kind: string; bucket?: string;
  put(key: string, body: Buffer, opts?: { contentType?: string }): Promise<void>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
}

/**
 * Writes the object RESTORE_MARKER at the root of `store` (the S3 bucket a restore writes documents into), before the
 * first document: a node on that bucket refuses to start while it is there (bucketMarkerMessage). No document key can
 * be it (documents are `<32 hex>.<ext>`). Rejects on S3 errors.
 */
export async function writeBucketMarker(store: MarkerStore, details: string): Promise<void> {
  await store.put(RESTORE_MARKER, Buffer.from(`npm run restore started at ${new Date().toISOString()} and has not finished.\n${details}\n`), { contentType: 'text/plain' });
}

/** Deletes the object RESTORE_MARKER from `store` (S3 answers a missing key with success). Rejects on S3 errors. */
export async function deleteBucketMarker(store: MarkerStore): Promise<void> {
  await store.delete(RESTORE_MARKER);
}

/**
 * The refusal when `store` is an S3 bucket holding RESTORE_MARKER (one HeadObject), else undefined (also for the local
 * store, whose restore marker is DATA_DIR's file). Rejects on S3 errors other than "not found".
 */
export async function bucketMarkerMessage(store: MarkerStore): Promise<string | undefined> {
  if (store.kind !== 's3') return undefined;
  if (!(await store.exists(RESTORE_MARKER))) return undefined;
  return `The S3 bucket "${store.bucket}" holds the object ${RESTORE_MARKER}: a restore (npm run restore) into it did not finish (it was interrupted, or what it had written could not be removed again), so the database and the document store may hold half a college. ${EMPTY_AND_RESTORE_AGAIN}`;
}
