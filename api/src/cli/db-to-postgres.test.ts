/**
 * `npm run db:to-postgres` (backup and restore audit): an embedded college moves into a fresh PostgreSQL database
 * that this test creates (and drops) on 127.0.0.1:5432: every row arrives, sequences continue after the copied ids,
 * and a database that already has tables is refused. Needs the PostgreSQL server; skipped on the PGlite run when
 * it cannot be reached. With the nodes' S3 settings (s3rver on port 4354) it refuses, copying nothing, while the
 * bucket holds a restore's RESTORE-INCOMPLETE, and when the bucket cannot be asked (no PostgreSQL server needed).
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { seed } from '../db/seed.ts';
import { resolveSessionSecret } from '../auth/session-secret.ts';
import { startS3Server, type TestS3Server } from '../test/s3-server.ts';
import { S3DocumentStore } from '../storage/s3-store.ts';
import { writeBucketMarker } from '../db/restore-marker.ts';

const SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';
const reachable = await (async () => { const c = new pg.Client({ connectionString: SERVER, connectionTimeoutMillis: 3000 }); try { await c.connect(); await c.end(); return true; } catch { return false; } })();

/** Runs `npm run db:to-postgres` as a person would, with `env` added to this process's environment. */
function toPostgres(dataDir: string, url: string, env: Record<string, string> = {}): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(import.meta.dirname, 'db-to-postgres.ts'), '--data-dir', dataDir, '--url', url], { timeout: 240_000, env: { ...process.env, ...env } }, (err, stdout, stderr) => {
      resolve({ status: err ? Number((err as any).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe.skipIf(!reachable)('db:to-postgres', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'college-to-pg-'));
  const name = `b1_to_pg_${crypto.randomBytes(4).toString('hex')}`;
  const url = `postgres://postgres@127.0.0.1:5432/${name}`;
  const admin = async (sql: string) => { const c = new pg.Client({ connectionString: SERVER }); await c.connect(); try { await c.query(sql); } finally { await c.end(); } };
  afterAll(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it('copies every table into a fresh database, sequences continue, and a database with tables is refused', async () => {
    const lite = await openDatabase({ dataDir });
    await seed(lite.db);
    const { rows: [student] } = await lite.pool.query(`insert into users (email, password_hash, first_name, last_name) values ('sipho@example.com', 'x', 'Sipho', 'Dlamini') returning id`);
    const { rows: [course] } = await lite.pool.query('select id from courses order by id limit 1');
    await lite.pool.query('insert into applications (user_id, course_id, payment_amount) values ($1, $2, 50)', [student.id, course.id]);
    await lite.pool.query(`insert into session (sid, sess, expire) values ('s1', '{"a":1}', now() + interval '1 day')`);
    // The embedded college ran with a SESSION_SECRET (as npm start stores its fingerprint).
    const secret = 'embedded-college-secret-0123456789';
    await resolveSessionSecret(lite.db, secret, { shared: false });
    const tables = (await lite.pool.query(`select table_name as t from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`)).rows.map((r) => r.t as string);
    const before: Record<string, number> = {};
    for (const t of tables) before[t] = (await lite.pool.query(`select count(*)::int as n from "${t}"`)).rows[0].n;
    await lite.close();

    await admin(`CREATE DATABASE ${name}`);
    const moved = await toPostgres(dataDir, url);
    expect(moved.status, moved.stderr).toBe(0);
    expect(moved.stdout).toContain('row counts match');

    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      for (const t of tables) expect({ t, n: (await pool.query(`select count(*)::int as n from "${t}"`)).rows[0].n }).toEqual({ t, n: before[t] });
      expect((await pool.query(`select first_name from users where email = 'sipho@example.com'`)).rows).toEqual([{ first_name: 'Sipho' }]);
      const { rows: [next] } = await pool.query(`insert into users (email, password_hash, first_name, last_name) values ('next@example.com', 'x', 'N', 'X') returning id`);
      expect(next.id).toBeGreaterThan(student.id);
    } finally { await pool.end(); }
    // The printed hint matches what a PostgreSQL node accepts: the same SESSION_SECRET, not a new one and not none.
    expect(moved.stdout).toContain('start it with DATABASE_URL set and the same SESSION_SECRET as the embedded database was last started with');
    const node = await openDatabase({ url });
    try {
      await expect(resolveSessionSecret(node.db, undefined, { shared: true })).rejects.toThrow('SESSION_SECRET is not set on this node');
      await expect(resolveSessionSecret(node.db, 'a-new-secret-0123456789abcdef', { shared: true })).rejects.toThrow('SESSION_SECRET differs');
      await expect(resolveSessionSecret(node.db, secret, { shared: true })).resolves.toBe(secret);
    } finally { await node.close(); }

    const again = await toPostgres(dataDir, url);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('already has tables');
  }, 300_000);
});

describe('db:to-postgres asks the nodes\' S3 bucket for a restore\'s marker', () => {
  let s3: TestS3Server;
  let dataDir = '';
  // Nothing listens there: a command that got past the marker checks fails on the copy (and says so otherwise).
  const nowhere = 'postgres://nobody@127.0.0.1:1/none';
  const bucketEnv = (name: string) => ({ ...s3.env, S3_BUCKET: name });
  const bucket = (name: string) => new S3DocumentStore({ bucket: name, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });

  beforeAll(async () => {
    s3 = await startS3Server({ port: 4354, bucket: 'unused' });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'h-a-to-pg-s3-'));
    const lite = await openDatabase({ dataDir });
    await lite.close();
  }, 120_000);
  afterAll(async () => {
    await s3?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses, copying nothing, while the bucket holds RESTORE-INCOMPLETE (a restore from another host into it did not finish); an unmarked bucket is let through', async () => {
    const marked = bucket('marked');
    await marked.init();
    await writeBucketMarker(marked, 'test: killed while writing the documents');
    const refused = await toPostgres(dataDir, nowhere, bucketEnv('marked'));
    expect(refused.stderr).toContain('Not copied: The S3 bucket "marked" holds the object RESTORE-INCOMPLETE: a restore (npm run restore) into it did not finish');
    expect(refused.status).toBe(1);
    // Without the marker the checks pass, and the copy itself fails on the unreachable --url.
    await bucket('unmarked').init();
    const unmarked = await toPostgres(dataDir, nowhere, bucketEnv('unmarked'));
    expect(unmarked.status).toBe(1);
    expect(unmarked.stderr).not.toContain('RESTORE-INCOMPLETE');
    expect(unmarked.stderr).toContain('ECONNREFUSED');
  }, 240_000);

  it('refuses when the bucket cannot be asked, naming the S3 error', async () => {
    // A port nothing listens on any more.
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
    const endpoint = `http://127.0.0.1:${(closed.address() as net.AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await toPostgres(dataDir, nowhere, { ...s3.env, S3_BUCKET: 'marked', S3_ENDPOINT: endpoint });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^Not copied: cannot ask the S3 bucket "marked" for the object RESTORE-INCOMPLETE \(.+\): check the S3_\* settings \(the credentials need s3:GetObject and s3:ListBucket\); nothing was copied\.$/m);
  }, 240_000);
});
