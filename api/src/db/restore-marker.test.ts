/**
 * The start-up checks of the restore markers every node shares (server.ts, db/restore-marker.ts), before migrations:
 * - the database's table restore_incomplete is asked on a connection of its own; only "cannot connect yet"
 *   (cannotConnectYet: ECONNREFUSED, ENOTFOUND, pg's connection timeout, SQLSTATE 57P03…) is left to openDatabase;
 *   any other failure (a refused login, no CONNECT privilege) refuses start-up before a migration could change a
 *   half-restored database (review: `.catch(() => undefined)` swallowed every error, and the migrations then ran);
 * - the database and the bucket (HeadObject RESTORE-INCOMPLETE) are asked at once, and refuse in the order database,
 *   bucket, with the messages they had when asked one after the other.
 * A TCP proxy in front of the PostgreSQL server at 127.0.0.1:5432 answers chosen connections with a PostgreSQL
 * ErrorResponse, or holds them; a small HTTP server stands in for S3 (HEAD answered 404, 200 or 403). Databases are
 * h_a_marker_<hex>, created and dropped here. The PostgreSQL part is skipped when that server cannot be reached.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../config.ts';
import { startServer } from '../server.ts';
import { cannotConnectYet, createDatabaseMarker } from './restore-marker.ts';
import { errorResponse, startPgProxy as startProxy } from './pg-test-proxy.ts';
// Loaded now, so that start-up's first HeadObject does not wait for the S3 SDK to load (createDocumentStore imports it).
import '../storage/s3-store.ts';

const SERVER = 'postgres://postgres@127.0.0.1:5432/test';
const reachable = await (async () => { const c = new pg.Client({ connectionString: SERVER, connectionTimeoutMillis: 3000 }); try { await c.connect(); await c.end(); return true; } catch { return false; } })();

/** An Error with `code` (and `syscall`) as Node's socket errors and pg's server errors carry them. */
const coded = (code: string, message: string, syscall?: string) => Object.assign(new Error(message), { code, ...(syscall ? { syscall } : {}) });

describe('cannotConnectYet: only "the server cannot be reached yet" is left to openDatabase', () => {
  it('tolerates socket errors, pg\'s connection timeout and 57P03, and nothing else', () => {
    const tolerated = [
      coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432', 'connect'),
      coded('ENOTFOUND', 'getaddrinfo ENOTFOUND db.internal', 'getaddrinfo'),
      coded('EAI_AGAIN', 'getaddrinfo EAI_AGAIN db.internal', 'getaddrinfo'),
      coded('ETIMEDOUT', 'connect ETIMEDOUT 10.0.0.5:5432', 'connect'),
      coded('EHOSTUNREACH', 'connect EHOSTUNREACH 10.0.0.5:5432', 'connect'),
      coded('ECONNRESET', 'read ECONNRESET', 'read'),
      coded('ENOENT', 'connect ENOENT /var/run/postgresql/.s.PGSQL.5432', 'connect'),
      Object.assign(new AggregateError([coded('ECONNREFUSED', 'connect ECONNREFUSED ::1:5432'), coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')]), { code: 'ECONNREFUSED' }),
      new Error('timeout expired'),
      new Error('Connection terminated unexpectedly'),
      coded('57P03', 'the database system is starting up'),
    ];
    const refused = [
      coded('28P01', 'password authentication failed for user "college"'),
      coded('28000', 'no pg_hba.conf entry for host "10.0.0.9", user "college", database "college", no encryption'),
      coded('42501', 'permission denied for database college'),
      coded('3D000', 'database "colege" does not exist'),
      coded('ENOENT', 'ENOENT: no such file or directory, open \'/root/.postgresql/root.crt\'', 'open'),
      Object.assign(new AggregateError([coded('ECONNREFUSED', 'connect ECONNREFUSED ::1:5432'), coded('28P01', 'password authentication failed')]), { code: 'ECONNREFUSED' }),
      new Error('The server does not support SSL connections'),
      'a string',
      undefined,
    ];
    expect(tolerated.map((e) => [String(e), cannotConnectYet(e)])).toEqual(tolerated.map((e) => [String(e), true]));
    expect(refused.map((e) => [String(e), cannotConnectYet(e)])).toEqual(refused.map((e) => [String(e), false]));
  });
});

/**
 * A stand-in for S3 on 127.0.0.1 (a free port): HeadObject of `<bucket>/RESTORE-INCOMPLETE` is answered with
 * `answer()` (404 not there, 200 there, 403 refused), after `onHead()` is called; every other request gets 404.
 */
async function startFakeS3(answer: () => number, onHead: () => void = () => {}) {
  const server = http.createServer((req, res) => {
    req.resume();
    if (req.method === 'HEAD' && req.url?.endsWith('/RESTORE-INCOMPLETE')) {
      onHead();
      const status = answer();
      res.writeHead(status, status === 200 ? { 'content-length': '0', 'content-type': 'text/plain', etag: '"0"' } : { 'content-length': '0' });
      res.end();
      return;
    }
    res.writeHead(404, { 'content-length': '0' });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    env: {
      DOCUMENT_STORE: 's3', S3_BUCKET: 'college', S3_ENDPOINT: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'test', S3_SECRET_ACCESS_KEY: 'test', S3_FORCE_PATH_STYLE: 'true',
    },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

describe.skipIf(!reachable)('start-up\'s restore-marker checks before migrations (PostgreSQL at 127.0.0.1:5432)', () => {
  const databases: string[] = [];
  const dirs: string[] = [];
  const admin = async <T,>(fn: (c: pg.Client) => Promise<T>): Promise<T> => {
    const c = new pg.Client({ connectionString: SERVER });
    await c.connect();
    try { return await fn(c); } finally { await c.end(); }
  };
  /** A new database h_a_marker_<hex>; with `marked`, holding the table restore_incomplete as a killed restore leaves it. */
  const newDatabase = async (marked: boolean) => {
    const name = `h_a_marker_${crypto.randomBytes(5).toString('hex')}`;
    await admin((c) => c.query(`create database ${name}`));
    databases.push(name);
    if (marked) {
      const c = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:5432/${name}` });
      await c.connect();
      try { await createDatabaseMarker((sql, params) => c.query(sql, params as any[]), 'test: a restore killed while loading'); } finally { await c.end(); }
    }
    return name;
  };
  /** The tables in `name` outside pg_catalog and information_schema (a migration would add the portal's). */
  const tablesIn = async (name: string) => {
    const c = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:5432/${name}` });
    await c.connect();
    try { return (await c.query(`select table_schema || '.' || table_name as t from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema') order by 1`)).rows.map((r) => r.t as string); } finally { await c.end(); }
  };
  const env = (url: string, store: Record<string, string> = { DOCUMENT_STORE: 'local' }): Record<string, string> => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'h-a-marker-'));
    dirs.push(dataDir);
    return { NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: url, PORT: '0', HOST: '127.0.0.1', SITE_BUILD: 'never', SESSION_SECRET: 'restore-marker-secret-0123456789', ...store };
  };
  const start = (e: Record<string, string>) => startServer(e).then(async (node) => { await node.close(); return undefined; }, (err) => err as Error);
  const proxied = (port: number, name: string) => `postgres://postgres@127.0.0.1:${port}/${name}`;
  const DATABASE_MARKED = 'The PostgreSQL database in DATABASE_URL holds the table restore_incomplete: a restore (npm run restore) into it did not finish';
  const BUCKET_MARKED = 'The S3 bucket "college" holds the object RESTORE-INCOMPLETE: a restore (npm run restore) into it did not finish';

  afterAll(async () => {
    for (const name of databases) await admin((c) => c.query(`drop database if exists ${name} with (force)`)).catch(() => {});
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('a marker check the server refuses (42501, no CONNECT privilege) refuses start-up before any migration runs; the message says why', async () => {
    const name = await newDatabase(true);
    // The check's own connection is refused; later connections (openDatabase's) would get through.
    const proxy = await startProxy((n) => (n === 1 ? { refuse: errorResponse('42501', `permission denied for database "${name}"`) } : 'forward'));
    try {
      const err = await start(env(proxied(proxy.port, name)));
      expect(await tablesIn(name)).toEqual(['public.restore_incomplete']);
      expect(err).toBeInstanceOf(ConfigError);
      expect(err?.message).toBe(`The PostgreSQL server in DATABASE_URL answered, but asking its database for the table restore_incomplete (the marker of an unfinished restore) failed: 42501 permission denied for database "${name}". Nothing was changed and no migration ran. Check DATABASE_URL (user, password, database name) and that its role may connect to that database.`);
    } finally { await proxy.close(); }
  }, 60_000);

  it('a server that is starting up (57P03) is left to openDatabase: the check after opening still refuses the marked database', async () => {
    const name = await newDatabase(true);
    const proxy = await startProxy((n) => (n === 1 ? { refuse: errorResponse('57P03', 'the database system is starting up') } : 'forward'));
    try {
      const err = await start(env(proxied(proxy.port, name)));
      expect(err).toBeInstanceOf(ConfigError);
      expect(err?.message).toContain(DATABASE_MARKED);
    } finally { await proxy.close(); }
  }, 60_000);

  it('a server nobody listens for (ECONNREFUSED) is said by openDatabase, in its own words', async () => {
    const closed = await startProxy(() => 'forward');
    await closed.close();
    const err = await start(env(proxied(closed.port, 'college')));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err?.message).toMatch(/^Could not connect to the PostgreSQL server in DATABASE_URL \(.*ECONNREFUSED.*\)\. Check DATABASE_URL, or unset it to use the embedded database\.$/);
  }, 60_000);

  it('the database and the bucket are asked at once: the bucket\'s HeadObject is sent while the database\'s check is still waiting', async () => {
    const name = await newDatabase(true);
    let headSeen!: () => void;
    const head = new Promise<void>((resolve) => { headSeen = resolve; });
    let heldUntilHead: boolean | undefined;
    // The database check's connection is held until the bucket has been asked (or, asked one after the other, until
    // a fallback lets it through so the series order shows instead of a hang; under postgresMarkerMessage's 10 s
    // connection timeout, after which the check would count as "cannot connect yet" and the bucket be asked anyway).
    let fallback: NodeJS.Timeout | undefined;
    const proxy = await startProxy((n) => (n === 1 ? {
      hold: Promise.race([
        head.then(() => { heldUntilHead ??= true; }),
        new Promise<void>((resolve) => { fallback = setTimeout(() => { heldUntilHead ??= false; resolve(); }, 8000); }),
      ]),
    } : 'forward'));
    const s3 = await startFakeS3(() => 200, () => headSeen());
    try {
      const err = await start(env(proxied(proxy.port, name), s3.env));
      expect(heldUntilHead).toBe(true);
      // Both are marked: the database's refusal, as when it was asked first.
      expect(err).toBeInstanceOf(ConfigError);
      expect(err?.message).toContain(DATABASE_MARKED);
      expect(await tablesIn(name)).toEqual(['public.restore_incomplete']);
    } finally { clearTimeout(fallback); await proxy.close(); await s3.close(); }
  }, 60_000);

  it('each still refuses on its own, with the same messages: the bucket alone, the database with a bucket that fails, the bucket failing', async () => {
    const clean = await newDatabase(false);
    const marked = await newDatabase(true);
    const bucketMarked = await startFakeS3(() => 200);
    const bucketFails = await startFakeS3(() => 403);
    try {
      const onlyBucket = await start(env(`postgres://postgres@127.0.0.1:5432/${clean}`, bucketMarked.env));
      expect(onlyBucket).toBeInstanceOf(ConfigError);
      expect(onlyBucket?.message).toContain(BUCKET_MARKED);
      // The database's marker is told even when the bucket cannot be asked (as when the database was asked first).
      const databaseFirst = await start(env(`postgres://postgres@127.0.0.1:5432/${marked}`, bucketFails.env));
      expect(databaseFirst?.message).toContain(DATABASE_MARKED);
      const failing = await start(env(`postgres://postgres@127.0.0.1:5432/${clean}`, bucketFails.env));
      expect(failing).toBeInstanceOf(ConfigError);
      expect(failing?.message).toMatch(/^Could not open the document store \(s3\): asking the bucket for the object RESTORE-INCOMPLETE \(HeadObject\) failed: .+\. Check the S3_\* settings; the nodes' credentials need s3:GetObject and s3:ListBucket on the bucket/);
      // No migration ran in either database.
      expect(await tablesIn(clean)).toEqual([]);
      expect(await tablesIn(marked)).toEqual(['public.restore_incomplete']);
    } finally { await bucketMarked.close(); await bucketFails.close(); }
  }, 60_000);
});
