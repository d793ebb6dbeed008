/**
 * admin:create and check:documents ask for an unfinished restore before they open the database (restoreMarkerRefusal),
 * and used to swallow every failure of that check (`.catch(() => undefined)`), as start-up did: a check the server
 * refused (here its connection gets a FATAL 42501 through a proxy, pg-test-proxy.ts) let admin:create migrate the
 * half-restored database and create an admin in it. Now only "cannot connect yet" (cannotConnectYet) is left to their
 * own open; anything else exits 1 before any migration. Needs the PostgreSQL server at 127.0.0.1:5432 (databases
 * h_a_cli_*, created and dropped here); skipped when it cannot be reached.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabaseMarker } from '../db/restore-marker.ts';
import { errorResponse, startPgProxy } from '../db/pg-test-proxy.ts';

const SERVER = 'postgres://postgres@127.0.0.1:5432/test';
const reachable = await (async () => { const c = new pg.Client({ connectionString: SERVER, connectionTimeoutMillis: 3000 }); try { await c.connect(); await c.end(); return true; } catch { return false; } })();

/** Runs CLI `name` with DATA_DIR `dataDir`, DATABASE_URL `url` and the local store. */
function run(name: string, args: string[], dataDir: string, url: string): Promise<{ status: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: url, DOCUMENT_STORE: 'local' };
  delete env.S3_BUCKET;
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(import.meta.dirname, `${name}.ts`), ...args], { env, timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ status: err ? Number((err as any).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe.skipIf(!reachable)('admin:create and check:documents refuse when the server refuses their restore-marker check', () => {
  const databases: string[] = [];
  let dataDir = '';
  const admin = async (sql: string) => { const c = new pg.Client({ connectionString: SERVER }); await c.connect(); try { await c.query(sql); } finally { await c.end(); } };
  afterAll(async () => {
    for (const name of databases) await admin(`drop database if exists ${name} with (force)`).catch(() => {});
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a FATAL 42501 on the check\'s connection: exit 1 with the error, no migration, no admin', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'h-a-cli-'));
    const name = `h_a_cli_${crypto.randomBytes(5).toString('hex')}`;
    await admin(`create database ${name}`);
    databases.push(name);
    const direct = `postgres://postgres@127.0.0.1:5432/${name}`;
    const c = new pg.Client({ connectionString: direct });
    await c.connect();
    try { await createDatabaseMarker((sql, params) => c.query(sql, params as any[]), 'test: a restore killed while loading'); } finally { await c.end(); }
    const tables = async () => {
      const t = new pg.Client({ connectionString: direct });
      await t.connect();
      try { return (await t.query(`select table_schema || '.' || table_name as t from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema') order by 1`)).rows.map((r) => r.t as string); } finally { await t.end(); }
    };

    for (const [cli, args, said] of [
      ['admin-create', ['--email', 'late@example.com', '--password', 'secret-123'], 'Cannot create the admin: '],
      ['check-documents', [], 'Documents not checked: '],
    ] as const) {
      // The first connection (the marker check's) is refused as a server without CONNECT privilege would; the rest pass.
      const proxy = await startPgProxy((n) => (n === 1 ? { refuse: errorResponse('42501', `permission denied for database "${name}"`) } : 'forward'));
      try {
        const r = await run(cli, [...args], dataDir, `postgres://postgres@127.0.0.1:${proxy.port}/${name}`);
        expect({ cli, tables: await tables() }).toEqual({ cli, tables: ['public.restore_incomplete'] });
        expect(r.status).toBe(1);
        expect(r.stderr).toContain(`${said}asking for an unfinished restore (npm run restore) failed: 42501 permission denied for database "${name}". Nothing was changed.`);
      } finally { await proxy.close(); }
    }
  }, 120_000);
});
