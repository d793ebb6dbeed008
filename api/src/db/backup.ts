/**
 * Backup and restore of a college (backup and restore audit: there was no supported way to copy a college's data,
 * and several wrong restores started silently). One archive, a gzip'd tar, holds everything the college needs:
 * - `manifest.json` (BackupManifest): what kind of database, its migration level, and every upload row's id, store
 *   key, size and SHA-256 of the bytes as they were read;
 * - the database: `pgdata.tar` (the embedded PGlite folder, PGlite's own `dumpDataDir('none')`) or `database.dump`
 *   (`pg_dump -Fc` of the PostgreSQL database in DATABASE_URL, taken in the same snapshot as the manifest's rows);
 * - `uploads/<key>`: the documents, read through the document store (local folder or S3).
 * Not in it: `site/` (rebuilt at start-up), `outbox/` and `sms-outbox/` (files already sent or kept by the outbox
 * tables), the lock file.
 *
 * The CLIs are api/src/cli/backup.ts and api/src/cli/restore.ts; errors meant for the operator are BackupError.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import pg from 'pg';
import { parse as parseConnectionString } from 'pg-connection-string';
import * as tar from 'tar';
import type { Config } from '../config.ts';
import { assertKey, createDocumentStore, type DocumentStore } from '../storage/document-store.ts';
import { copyPgliteFolder, DataDirInUseError, loadPgliteFolder, openDatabase, openPgliteFolder, pgliteFolderInUse } from './client.ts';
import { LocalDocumentStore } from '../storage/local-store.ts';
import { localUploadRoot } from '../storage/document-store.ts';
import { readErasureLedger, reapplyErasures, WrongErasureSource, type ReappliedErasures } from '../features/erasure/erasure.service.ts';
import { ensurePrivateDir } from './private-dir.ts';
import { MAX_UPLOAD_BYTES } from '#contracts/common.ts';
import {
  bucketMarkerMessage, clearRestoreMarker, createDatabaseMarker, databaseMarkerMessage, deleteBucketMarker, dropDatabaseMarker, embeddedDatabase, hasRestoreMarker,
  incompleteRestoreMessage, POSTGRES_DATABASE, postgresMarkerMessage, RESTORE_MARKER, RESTORE_MARKER_TABLE, writeBucketMarker, writeRestoreMarker,
} from './restore-marker.ts';
import { newestKnownMigration } from './migration-level.ts';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import * as usersSchema from './schema/users.ts';
import * as catalogueSchema from './schema/catalogue.ts';
import * as applicationsSchema from './schema/applications.ts';
import * as messagingSchema from './schema/messaging.ts';
import * as systemSchema from './schema/system.ts';
import * as accountsSchema from './schema/accounts.ts';
import * as rateLimitsSchema from './schema/rate-limits.ts';

/**
 * A failure the operator can act on (the CLIs print its message and exit 1). `leftBehind`: a failed restore could not
 * remove everything it had written (documents in the bucket, the PostgreSQL database), so restoreBackup keeps the
 * RESTORE-INCOMPLETE marker (restore-marker.ts).
 */
export class BackupError extends Error { leftBehind = false; }

/** The archive's `manifest.json`. */
export interface BackupManifest {
  format: 'college-portal-backup';
  version: 1;
  /** ISO 8601, UTC */
  createdAt: string;
  database: {
    kind: 'pglite' | 'postgres';
    /** archive member holding the database */
    file: 'pgdata.tar' | 'database.dump';
    /** rows of drizzle.__drizzle_migrations, and the newest one's created_at (ms since epoch) */
    migrations: number;
    lastMigration: number | null;
  };
  /** upload rows whose document was found and copied: archive member `uploads/<key>` */
  uploads: Array<{ id: string; key: string; size: number; sha256: string }>;
  /** upload rows whose document was already missing from the store when the backup was taken */
  missing: Array<{ id: string; key: string }>;
}

/**
 * What `createBackup` wrote: archive path and size (bytes), database kind, documents copied and missing, and
 * (PostgreSQL) `notPortal`, the dump's objects the portal does not create ("EXTENSION pgcrypto", "TABLE public
 * ops_notes"): they are in the archive, but `npm run restore` leaves them out (classifyToc).
 */
export interface BackupSummary { file: string; bytes: number; kind: 'pglite' | 'postgres'; documents: number; missing: number; notPortal: string[] }

const MIGRATION_LEVEL_SQL = 'select count(*)::int as n, max(created_at)::text as last from drizzle.__drizzle_migrations';
const UPLOAD_ROWS_SQL = 'select id, stored_name as key from uploads order by created_at, id';

/** libpq's environment variable for each connection-string field pg-connection-string parses. */
const PG_ENV: Record<string, string> = {
  host: 'PGHOST', port: 'PGPORT', user: 'PGUSER', password: 'PGPASSWORD', database: 'PGDATABASE',
  sslmode: 'PGSSLMODE', sslrootcert: 'PGSSLROOTCERT', sslcert: 'PGSSLCERT', sslkey: 'PGSSLKEY',
  application_name: 'PGAPPNAME', options: 'PGOPTIONS', client_encoding: 'PGCLIENTENCODING', connect_timeout: 'PGCONNECT_TIMEOUT',
};

/**
 * The connection `url` (postgres://user:password@host:port/db?sslmode=…) as libpq environment variables (PGHOST,
 * PGPORT, PGUSER, PGPASSWORD, PGDATABASE, PGSSLMODE…), so pg_dump and pg_restore get it without a URL on their
 * command line, where `ps` and a failure's `cmd` would show the password (ASVS 5.0 V13.3.1 / V16.2.5: no secrets in
 * process arguments or logs). Empty fields are left out.
 */
export function pgEnv(url: string): Record<string, string> {
  const parsed = parseConnectionString(url) as Record<string, unknown>;
  const env: Record<string, string> = {};
  for (const [field, name] of Object.entries(PG_ENV)) {
    const value = parsed[field];
    if (typeof value === 'string' && value !== '') env[name] = value;
  }
  return env;
}

/**
 * `text` with every password hidden: the URL form `scheme://user:secret@` becomes `scheme://user:***@`, and each
 * string of `secrets` (and its URL-encoded form) becomes `***`. For anything printed about a database connection.
 */
export function maskSecrets(text: string, secrets: Array<string | undefined> = []): string {
  let out = text.replace(/([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:)[^@\s]*@/gi, '$1***@');
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join('***');
  }
  return out;
}

/**
 * `cmd args` (with `env` added to this process's environment) as a promise of its stdout. A failure rejects with a
 * BackupError naming `cmd`, its exit code and its stderr with `secrets` masked (maskSecrets) — never execFile's error,
 * whose `cmd` holds the whole command line; a missing tool (ENOENT) is a BackupError saying to install it.
 */
function run(cmd: string, args: string[], env: Record<string, string> = {}, secrets: Array<string | undefined> = []): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { maxBuffer: 16 * 1024 * 1024, env: { ...process.env, ...env } }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        return reject(new BackupError(`${cmd} is not installed: install the PostgreSQL client tools (version of the server or newer, e.g. apt-get install postgresql-client) and run this again.`));
      }
      const exit = typeof err.code === 'number' ? ` (exit ${err.code})` : '';
      const reason = String(stderr || '').trim() || (err.signal ? `killed by ${err.signal}` : 'no message');
      reject(new BackupError(maskSecrets(`${cmd} failed${exit}: ${reason}`, secrets)));
    });
  });
}

/** The PostgreSQL client tool `name` (pg_dump, pg_restore) can be run; otherwise BackupError saying to install it. */
async function requireTool(name: string): Promise<void> {
  await run(name, ['--version']);
}

/** Copies document `key` from `store` to `file`, hashing it; undefined when the store has no such object. */
async function copyDocument(store: DocumentStore, key: string, file: string): Promise<{ size: number; sha256: string } | undefined> {
  const object = await store.get(key);
  if (!object) return undefined;
  const hash = crypto.createHash('sha256');
  let size = 0;
  await fsp.mkdir(path.dirname(file), { recursive: true });
  await pipeline(object.stream, new Transform({ transform(chunk, _enc, cb) { hash.update(chunk); size += chunk.length; cb(null, chunk); } }), fs.createWriteStream(file, { mode: 0o600 }));
  return { size, sha256: hash.digest('hex') };
}

/** The SHA-256 (hex) and size in bytes of `file`. */
async function hashFile(file: string): Promise<{ size: number; sha256: string }> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(file)) { hash.update(chunk); size += chunk.length; }
  return { size, sha256: hash.digest('hex') };
}

/**
 * Writes a backup archive of the college configured in `config` to `out` (refused when `out` exists; written under a
 * temporary name inside its private temporary folder and linked to `out`, so a failed backup never looks like one
 * and nobody can prepare the file it is written to). PGlite (no DATABASE_URL): DATA_DIR's database
 * must not be open — a running server holds its lock and the backup refuses at once (BackupError "stop the server");
 * the live folder is only read: it is copied under its lock into the backup's temporary folder beside `out` (free disk
 * up to twice the database is needed there), and that copy, not migrated, is compacted (dropDeadRowVersions, so rows
 * deleted or erased before the backup are not in the archive), dumped and deleted. The live folder keeps its dead row
 * versions until PostgreSQL's own vacuum reuses them; it is not what leaves the machine. PostgreSQL: `pg_dump -Fc` (BackupError when pg_dump is not
 * installed) of one snapshot, in which the upload rows of the manifest are read too; it may run beside the nodes.
 * Documents are read through the document store after the database; a row whose document is missing is listed in
 * `missing` and the backup still completes. Resolves to a BackupSummary.
 */
export async function createBackup(config: Config, out: string): Promise<BackupSummary> {
  out = path.resolve(out);
  if (fs.existsSync(out)) throw new BackupError(`${out} already exists: choose a new file name (a backup never overwrites one).`);
  // A half-restored college is never archived as a good backup (its marker: DATA_DIR's file, the bucket's object,
  // the database's table, checked below in the snapshot or copy that is dumped, so no dump carries the table).
  const store = await createDocumentStore(config);
  const marked = incompleteRestoreMessage(config.dataDir) ?? await bucketMarkerOrRefuse(store, 'no backup was written');
  if (marked) throw unfinishedRestoreBackup(marked);
  const work = await fsp.mkdtemp(path.join(path.dirname(out), '.college-backup-'));
  try {
    let rows: Array<{ id: string; key: string }>;
    let level: { n: number; last: string | null };
    let database: BackupManifest['database'];
    let notPortal: string[] = [];
    if (config.DATABASE_URL) {
      await requireTool('pg_dump');
      const client = new pg.Client({ connectionString: config.DATABASE_URL });
      await client.connect();
      try {
        // The manifest's rows and the dump see the same snapshot: the transaction stays open while pg_dump runs.
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        const snapshot = (await client.query('select pg_export_snapshot() as s')).rows[0].s as string;
        const restoring = await databaseMarkerMessage((sql, params) => client.query(sql, params as any[]), POSTGRES_DATABASE);
        if (restoring) throw unfinishedRestoreBackup(restoring);
        rows = (await client.query(UPLOAD_ROWS_SQL)).rows;
        level = (await client.query(MIGRATION_LEVEL_SQL)).rows[0];
        const env = pgEnv(config.DATABASE_URL);
        await run('pg_dump', ['-Fc', `--snapshot=${snapshot}`, '-f', path.join(work, 'database.dump')], env, [env.PGPASSWORD]);
        await client.query('COMMIT');
      } finally { await client.end().catch(() => {}); }
      // What a restore will leave out is said now, when it can still be acted on, not first when the backup is needed.
      const toc = await run('pg_restore', ['-l', '-v', path.join(work, 'database.dump')]).catch(() => '');
      if (toc) notPortal = classifyToc(toc).leftOut;
      database = { kind: 'postgres', file: 'database.dump', migrations: level.n, lastMigration: level.last == null ? null : Number(level.last) };
    } else {
      if (await pgliteFolderInUse(config.dataDir)) throw serverRunning(config.dataDir);
      // The live folder is only read: copied under its lock, then vacuumed and dumped as a copy in `work`. PGlite runs
      // on the main thread, so during a long VACUUM FULL the lock could not be renewed and `npm start` could take the
      // folder over while the backup wrote it; and an interrupted backup would have stopped PGlite mid-rewrite there.
      const copy = path.join(work, 'database');
      try { await copyPgliteFolder(config.dataDir, copy); } catch (err: any) {
        if (err instanceof DataDirInUseError) throw serverRunning(config.dataDir);
        throw new BackupError(err?.message ?? String(err));
      }
      const folder = await openPgliteFolder(copy);
      try {
        const restoring = await databaseMarkerMessage((sql, params) => folder.client.query(sql, params as any[]), embeddedDatabase(config.dataDir));
        if (restoring) throw unfinishedRestoreBackup(restoring);
        rows = (await folder.client.query<{ id: string; key: string }>(UPLOAD_ROWS_SQL)).rows;
        level = (await folder.client.query<{ n: number; last: string | null }>(MIGRATION_LEVEL_SQL)).rows[0];
        await dropDeadRowVersions(folder.client);
        // 'none': PGlite's 'gzip' never resolves under Node 24; the archive is gzip'd as a whole below.
        const dump = await folder.client.dumpDataDir('none');
        await fsp.writeFile(path.join(work, 'pgdata.tar'), Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
      } finally {
        await folder.close();
        await fsp.rm(copy, { recursive: true, force: true });
      }
      database = { kind: 'pglite', file: 'pgdata.tar', migrations: level.n, lastMigration: level.last == null ? null : Number(level.last) };
    }
    const manifest: BackupManifest = { format: 'college-portal-backup', version: 1, createdAt: new Date().toISOString(), database, uploads: [], missing: [] };
    for (const row of rows) {
      const copied = await copyDocument(store, row.key, path.join(work, 'uploads', row.key));
      if (copied) manifest.uploads.push({ id: row.id, key: row.key, ...copied });
      else manifest.missing.push(row);
    }
    await fsp.writeFile(path.join(work, 'manifest.json'), JSON.stringify(manifest, null, 1), { mode: 0o600 });
    await fsp.mkdir(path.join(work, 'uploads'), { recursive: true });
    // Written inside `work` (mkdtemp: 0700, a name nobody could guess or pre-create), never as `${out}.part` beside
    // `out`: in a shared writable folder another local user could create that name first and then own the archive.
    const part = path.join(work, 'archive.tgz.part');
    // The archive holds the password hashes and every document: owner only, like DATA_DIR (security audit F1).
    await tar.c({ gzip: true, file: part, cwd: work, portable: true, mode: 0o600 }, ['manifest.json', database.file, 'uploads']);
    await fsp.chmod(part, 0o600);
    // link, not rename: it fails when `out` appeared meanwhile (a file or a symlink), where rename would replace it.
    try { await fsp.link(part, out); } catch (err: any) {
      if (err?.code === 'EEXIST') throw new BackupError(`${out} already exists: choose a new file name (a backup never overwrites one).`);
      if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV'].includes(err?.code)) throw err;
      // A file system without hard links: an exclusive copy, which refuses an existing `out` the same way.
      await fsp.copyFile(part, out, fs.constants.COPYFILE_EXCL).catch((e: any) => {
        throw e?.code === 'EEXIST' ? new BackupError(`${out} already exists: choose a new file name (a backup never overwrites one).`) : e;
      });
    }
    await fsp.chmod(out, 0o600);
    return { file: out, bytes: fs.statSync(out).size, kind: database.kind, documents: manifest.uploads.length, missing: manifest.missing.length, notPortal };
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}

/**
 * Makes the embedded database's files hold only live rows before they are copied (privacy audit F2): an erased
 * person's ID number and address stayed in old row versions of the tables and in the write-ahead log until vacuumed,
 * and `dumpDataDir` copies the raw folder, so every later backup brought them along. VACUUM FULL rewrites every table
 * and index without dead rows; pg_switch_wal starts a new WAL segment, and the CHECKPOINT with `wal_recycle = off`
 * deletes the old segments instead of renaming them for reuse (a recycled segment keeps its old bytes until
 * overwritten; new segments are zero-filled, wal_init_zero). PGlite is one process, so the checkpoint runs in this
 * session and sees the SET. Runs on createBackup's temporary copy, never on the live folder; needs free disk up to the
 * size of the largest table. Rejects on database errors (the backup then fails, nothing written).
 */
async function dropDeadRowVersions(client: { exec(sql: string): Promise<unknown> }): Promise<void> {
  await client.exec('VACUUM FULL');
  await client.exec('SELECT pg_switch_wal()');
  await client.exec('SET wal_recycle = off');
  await client.exec('CHECKPOINT');
}

/** The BackupError of createBackup when a restore marker is present: `marker` (its refusal) and that nothing was written. */
const unfinishedRestoreBackup = (marker: string) => new BackupError(`${marker} No backup was written: an archive of a college a restore did not finish would look like a good backup.`);

const serverRunning = (dataDir: string) => new BackupError(`${embeddedDatabase(dataDir)} is open in another process (a running \`npm start\`?). Stop the server, then run the backup again: the embedded database serves one process at a time, and a copy taken while it writes may not start.`);

/**
 * What `restoreBackup` did: database kind, documents written, documents the backup already lacked, sessions ended,
 * and the dump's entries left out as not part of the portal (PostgreSQL; empty for PGlite).
 */
export interface RestoreSummary {
  kind: 'pglite' | 'postgres'; documents: number; missing: number; sessionsEnded: number; leftOut: string[];
  /** The keys written into RestoreOptions.store (every manifest key), [] when the documents went to `dataDir/uploads`. */
  writtenKeys: string[];
}

/**
 * Ends every login of a restored copy: a person who logged out (or was locked out) after the backup was taken must not
 * be logged in again by the restore. Empties `session` and revokes the bearer tokens. Also deletes every row of
 * `shared_site_builds` (when the table exists at the backup's migration level): a backup never carries the site builds'
 * objects (`site-builds/<hash>.tgz`), and a `ready` row makes an S3 node download that key from the bucket and serve it
 * as the site (api/src/site-build/shared-builds.ts; review of aade6f1); the first node to start builds it again.
 * Resolves to the sessions removed.
 */
async function endSessions(query: (sql: string) => Promise<{ rows: any[]; affectedRows?: number; rowCount?: number | null }>): Promise<number> {
  const n = (await query('select count(*)::int as n from session')).rows[0].n as number;
  await query('delete from session');
  await query('update auth_tokens set revoked_at = now() where revoked_at is null');
  if ((await query(`select to_regclass('public.shared_site_builds') is not null as present`)).rows[0].present) await query('delete from shared_site_builds');
  return n;
}

/** True when `dir` does not exist or is an empty folder. */
function emptyOrMissing(dir: string): boolean {
  try { return fs.readdirSync(dir).length === 0; } catch (err: any) {
    if (err?.code === 'ENOENT') return true;
    throw err;
  }
}

/** The tables of the portal's drizzle schema (api/src/db/schema/*.ts), by name: what a restored database may hold. */
function portalTables(): Set<string> {
  const modules = [usersSchema, catalogueSchema, applicationsSchema, messagingSchema, systemSchema, accountsSchema, rateLimitsSchema];
  const names = new Set<string>();
  for (const mod of modules) for (const value of Object.values(mod)) if (is(value, PgTable)) names.add(getTableName(value));
  return names;
}

/**
 * Names of the functions, triggers and extensions the portal's migrations create (CREATE [OR REPLACE] FUNCTION,
 * CREATE TRIGGER, CREATE EXTENSION in api/src/db/migrations/*.sql): the only ones a PostgreSQL restore lets through.
 */
function migrationObjects(): { functions: Set<string>; triggers: Set<string>; extensions: Set<string> } {
  const dir = path.join(import.meta.dirname, 'migrations');
  const sql = fs.readdirSync(dir).filter((f) => f.endsWith('.sql')).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');
  const all = (re: RegExp) => new Set([...sql.matchAll(re)].map((m) => m[1]));
  return {
    functions: all(/create\s+(?:or\s+replace\s+)?function\s+"?([a-z_][a-z0-9_]*)"?\s*\(/gi),
    triggers: all(/create\s+trigger\s+"?([a-z_][a-z0-9_]*)"?/gi),
    extensions: all(/create\s+extension\s+(?:if\s+not\s+exists\s+)?"?([a-z_][a-z0-9_]*)"?/gi),
  };
}

/** Every object type `pg_restore -l` names (pg_dump's `desc`), longest first so "TABLE DATA" wins over "TABLE". */
const TOC_TYPES = [
  'MATERIALIZED VIEW DATA', 'TEXT SEARCH CONFIGURATION', 'TEXT SEARCH DICTIONARY', 'TEXT SEARCH TEMPLATE', 'TEXT SEARCH PARSER',
  'FOREIGN DATA WRAPPER', 'SEQUENCE OWNED BY', 'PUBLICATION TABLES IN SCHEMA', 'PUBLICATION TABLE', 'PROCEDURAL LANGUAGE',
  'MATERIALIZED VIEW', 'CHECK CONSTRAINT', 'OPERATOR FAMILY', 'OPERATOR CLASS', 'BLOB METADATA', 'LARGE OBJECT', 'EVENT TRIGGER',
  'FOREIGN TABLE', 'FK CONSTRAINT', 'ROW SECURITY', 'SEQUENCE SET', 'USER MAPPING', 'ACCESS METHOD', 'INDEX ATTACH',
  'DEFAULT ACL', 'TABLE ATTACH', 'TABLE DATA', 'SUBSCRIPTION', 'PUBLICATION', 'STATISTICS', 'CONSTRAINT', 'COLLATION',
  'CONVERSION', 'EXTENSION', 'AGGREGATE', 'PROCEDURE', 'STDSTRINGS', 'SEARCHPATH', 'TRANSFORM', 'SEQUENCE', 'FUNCTION',
  'OPERATOR', 'ENCODING', 'DATABASE', 'LANGUAGE', 'TRIGGER', 'COMMENT', 'DEFAULT', 'DOMAIN', 'SCHEMA', 'SERVER', 'POLICY',
  'SHELL TYPE', 'BLOBS', 'BLOB', 'INDEX', 'TABLE', 'TYPE', 'VIEW', 'RULE', 'CAST', 'ACL',
];
/** Entries a portal dump has that restore leaves out without refusing: comments, grants, session settings. */
const TOC_SKIPPED = new Set(['COMMENT', 'ACL', 'DEFAULT ACL', 'ENCODING', 'STDSTRINGS', 'SEARCHPATH', 'DATABASE']);

/** One entry of a `pg_restore -l -v` listing: its dump id, the line itself, a readable name, and the ids it depends on. */
interface TocEntry { id: string; line: string; label: string; deps: string[] }

/** What classifyToc found: the use-list lines to restore, the entries left out (readable), and why it must refuse. */
export interface TocClassification { keep: string[]; leftOut: string[]; refusal?: string }

/**
 * Sorts the `pg_restore -l -v` listing `toc` (with its "depends on" lines) into the portal's own objects and the rest
 * (security review B, and the review of 2026-11-27: a DBA's `create extension pgcrypto` or `ops_notes` table made a
 * real backup impossible to restore). Kept: SCHEMA drizzle, the EXTENSIONs, FUNCTIONs and TRIGGERs the portal's
 * migrations create, and the TABLE, TABLE DATA, SEQUENCE, DEFAULT, CONSTRAINT, FK CONSTRAINT and INDEX of the tables
 * its drizzle schema defines (and drizzle.__drizzle_migrations) — and only when every entry they depend on is kept
 * too, so an index or sequence of a left-out table is left out with it. Comments, grants and session settings are
 * dropped silently; everything else (another schema, extension, function, view, table, procedure, policy…) is left
 * out and named in `leftOut` ("EXTENSION pgcrypto", "TABLE public ops_notes"). A left-out entry runs none of its SQL.
 * `refusal` is set when the dump cannot be restored at all: a table, function, extension or trigger of the portal
 * depends on something left out, or the dump has no users, uploads or drizzle.__drizzle_migrations table.
 */
export function classifyToc(toc: string): TocClassification {
  const tables = portalTables();
  const objects = migrationObjects();
  const isTable = (schema: string, name: string) => (schema === 'public' && tables.has(name)) || (schema === 'drizzle' && name === '__drizzle_migrations');
  const entries: TocEntry[] = [];
  const out = new Set<string>();
  const essential = new Set<string>();
  const kept = new Set<string>();
  const tableOf = new Map<string, string>();
  for (const line of toc.split('\n')) {
    const depends = /^;\s*depends on:\s*([\d\s]*)$/.exec(line);
    if (depends && entries.length) { entries[entries.length - 1].deps.push(...depends[1].trim().split(/\s+/).filter(Boolean)); continue; }
    if (!line.trim() || line.startsWith(';')) continue;
    const m = /^\s*(\d+);\s*\d+\s+\d+\s+(.*)$/.exec(line);
    if (!m) { entries.push({ id: `?${entries.length}`, line, label: line.trim(), deps: [] }); out.add(`?${entries.length - 1}`); continue; }
    const [, id, rest] = m;
    const type = TOC_TYPES.find((t) => rest === t || rest.startsWith(`${t} `));
    if (type && TOC_SKIPPED.has(type)) continue;
    const words = type ? rest.slice(type.length + 1).trim().split(' ') : [];
    const [schema = '', name = '', third = ''] = words;
    // "<schema> <name…> <owner>": the owner (absent for extensions) is not part of the object's name.
    const shown = (words.length > 2 ? words.slice(0, -1) : words).filter((w, i) => !(i === 0 && w === '-')).join(' ');
    const entry: TocEntry = { id, line, label: type ? `${type} ${shown}` : rest.trim(), deps: [] };
    entries.push(entry);
    let ok = false;
    switch (type) {
      case 'SCHEMA': ok = name === 'drizzle' || name === 'public'; if (ok) essential.add(id); break;
      case 'EXTENSION': ok = schema === '-' && objects.extensions.has(name); if (ok) essential.add(id); break;
      case 'FUNCTION': ok = schema === 'public' && objects.functions.has(name.replace(/\(.*$/, '')); if (ok) essential.add(id); break;
      case 'TABLE': case 'TABLE DATA': ok = isTable(schema, name); if (ok) { essential.add(id); tableOf.set(id, name); } break;
      case 'SEQUENCE': case 'SEQUENCE SET': case 'SEQUENCE OWNED BY': ok = schema === 'public' || schema === 'drizzle'; break;
      case 'DEFAULT': case 'CONSTRAINT': case 'FK CONSTRAINT': ok = isTable(schema, name); break;
      case 'INDEX': ok = schema === 'public' || schema === 'drizzle'; break;
      case 'TRIGGER': ok = isTable(schema, name) && objects.triggers.has(third); if (ok) essential.add(id); break;
    }
    if (!ok) out.add(id);
  }
  // Whatever depends on a left-out entry is left out too: its SQL would fail (or need what was not restored).
  for (let changed = true; changed;) {
    changed = false;
    for (const e of entries) if (!out.has(e.id) && e.deps.some((d) => out.has(d))) { out.add(e.id); changed = true; }
  }
  const keep: string[] = [];
  const leftOut: string[] = [];
  const label = new Map(entries.map((e) => [e.id, e.label]));
  let refusal: string | undefined;
  for (const e of entries) {
    if (!out.has(e.id)) { keep.push(e.line); if (tableOf.has(e.id)) kept.add(tableOf.get(e.id)!); continue; }
    leftOut.push(e.label);
    if (essential.has(e.id) && !refusal) {
      const needs = e.deps.filter((d) => out.has(d)).map((d) => label.get(d) ?? d);
      refusal = `the database dump's ${e.label} (part of the portal) needs ${needs.join(', ')}, which is not part of the portal, so it cannot be left out: restore this dump by hand (pg_restore) or make a new backup after removing that dependency. Nothing was restored.`;
    }
  }
  if (!refusal && (!kept.has('users') || !kept.has('uploads') || !kept.has('__drizzle_migrations'))) {
    refusal = 'the database dump has none of the portal\'s tables (users, uploads, drizzle.__drizzle_migrations): it is not a backup of this portal. Nothing was restored.';
  }
  return { keep, leftOut, refusal };
}

/**
 * The `pg_restore -l -v` listing `toc` as a use-list for `pg_restore -L` (classifyToc): `list` holds only the portal's
 * own objects; `leftOut` names the entries left out, whose SQL never runs (the caller prints them). Throws a
 * BackupError with classifyToc's refusal (a portal object needing a left-out one; a dump without the portal's tables).
 */
export function portalUseList(toc: string): { list: string; leftOut: string[] } {
  const c = classifyToc(toc);
  if (c.refusal) throw new BackupError(c.refusal);
  return { list: `${c.keep.join('\n')}\n`, leftOut: c.leftOut };
}

/** PostgreSQL roles whose members can run programs or read and write files on the database server. */
const SERVER_ACCESS_ROLES = ['pg_execute_server_program', 'pg_read_server_files', 'pg_write_server_files'];

/**
 * Checks, after pg_restore, that the database in `query` is a portal database at the manifest's migration level
 * (security review B): the migration rows match `manifest.database` (count and newest created_at), every table in
 * `public` is one of the portal's, and there is no function, trigger, rule, policy or event trigger the portal's
 * migrations do not create. Throws a BackupError naming the first difference.
 */
async function assertPortalDatabase(query: (sql: string) => Promise<{ rows: any[] }>, manifest: BackupManifest): Promise<void> {
  const tables = portalTables();
  const objects = migrationObjects();
  const fail = (what: string) => { throw new BackupError(`the restored database ${what}: the archive was altered or is not a portal backup. The restore was undone.`); };
  let level: { n: number; last: string | null };
  try { level = (await query(MIGRATION_LEVEL_SQL)).rows[0]; } catch { return fail('has no drizzle.__drizzle_migrations'); }
  const last = level.last == null ? null : Number(level.last);
  if (level.n !== manifest.database.migrations || last !== manifest.database.lastMigration) {
    fail(`is at migration level ${level.n} (newest ${last}), not the manifest's ${manifest.database.migrations} (newest ${manifest.database.lastMigration})`);
  }
  const found = (await query(`select n.nspname as schema, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p', 'v', 'm', 'f') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'`)).rows;
  // The restore's own marker (restore-marker.ts) is created before this check and dropped when the restore finishes.
  const extra = found.filter((t) => !((t.schema === 'public' && (tables.has(t.name) || t.name === RESTORE_MARKER_TABLE)) || (t.schema === 'drizzle' && t.name === '__drizzle_migrations')));
  if (extra.length) fail(`holds table ${extra[0].schema}.${extra[0].name}, which the portal does not have`);
  if (!found.some((t) => t.schema === 'public' && t.name === 'users')) fail('has no users table');
  const functions = (await query(`select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname not in ('pg_catalog', 'information_schema')
      and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')`)).rows;
  const badFunction = functions.find((f) => !objects.functions.has(f.name));
  if (badFunction) fail(`holds function ${badFunction.name}, which the portal does not have`);
  const triggers = (await query('select tgname as name from pg_trigger where not tgisinternal')).rows;
  const badTrigger = triggers.find((t) => !objects.triggers.has(t.name));
  if (badTrigger) fail(`holds trigger ${badTrigger.name}, which the portal does not have`);
  const other = (await query(`select (select count(*) from pg_rules where schemaname not in ('pg_catalog', 'information_schema'))::int
    + (select count(*) from pg_policies)::int + (select count(*) from pg_event_trigger)::int as n`)).rows[0].n;
  if (other) fail('holds rules, row-level policies or event triggers, which the portal does not have');
}

/**
 * What makes the database behind `query` not empty for a restore (review of 2026-11-27: a refused restore dropped an
 * `ops` schema the owner had made): any schema but public and the system ones, any extension but plpgsql, any
 * relation (table, view, sequence, index…), function, type, operator or collation in public, any event trigger.
 * Resolves to readable names ("schema ops", "function public.f", "extension pgcrypto"); [] for a new database.
 */
async function nonEmpty(query: (sql: string) => Promise<{ rows: any[] }>): Promise<string[]> {
  return (await query(`
    select 'schema ' || nspname as what from pg_namespace where nspname not in ('pg_catalog', 'information_schema', 'public')
      and nspname not like 'pg_toast%' and nspname not like 'pg_temp%'
    union all select 'extension ' || extname from pg_extension where extname <> 'plpgsql'
    union all select 'relation public.' || relname from pg_class where relnamespace = 'public'::regnamespace
    union all select 'function public.' || proname from pg_proc where pronamespace = 'public'::regnamespace
    union all select 'type public.' || typname from pg_type where typnamespace = 'public'::regnamespace and typrelid = 0 and typelem = 0
    union all select 'operator public.' || oprname from pg_operator where oprnamespace = 'public'::regnamespace
    union all select 'collation public.' || collname from pg_collation where collnamespace = 'public'::regnamespace
    union all select 'event trigger ' || evtname from pg_event_trigger
    order by 1`)).rows.map((r) => r.what as string);
}

/** The schemas and extensions of the database behind `query`, by name: what undoPostgresRestore must leave alone. */
async function presentSchemasAndExtensions(query: (sql: string) => Promise<{ rows: any[] }>): Promise<{ schemas: Set<string>; extensions: Set<string> }> {
  const schemas = (await query('select nspname as n from pg_namespace')).rows.map((r) => r.n as string);
  const extensions = (await query('select extname as n from pg_extension')).rows.map((r) => r.n as string);
  return { schemas: new Set(schemas), extensions: new Set(extensions) };
}

/**
 * Empties the PostgreSQL database of a refused restore again: drops the schemas and extensions that were not in
 * `before` (presentSchemasAndExtensions, taken just before pg_restore), and empties public (which the pre-check found
 * empty: nonEmpty). Resolves to false when that failed (the operator must drop the database), true otherwise.
 */
async function undoPostgresRestore(query: (sql: string) => Promise<{ rows: any[] }>, before: { schemas: Set<string>; extensions: Set<string> }): Promise<boolean> {
  try {
    const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
    for (const { extname } of (await query('select extname from pg_extension')).rows) {
      if (!before.extensions.has(extname)) await query(`drop extension if exists ${quote(extname)} cascade`);
    }
    for (const { nspname } of (await query(`select nspname from pg_namespace where nspname <> 'public'`)).rows) {
      if (!before.schemas.has(nspname)) await query(`drop schema if exists ${quote(nspname)} cascade`);
    }
    await query('drop schema if exists public cascade');
    await query('create schema public');
    return true;
  } catch { return false; }
}

/** The archive members a backup has: `name` relative to the archive's root, without `./` and trailing `/`. */
function memberName(p: string): string {
  return p.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
}

/**
 * Extracts archive `file` into `work`, only regular files and folders named as a backup names them (security review
 * A): `manifest.json`, `pgdata.tar` or `database.dump`, the folder `uploads` and the files in it, each named by a single
 * document key (validKey: no folder under uploads, review of aade6f1) and at most MAX_RESTORED_DOCUMENT_BYTES. Symbolic links,
 * hard links, devices and any other name are not written and make it throw a BackupError naming them. Resolves only
 * once node-tar has finished writing (also after an error), so the caller's cleanup never races the extraction.
 */
async function extractArchive(file: string, work: string): Promise<void> {
  const refused: string[] = [];
  const warnings: string[] = [];
  const allowed = (name: string, type: string, size: number) => {
    if (type === 'File') return ['manifest.json', 'pgdata.tar', 'database.dump'].includes(name) || (name.startsWith('uploads/') && validKey(name.slice('uploads/'.length)) && size <= MAX_RESTORED_DOCUMENT_BYTES);
    if (type === 'Directory') return name === 'uploads';
    return false;
  };
  const unpack = new tar.Unpack({
    cwd: work,
    filter: (p: string, entry: any) => {
      const name = memberName(p);
      const type = String(entry?.type ?? '');
      const size = Number(entry?.size ?? 0);
      if (allowed(name, type, size)) return true;
      refused.push(`${name} (${type === 'SymbolicLink' ? `symbolic link to ${entry?.linkpath}` : type === 'Link' ? `hard link to ${entry?.linkpath}` : type === 'File' && size > MAX_RESTORED_DOCUMENT_BYTES ? `File of ${size} bytes, more than a document can be` : type})`);
      return false;
    },
    onwarn: (_code: string, message: string | Error) => { warnings.push(String((message as Error)?.message ?? message)); },
  } as any);
  const ended = new Promise<void>((resolve) => { unpack.on('close', resolve); unpack.on('end', resolve); unpack.on('finish', resolve); });
  let failure: unknown;
  try { await pipeline(fs.createReadStream(file), unpack); } catch (err) { failure = err; }
  // After an abort node-tar may still be writing an entry it had started: wait for it (or briefly), so the caller's
  // cleanup does not meet a folder still being filled ("ENOTEMPTY … rmdir '.restoring-…'", security review D).
  await Promise.race([ended, new Promise((r) => setTimeout(r, 2000).unref())]);
  if (refused.length) {
    throw new BackupError(`${file} holds ${refused.slice(0, 3).join(', ')}${refused.length > 3 ? ` and ${refused.length - 3} more` : ''}: a backup holds only regular files (manifest.json, the database, uploads/<document>: one name each, no folder under uploads). The archive was altered; nothing was restored.`);
  }
  if (failure || warnings.length) {
    throw new BackupError(`${file} is not a readable backup archive (${(failure as any)?.message ?? warnings[0]}).`);
  }
}

/**
 * True when `key` can be a document's key in a backup: a key assertKey accepts that is a single name, without `/`
 * (review of aade6f1). The portal names every document `<32 hex>.<ext>` (storeUpload in
 * api/src/features/uploads/uploads.service.ts, for tus uploads too) at the store's root; keys with `/` are the store's
 * other objects (`tus/…` of the local driver, `site-builds/<hash>.tgz` of the S3 nodes), never a document.
 */
function validKey(key: string): boolean {
  try { assertKey(key); return !key.includes('/'); } catch { return false; }
}

/**
 * Throws a BackupError (before any document is written) when `manifest.uploads` lists a key that no row of the restored
 * database's `uploads` table names in `stored_name` (review of aade6f1: a tampered archive could otherwise write any
 * object into the bucket, e.g. a site build the S3 nodes serve). Names up to five such keys.
 */
async function assertManifestKeysNamed(query: (sql: string) => Promise<{ rows: any[] }>, manifest: BackupManifest): Promise<void> {
  const named = new Set((await query('select stored_name from uploads')).rows.map((r) => r.stored_name as string));
  const unnamed = manifest.uploads.map((u) => u.key).filter((key) => !named.has(key));
  if (unnamed.length) {
    throw new BackupError(`the backup's manifest lists ${unnamed.length} document(s) that no upload row of its database names: ${unnamed.slice(0, 5).join(', ')}${unnamed.length > 5 ? `, and ${unnamed.length - 5} more` : ''}. The archive was altered; nothing was restored.`);
  }
}

/**
 * Every name under `work` (lstat, links never followed) is a regular file or folder that the manifest expects:
 * `manifest.json`, `manifest.database.file` (the one its kind has), `uploads`, and `uploads/<key>` for each key of
 * `manifest.uploads` with the folders above it. Throws a BackupError naming the first other one (security review A).
 */
async function assertExpectedMembers(work: string, manifest: BackupManifest): Promise<void> {
  const files = new Set(['manifest.json', manifest.database.file, ...manifest.uploads.map((u) => `uploads/${u.key}`)]);
  const dirs = new Set(['uploads']);
  for (const u of manifest.uploads) {
    const parts = u.key.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(`uploads/${parts.slice(0, i).join('/')}`);
  }
  for (const entry of await fsp.readdir(work, { recursive: true })) {
    const name = entry.split(path.sep).join('/');
    const stat = await fsp.lstat(path.join(work, entry));
    const ok = stat.isFile() ? files.has(name) : stat.isDirectory() ? dirs.has(name) : false;
    if (!ok) throw new BackupError(`the backup holds ${name}${stat.isSymbolicLink() ? ' (a symbolic link)' : ''}, which its manifest does not list: the archive was altered; nothing was restored.`);
  }
}

/** Throws a BackupError when a symbolic link or anything but files and folders is under `dir` (lstat, not followed). */
async function assertNoLinks(dir: string): Promise<void> {
  for (const entry of await fsp.readdir(dir, { recursive: true })) {
    const stat = await fsp.lstat(path.join(dir, entry));
    if (!stat.isFile() && !stat.isDirectory()) throw new BackupError(`the restored database folder holds ${entry}, which is not a regular file or folder: the archive was altered. The restore was undone.`);
  }
}

/**
 * Options of restoreBackup: `url` the PostgreSQL database to restore into; `allowSuperuser` lets `url` be a superuser's;
 * `store` the document store the restored college will use when it is not `dataDir/uploads` (the S3 driver of
 * DOCUMENT_STORE=s3, created from the same S3_* settings as the nodes): the documents are written into it instead.
 */
export interface RestoreOptions {
  url?: string; allowSuperuser?: boolean; store?: DocumentStore;
  /** Leave DATA_DIR/RESTORE-INCOMPLETE after a success: the caller has more to do (--erasures-from) and clears it. */
  keepMarker?: boolean;
}

/**
 * bucketMarkerMessage of `store` (the RESTORE-INCOMPLETE object's refusal, or undefined), for commands that must not
 * run on a half-restored college (backup, db:to-postgres). A bucket that cannot be asked refuses too: BackupError
 * "cannot ask … (the credentials need s3:GetObject and s3:ListBucket); `outcome`." (`outcome`: what did not happen).
 */
export async function bucketMarkerOrRefuse(store: DocumentStore, outcome: string): Promise<string | undefined> {
  return bucketMarkerMessage(store).catch((err: any) => {
    throw new BackupError(`cannot ask ${describeStore(store)} for the object ${RESTORE_MARKER} (${err?.name ?? 'Error'}: ${err?.message ?? err}): check the S3_* settings (the credentials need s3:GetObject and s3:ListBucket); ${outcome}.`);
  });
}

/** How `store` is named in the operator's messages: `the S3 bucket "name"`, or `the document store (local)`. */
export function describeStore(store: DocumentStore): string {
  return store.kind === 's3' ? `the S3 bucket "${(store as { bucket?: string }).bucket}"` : `the document store (${store.kind})`;
}

/** S3's answer for a bucket that does not exist yet (ListObjectsV2 on it): NoSuchBucket, 404. */
const noSuchBucket = (err: any) => err?.name === 'NoSuchBucket' || err?.Code === 'NoSuchBucket' || err?.$metadata?.httpStatusCode === 404;

/**
 * Throws a BackupError unless `store` holds no object at all (a bucket that does not exist yet counts as empty; its
 * creation is left to `store.init()`). The whole store, not only the manifest's keys: documents live at the bucket's
 * root beside tus uploads (`<id>`, `<id>.info`) and `site-builds/`, so any object means a college already uses it, and
 * a restore never mixes with a college's data (as `dataDir` must be empty). Asked with one request for up to three keys
 * (S3DocumentStore.firstKeys; other stores are listed): the message names them and says "more than 3" beyond. A store
 * that cannot be listed (unreachable,
 * no s3:ListBucket permission) is a BackupError too. `when` ends the message ("nothing was restored", …).
 */
async function assertStoreEmpty(store: DocumentStore, when: string): Promise<void> {
  let keys: string[];
  let more = false;
  // One request (MaxKeys 3) where the driver has it, not a listing of the whole bucket (review of aade6f1).
  const first = (store as { firstKeys?: (max: number) => Promise<{ keys: string[]; more: boolean }> }).firstKeys;
  try { ({ keys, more } = first ? await first.call(store, 3) : { keys: await store.list(), more: false }); } catch (err: any) {
    if (noSuchBucket(err)) return;
    throw new BackupError(`cannot list ${describeStore(store)} (${err?.name ?? 'Error'}: ${err?.message ?? err}): check the S3_* settings (S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE); ${when}.`);
  }
  if (keys.length) {
    throw new BackupError(`${describeStore(store)} is not empty: it holds ${more ? `more than ${keys.length}` : keys.length} object(s) (${keys.slice(0, 3).join(', ')}${more || keys.length > 3 ? ', …' : ''}). Restore the documents into a new, empty bucket (or empty this one), never over a college's documents; ${when}. If it holds what an earlier restore wrote before it was interrupted (its DATA_DIR holds ${RESTORE_MARKER}), empty the bucket, that folder and its database, then run the restore again. To restore them into DATA_DIR/uploads instead, run the restore without DOCUMENT_STORE=s3 and S3_BUCKET.`);
  }
}

/** A Content-Type to store a document under: the upload row's `mime` when it is one (type/subtype), else octet-stream. */
const safeMime = (mime: unknown) => typeof mime === 'string' && /^[a-z0-9][\w.+-]*\/[\w.+-]+$/i.test(mime) && mime.length <= 100 ? mime : 'application/octet-stream';

/** Stands in a message written before the database was undone, for what the undo did (sayDatabaseUndo). */
const DATABASE_UNDO = '\u0000database-undo\u0000';

/**
 * `err` (returned) with what became of the restored database said in its message (review of aade6f1: a failed undo
 * was reported as 'removed again' and as failed in one message): DATABASE_UNDO is replaced by 'The restored database was
 * removed again.' when `undone`, else by the instruction to drop and create the --url database (appended to a
 * BackupError without the placeholder).
 */
function sayDatabaseUndo(err: unknown, undone: boolean): unknown {
  if (!(err instanceof BackupError)) return err;
  const said = undone ? 'The restored database was removed again.' : 'Emptying the database in --url failed: drop it and create it again (dropdb, createdb) before the next restore.';
  err.message = err.message.includes(DATABASE_UNDO) ? err.message.replace(DATABASE_UNDO, said) : undone ? err.message : `${err.message} ${said}`;
  return err;
}

/**
 * The largest document a restore accepts, in bytes: 4 × MAX_UPLOAD_BYTES (5 MB, spec §9), a margin for documents
 * uploaded under an earlier, higher limit. A tampered archive's manifest entry or `uploads/` member above it is refused
 * before it is extracted or read (review of aade6f1: documents are read whole into memory to be written to S3).
 */
export const MAX_RESTORED_DOCUMENT_BYTES = 4 * MAX_UPLOAD_BYTES;

/** How many documents restoreBackup writes into a store at once. */
const STORE_WRITERS = 8;

/**
 * Writes every document of `manifest` from `work/uploads/<key>` into `store` under its key (STORE_WRITERS at a time;
 * Content-Type from `mimes`, the restored upload rows' `mime` by key). Resolves to the keys
 * written (read whole: documents are ≤ 5 MB). On the first failure no further document is started; those already written (and any in flight) are
 * deleted again, and a BackupError says how many of how many were written, which failed and why, whether they were
 * all deleted (else names the ones left, which a new restore would refuse as a non-empty bucket) and to run the
 * restore again. The caller undoes the database.
 */
async function writeDocumentsToStore(store: DocumentStore, work: string, manifest: BackupManifest, mimes: Map<string, string>): Promise<string[]> {
  const docs = manifest.uploads;
  const written: string[] = [];
  const tried: string[] = [];
  let failure: { doc: BackupManifest['uploads'][number]; err: any } | undefined;
  let next = 0;
  const worker = async () => {
    while (!failure && next < docs.length) {
      const doc = docs[next++];
      try {
        // A buffer (documents are ≤ 5 MB), not a stream: the SDK's retry can send it again.
        const body = await fsp.readFile(path.join(work, 'uploads', doc.key));
        // Another writer may have failed while this one read the file: then this document is not started.
        if (failure) break;
        tried.push(doc.key);
        await store.put(doc.key, body, { contentType: safeMime(mimes.get(doc.key)) });
        written.push(doc.key);
      } catch (err) { failure ??= { doc, err }; }
    }
  };
  await Promise.all(Array.from({ length: Math.min(STORE_WRITERS, docs.length) }, worker));
  if (!failure) return written;
  // A failed put may still have stored the object (the answer was lost): delete every key this run tried.
  const left: string[] = [];
  for (const key of tried) await store.delete(key).catch(() => { left.push(key); });
  const where = describeStore(store);
  const cleanup = left.length
    ? `${left.length} of the documents this restore wrote or tried could not be deleted again (${left.slice(0, 3).join(', ')}${left.length > 3 ? ', …' : ''}): delete them (or every object in ${where}) before running the restore again, which refuses a bucket that is not empty.`
    : `They were deleted again: ${where} is as it was.`;
  const { doc, err } = failure;
  throw Object.assign(new BackupError(`writing the documents into ${where} failed after ${written.length} of ${docs.length} were written: document ${doc.id} (${doc.key}): ${err?.name ?? 'Error'}: ${err?.message ?? err}. ${cleanup} ${DATABASE_UNDO} Fix the cause (is the bucket reachable and writable with these S3_* settings?) and run the same restore again.`), { leftBehind: left.length > 0 });
}

/**
 * Restores the archive `file` (createBackup) into `dataDir`, which must be missing or empty (BackupError otherwise:
 * a restore never mixes with a college's data). The archive is extracted as regular files and folders with the names
 * a backup has, and nothing else (extractArchive; every name is then checked against the manifest, links never
 * followed: security review A). Every document is checked against the manifest's size and SHA-256 before anything is
 * written (BackupError naming the first bad one; `dataDir` is left as it was), and so is a backup made by a newer
 * release (its last migration newer than this code's journal). A PGlite backup becomes `dataDir/pgdata` (refused if
 * it holds a link, or is not a portal database at the manifest's migration level: assertPortalDatabase). A PostgreSQL one is restored with `pg_restore` into `opts.url`, an empty database
 * (BackupError before anything runs when it holds any schema, extension, table, function or type: nonEmpty; or when
 * `url` is missing or pg_restore not installed), and only the objects the portal's schema has (portalUseList; the
 * others are left out, their SQL never run, and named in the summary's `leftOut`), after which the database must be a portal database at the manifest's migration level
 * (assertPortalDatabase; else what the restore created is dropped again, and nothing that was there before). `url` must not be a superuser's, nor a member of
 * pg_execute_server_program / pg_read_server_files / pg_write_server_files, unless `opts.allowSuperuser`: a dump's
 * entries are SQL that pg_restore runs as that role, and a superuser's can run programs on the database server.
 * Documents go to `dataDir/uploads` (the local store), or with `opts.store` (the S3 driver) into that store under
 * their manifest keys: it must hold no object at all (assertStoreEmpty, checked before anything is written and again
 * just before the documents are), and they are written only after every check passed and the database was loaded
 * and checked; a failure while writing deletes what this run wrote and undoes the database (writeDocumentsToStore:
 * BackupError saying how many were written and to run the restore again). Every document key must be a single name
 * (validKey) that a restored `uploads` row names in `stored_name` (assertManifestKeysNamed, checked once the database
 * is loaded, before any document is written; else BackupError listing them and everything undone). Every session of
 * the copy is ended and every `shared_site_builds` row deleted (endSessions). Migrations are not applied: the next
 * start does. Until it has finished, three markers make every node refuse to start (restore-marker.ts):
 * `dataDir/RESTORE-INCOMPLETE` (written first), the table restore_incomplete in the restored database (PostgreSQL:
 * created before pg_restore runs; embedded: right after the folder is loaded) and, with `opts.store`, the object
 * RESTORE-INCOMPLETE in the bucket (before the first document). A success removes all three (clearRestoreMarkers),
 * unless `opts.keepMarker`; a failure undone completely leaves none; one that left something behind keeps them.
 */
export async function restoreBackup(file: string, dataDir: string, opts: RestoreOptions = {}): Promise<RestoreSummary> {
  if (!fs.existsSync(file)) throw new BackupError(`${file} does not exist.`);
  dataDir = path.resolve(dataDir);
  if (!emptyOrMissing(dataDir)) {
    if (hasRestoreMarker(dataDir)) throw new BackupError(`${dataDir} holds ${RESTORE_MARKER}: an earlier restore into it did not finish (interrupted, or what it wrote could not be removed again). Empty this folder, the database in --url (dropdb, createdb) and the S3 bucket it wrote into, then run the restore again.`);
    throw new BackupError(`${dataDir} is not empty: restore into a new (or empty) folder, never over a college's data; then point DATA_DIR at it.`);
  }
  // A bucket that holds anything is refused before the folder is even created (read only: nothing written yet).
  if (opts.store) await assertStoreEmpty(opts.store, 'nothing was restored');
  const created = !fs.existsSync(dataDir);
  // 0700 (an existing empty folder is tightened): the restored database and documents are the server user's only.
  ensurePrivateDir(dataDir);
  // Before anything is loaded or written: a restore killed from here on leaves the marker, which `npm start` refuses.
  const details = `Archive: ${path.resolve(file)}. Database: ${opts.url ? 'the PostgreSQL database given with --url' : `${dataDir}/pgdata`}. Documents: ${opts.store ? describeStore(opts.store) : `${dataDir}/uploads`}. DATA_DIR: ${dataDir}.`;
  writeRestoreMarker(dataDir, details);
  const work = await fsp.mkdtemp(path.join(dataDir, '.restoring-'));
  let done = false;
  // Set when a failure could not remove what it wrote (keys left in the bucket, the --url database not emptied).
  let leftBehind = false;
  try {
    await extractArchive(file, work);
    let manifest: BackupManifest;
    try { manifest = JSON.parse(await fsp.readFile(path.join(work, 'manifest.json'), 'utf8')); } catch {
      throw new BackupError(`${file} has no manifest.json: it is not a backup made by \`npm run backup\`.`);
    }
    if (manifest.format !== 'college-portal-backup' || manifest.version !== 1) throw new BackupError(`${file} is not a backup of this portal (format ${manifest.format} ${manifest.version}).`);
    // A backup of the embedded database is restored into DIR/pgdata, never into --url: with --url given, the restore
    // used to load the folder, then look for its restore marker (and apply --erasures-from) in the --url database,
    // so the restored copy kept its marker and refused every start (review of d921d13).
    if (manifest.database?.kind === 'pglite' && opts.url) {
      throw new BackupError(`${file} is a backup of the embedded database: it is restored into ${dataDir}/pgdata, not into --url. Run the restore without --url; to move the college to PostgreSQL afterwards, use npm run db:to-postgres. Nothing was restored.`);
    }
    const kinds = { pglite: 'pgdata.tar', postgres: 'database.dump' } as const;
    if (kinds[manifest.database?.kind] !== manifest.database.file || !Array.isArray(manifest.uploads) || !Array.isArray(manifest.missing)
      || manifest.uploads.some((u) => typeof u?.key !== 'string' || !validKey(u.key))) {
      throw new BackupError(`${file} has a manifest.json this portal does not write: the archive was altered; nothing was restored.`);
    }
    const huge = manifest.uploads.find((u) => !Number.isSafeInteger(u.size) || u.size < 0 || u.size > MAX_RESTORED_DOCUMENT_BYTES);
    if (huge) throw new BackupError(`${file} lists document ${huge.id} (uploads/${huge.key}) of ${huge.size} bytes, more than a document can be (${MAX_RESTORED_DOCUMENT_BYTES} bytes): the archive was altered; nothing was restored.`);
    // A backup of a database a newer release had migrated would restore "successfully" and then refuse to start
    // (rolling-deploy audit F4): say so before writing anything.
    if (manifest.database.lastMigration != null && manifest.database.lastMigration > newestKnownMigration()) {
      throw new BackupError(`${file} was made by a newer release of the portal (its database has migrations this release does not know): restore it with that release or a newer one.`);
    }
    await assertExpectedMembers(work, manifest);
    for (const doc of manifest.uploads) {
      const member = path.join(work, 'uploads', doc.key);
      const found = fs.existsSync(member) ? await hashFile(member) : null;
      if (!found) throw new BackupError(`the backup lacks document ${doc.id} (uploads/${doc.key}) that its manifest lists: the archive is incomplete.`);
      if (found.sha256 !== doc.sha256 || found.size !== doc.size) throw new BackupError(`document ${doc.id} (uploads/${doc.key}) differs from the manifest (SHA-256 ${found.sha256}, expected ${doc.sha256}): the archive is damaged.`);
    }
    let sessionsEnded: number;
    let leftOut: string[] = [];
    let writtenKeys: string[] = [];
    // The restored rows' mime types, by key: the Content-Type the documents had in the store (an upload's put).
    const mimes = new Map<string, string>();
    const readMimes = async (query: (sql: string) => Promise<{ rows: any[] }>) => {
      if (opts.store) for (const r of (await query('select stored_name, mime from uploads')).rows) mimes.set(r.stored_name, r.mime);
    };
    // Last, after the database is loaded and checked: the bucket is checked again (it may have been written since the
    // first check), created when missing, and filled; a failure throws and the caller undoes the database.
    const writeDocuments = async () => {
      if (!opts.store) return;
      await opts.store.init().catch((err: any) => { throw new BackupError(`${describeStore(opts.store!)}: ${err?.message ?? err}. Nothing was written to the bucket. ${DATABASE_UNDO}`); });
      await assertStoreEmpty(opts.store, 'nothing was written to the bucket').catch((err) => {
        if (err instanceof BackupError) err.message += ` ${DATABASE_UNDO}`;
        throw err;
      });
      const store = opts.store;
      const where = describeStore(store);
      // Before the first document, deleted last (clearRestoreMarkers): nodes on this bucket refuse to start meanwhile.
      const markerFailure = await writeBucketMarker(store, details).then(() => undefined, (err: any) => err ?? new Error('failed'));
      if (markerFailure) {
        // A failed put may still have stored it (the answer was lost): deleted again, like a document.
        const deleted = await deleteBucketMarker(store).then(() => true, () => false);
        if (!deleted) leftBehind = true;
        throw new BackupError(`writing the documents into ${where} failed after 0 of ${manifest.uploads.length} were written: the restore's marker ${RESTORE_MARKER}, written first: ${markerFailure?.name ?? 'Error'}: ${markerFailure?.message ?? markerFailure}. ${deleted ? `Objects this restore wrote or tried: ${RESTORE_MARKER}. They were deleted again: ${where} is as it was.` : `It may be in ${where}: delete it before running the restore again (nodes on the bucket refuse to start while it is there).`} ${DATABASE_UNDO} Fix the cause (is the bucket reachable and writable with these S3_* settings?) and run the same restore again.`);
      }
      try {
        writtenKeys = await writeDocumentsToStore(store, work, manifest, mimes);
      } catch (err) {
        if (err instanceof BackupError && err.leftBehind) leftBehind = true;
        else if (!(await deleteBucketMarker(store).then(() => true, () => false))) {
          // The bucket still says a restore is unfinished: DATA_DIR keeps its marker too, saying what to empty.
          leftBehind = true;
          if (err instanceof BackupError) err.message += ` The object ${RESTORE_MARKER} could not be deleted from ${describeStore(store)}: delete it (nodes on the bucket refuse to start while it is there) before the next restore.`;
        }
        throw err;
      }
    };
    if (manifest.database.kind === 'pglite') {
      const dump = new Blob([await fsp.readFile(path.join(work, manifest.database.file))]);
      let n = 0;
      await loadPgliteFolder(dataDir, dump, async (client) => {
        // First, right after the load: a restore killed from here on leaves the table in the database too.
        await createDatabaseMarker((sql, params) => client.query(sql, params as any[]), details);
        await assertPortalDatabase((q) => client.query(q), manifest);
        await assertManifestKeysNamed((q) => client.query(q), manifest);
        n = await endSessions((q) => client.query(q));
        await readMimes((q) => client.query(q));
      });
      sessionsEnded = n;
      await assertNoLinks(path.join(dataDir, 'pgdata'));
      // The folder is removed below (finally) whatever failed here.
      await writeDocuments().catch((err) => { throw sayDatabaseUndo(err, true); });
    } else {
      if (!opts.url) throw new BackupError('this is a backup of a PostgreSQL database: give --url postgres://… of a new, empty database (createdb) to restore it into.');
      await requireTool('pg_restore');
      const pool = new pg.Pool({ connectionString: opts.url, max: 1 });
      // An idle connection the server ends (restart, pg_terminate_backend) must fail the next query, not the process.
      pool.on('error', () => {});
      try {
        const held = await nonEmpty((q) => pool.query(q));
        if (held.length) throw new BackupError(`the database in --url is not an empty database: it holds ${held.slice(0, 5).join(', ')}${held.length > 5 ? ` and ${held.length - 5} more` : ''}. Restore into a new, empty database (createdb -T template0 -O <role>); nothing was restored or changed. If an earlier restore into it was interrupted (its DATA_DIR holds ${RESTORE_MARKER}), drop it and create it again (dropdb, createdb), empty that folder and the S3 bucket it wrote into, then run the restore again.`);
        const role = (await pool.query(`select current_user as name, rolsuper or ${SERVER_ACCESS_ROLES.map((r) => `pg_has_role(current_user, '${r}', 'MEMBER')`).join(' or ')} as powerful from pg_roles where rolname = current_user`)).rows[0];
        if (role?.powerful && !opts.allowSuperuser) {
          throw new BackupError(`--url connects as ${role.name}, a superuser (or a member of ${SERVER_ACCESS_ROLES.join(', ')}): pg_restore runs the SQL in the archive as that role, and a tampered backup could then run programs or read files on the database server. Restore as the role the portal uses (the owner of the new database: createdb -O <role>), or, for an archive you made and kept safe yourself, add --allow-superuser. Nothing was restored.`);
        }
        const env = pgEnv(opts.url);
        const dumpFile = path.join(work, manifest.database.file);
        const useList = path.join(work, 'use-list.txt');
        const use = portalUseList(await run('pg_restore', ['-l', '-v', dumpFile]));
        leftOut = use.leftOut;
        await fsp.writeFile(useList, use.list, { mode: 0o600 });
        const before = await presentSchemasAndExtensions((q) => pool.query(q));
        try {
          // Before pg_restore (its use-list never holds this table): a restore killed while it loads, or at any time
          // later, leaves the marker in the database every node reads, whatever their DATA_DIR. undoPostgresRestore
          // drops it with public.
          await createDatabaseMarker((sql, params) => pool.query(sql, params as any[]), details);
          // -d names only the database (from PGDATABASE): the URL and its password stay out of the command line.
          await run('pg_restore', ['--no-owner', '--no-acl', '--exit-on-error', '-L', useList, '-d', env.PGDATABASE ?? env.PGUSER ?? 'postgres', dumpFile], env, [env.PGPASSWORD]);
          await assertPortalDatabase((q) => pool.query(q), manifest);
          await assertManifestKeysNamed((q) => pool.query(q), manifest);
          sessionsEnded = await endSessions((q) => pool.query(q));
          await readMimes((q) => pool.query(q));
          await writeDocuments();
        } catch (err) {
          const undone = await undoPostgresRestore((q) => pool.query(q), before);
          if (!undone) leftBehind = true;
          throw sayDatabaseUndo(err, undone);
        }
      } finally { await pool.end(); }
    }
    // With a store the documents are in it: DATA_DIR gets no second copy (and no uploads folder a node would ignore).
    if (!opts.store) {
      await fsp.rename(path.join(work, 'uploads'), path.join(dataDir, 'uploads')).catch(async (err) => {
        if (err?.code !== 'ENOENT') throw err;
        await fsp.mkdir(path.join(dataDir, 'uploads'), { recursive: true });
      });
    }
    done = true;
    // Database table, bucket object, then DATA_DIR's file; with keepMarker the caller does it (after --erasures-from).
    if (!opts.keepMarker) await clearRestoreMarkers(dataDir, { url: opts.url, store: opts.store });
    return { kind: manifest.database.kind, documents: manifest.uploads.length, missing: manifest.missing.length, sessionsEnded, leftOut, writtenKeys };
  } finally {
    // A failed cleanup must not hide why the restore failed (security review D); retries cover a slow file system.
    await fsp.rm(work, { recursive: true, force: true, maxRetries: 5 }).catch(() => {});
    if (!done) {
      // Undone completely: the folder goes (or is emptied), marker and all. Otherwise only the marker stays.
      if (created && !leftBehind) await fsp.rm(dataDir, { recursive: true, force: true, maxRetries: 5 }).catch(() => {});
      else for (const name of fs.readdirSync(dataDir)) if (!(leftBehind && name === RESTORE_MARKER)) await fsp.rm(path.join(dataDir, name), { recursive: true, force: true, maxRetries: 5 }).catch(() => {});
    }
  }
}

/**
 * Clears every marker of a restore into `dataDir` that finished (restoreBackup after a success, the restore CLI after
 * a successful --erasures-from): drops the table RESTORE_MARKER_TABLE from the restored database (`url`, or the
 * embedded one in `dataDir`, opened again for it), deletes the object RESTORE_MARKER from `store` (S3), then removes
 * `dataDir/RESTORE-INCOMPLETE`, last, so a failure part way leaves that file (and the restoring host refuses to start).
 * Rejects on database or S3 errors (BackupError naming what is left).
 */
export async function clearRestoreMarkers(dataDir: string, opts: { url?: string; store?: DocumentStore } = {}): Promise<void> {
  try {
    if (opts.url) {
      const client = new pg.Client({ connectionString: opts.url });
      await client.connect();
      try { await dropDatabaseMarker((sql) => client.query(sql)); } finally { await client.end().catch(() => {}); }
    } else {
      const folder = await openPgliteFolder(dataDir);
      try { await dropDatabaseMarker((sql) => folder.client.query(sql)); } finally { await folder.close(); }
    }
    if (opts.store?.kind === 's3') await deleteBucketMarker(opts.store);
  } catch (err: any) {
    throw new BackupError(`the restore finished, but its markers could not be removed (${err?.message ?? err}): the table ${RESTORE_MARKER_TABLE} in ${opts.url ? 'the database in --url' : `${dataDir}/pgdata`}, the object ${RESTORE_MARKER} in ${opts.store ? describeStore(opts.store) : 'the bucket'} and ${path.join(dataDir, RESTORE_MARKER)} stay, and every node refuses to start until they are removed.`);
  }
  clearRestoreMarker(dataDir);
}

/**
 * The refusal of a maintenance command (admin:create, check:documents, db:to-postgres) while a restore into the college
 * has not finished, or undefined: `dataDir/RESTORE-INCOMPLETE`, the table RESTORE_MARKER_TABLE in the PostgreSQL
 * database `url` or else in the embedded database of `dataDir` (opened as it is, no migration: skipped when it does not
 * exist or another process holds it — the caller's own open says so), and the object RESTORE_MARKER in `store` (S3).
 * Rejects on database or S3 errors.
 */
export async function restoreMarkerRefusal(target: { dataDir: string; url?: string; store?: DocumentStore }): Promise<string | undefined> {
  const file = incompleteRestoreMessage(target.dataDir);
  if (file) return file;
  if (target.url) {
    const inDatabase = await postgresMarkerMessage(target.url);
    if (inDatabase) return inDatabase;
  } else if (fs.existsSync(path.join(target.dataDir, 'pgdata', 'PG_VERSION')) && !(await pgliteFolderInUse(target.dataDir))) {
    const folder = await openPgliteFolder(target.dataDir).catch(() => undefined);
    if (folder) {
      try {
        const inDatabase = await databaseMarkerMessage((sql, params) => folder.client.query(sql, params as any[]), embeddedDatabase(target.dataDir));
        if (inDatabase) return inDatabase;
      } finally { await folder.close(); }
    }
  }
  return target.store ? bucketMarkerMessage(target.store) : undefined;
}

/**
 * After a restore into `dataDir` (and `url` for a PostgreSQL backup), carries out again the erasures and account
 * deletions that the database in use, `source`, made since the backup was taken (privacy audit F2: restoring a backup
 * taken before an erasure brought the person back). `source` is a `postgres://…` URL or the DATA_DIR of an embedded
 * database (its server stopped: BackupError otherwise). The restored copy is opened, and so brought up to this
 * release's migrations; its documents are those restore put in `dataDir/uploads`, or in `opts.store` (the S3 store the
 * restore wrote them into), where an erased person's documents are deleted. Accounts are matched by id and
 * created_at (reapplyErasures); a source that is not this backup's database (most shared ids name other accounts, or
 * it lacks an account with applications or an admin) is refused with a BackupError before anything is erased.
 * `opts.onPlan` sees what will be erased and deleted before it is. Resolves to the accounts erased, deleted and
 * skipped (ReappliedErasures).
 */
export async function reapplyErasuresFrom(source: string, dataDir: string, opts: { url?: string; store?: DocumentStore; onPlan?: (plan: ReappliedErasures) => void } = {}): Promise<ReappliedErasures> {
  let ledger;
  if (/^postgres(ql)?:\/\//.test(source)) {
    const client = new pg.Client({ connectionString: source });
    await client.connect();
    try { ledger = await readErasureLedger((q) => client.query(q)); } finally { await client.end().catch(() => {}); }
  } else {
    let folder: Awaited<ReturnType<typeof openPgliteFolder>>;
    try { folder = await openPgliteFolder(path.resolve(source)); } catch (err: any) {
      if (err instanceof DataDirInUseError) throw new BackupError(`--erasures-from ${source}: its embedded database is open in another process (a running \`npm start\`?). Stop that server, then run the restore again (into a new or empty folder): the embedded database serves one process at a time.`);
      throw new BackupError(`--erasures-from ${source}: ${err?.message ?? err}`);
    }
    try { ledger = await readErasureLedger((q) => folder.client.query(q)); } finally { await folder.close(); }
  }
  const database = await openDatabase(opts.url ? { url: opts.url } : { dataDir: path.resolve(dataDir) });
  try {
    return await reapplyErasures(database.db, opts.store ?? new LocalDocumentStore(localUploadRoot(path.resolve(dataDir))), ledger, opts.onPlan);
  } catch (err) {
    throw err instanceof WrongErasureSource ? new BackupError(err.message) : err;
  } finally { await database.close(); }
}
