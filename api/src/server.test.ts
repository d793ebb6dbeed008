/** startServer as an operator runs it: several nodes starting at once on one empty PostgreSQL database. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './server.ts';
import { ConfigError } from './config.ts';
import { freshPostgres } from './test/harness.ts';

const dirs: string[] = [];
const tmpDir = () => { const d = fs.mkdtempSync(path.join(os.tmpdir(), 'college-server-')); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

describe.skipIf(!process.env.DATABASE_URL)('several nodes starting at once on one empty PostgreSQL database', () => {
  const admin = { ADMIN_EMAIL: 'admin@start.example', ADMIN_PASSWORD: 'Admin-pass-2026' };
  const nodeEnv = (url: string) => ({ DATABASE_URL: url, DATA_DIR: tmpDir(), PORT: '0', HOST: '127.0.0.1', SITE_BUILD: 'never', SESSION_SECRET: 'start-test-secret-0123456789', ...admin });

  it('all start: the schema, one seed (4 campuses, 14 courses) and one admin', async () => {
    const fresh = await freshPostgres(process.env.DATABASE_URL!);
    const started = await Promise.allSettled([0, 1, 2].map(() => startServer(nodeEnv(fresh.url))));
    const nodes = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const c = new pg.Client({ connectionString: fresh.url });
    try {
      expect(started.map((r) => (r.status === 'fulfilled' ? 'started' : String(r.reason?.message ?? r.reason)))).toEqual(['started', 'started', 'started']);
      await c.connect();
      const n = async (q: string) => Number((await c.query(q)).rows[0].n);
      expect(await n('select count(*) n from campuses')).toBe(4);
      expect(await n('select count(*) n from courses')).toBe(14);
      expect(await n(`select count(*) n from users where role = 'admin'`)).toBe(1);
    } finally {
      await c.end().catch(() => {});
      await Promise.all(nodes.map((s: RunningServer) => s.close()));
      await fresh.drop();
    }
  }, 60_000);

  it('a migration that fails on a server it reached is not reported as "Could not connect"', async () => {
    const fresh = await freshPostgres(process.env.DATABASE_URL!);
    const c = new pg.Client({ connectionString: fresh.url });
    await c.connect();
    // A table in the way of migration 0011 (app_secrets): the connection works, the migration cannot.
    await c.query('create table app_secrets (x int)');
    await c.end();
    try {
      const err = await startServer(nodeEnv(fresh.url)).then(async (s) => { await s.close(); return null; }, (e) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect(err.message).not.toMatch(/Could not connect/);
      expect(err.message).toMatch(/migration/i);
      expect(err.message).toMatch(/app_secrets/);
    } finally { await fresh.drop(); }
  }, 60_000);
});
