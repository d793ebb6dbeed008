/**
 * `npm run db:to-postgres` (backup and restore audit): an embedded college moves into a fresh PostgreSQL database
 * that this test creates (and drops) on 127.0.0.1:5432: every row arrives, sequences continue after the copied ids,
 * and a database that already has tables is refused. Needs the PostgreSQL server; skipped on the PGlite run when
 * it cannot be reached.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { seed } from '../db/seed.ts';
import { resolveSessionSecret } from '../auth/session-secret.ts';

const SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';
const reachable = await (async () => { const c = new pg.Client({ connectionString: SERVER, connectionTimeoutMillis: 3000 }); try { await c.connect(); await c.end(); return true; } catch { return false; } })();

/** Runs `npm run db:to-postgres` as a person would. */
function toPostgres(dataDir: string, url: string): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(import.meta.dirname, 'db-to-postgres.ts'), '--data-dir', dataDir, '--url', url], { timeout: 240_000 }, (err, stdout, stderr) => {
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
