/**
 * Rolling deploys (rolling-deploy audit F3): after a newer release applied only migrations marked readable by older
 * releases, a node of this release restarts on the database (one "[db] WARNING" line), runs no migration and leaves
 * the record alone; when a newer migration is not readable, or the record does not describe it, it refuses as before.
 * Runs on PGlite (a DATA_DIR opened again) and on PostgreSQL (a fresh database).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../config.ts';
import { openDatabase } from './client.ts';
import { ADDITIVE_MIGRATIONS, journalEntries, newestKnownMigration, recordReaderLevel } from './migration-level.ts';
import { DB_KIND, freshPostgres } from '../test/harness.ts';

const REFUSAL = 'this database was upgraded by a newer release of the portal; start that release, or restore the backup taken before the upgrade.';

describe(`a database a newer release migrated during a rolling deploy (${DB_KIND})`, () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => { for (const c of cleanups) await c(); });
  afterEach(() => { vi.restoreAllMocks(); });

  async function newTarget(): Promise<{ url?: string; dataDir?: string }> {
    if (process.env.DATABASE_URL) {
      const fresh = await freshPostgres(process.env.DATABASE_URL);
      cleanups.push(fresh.drop);
      return { url: fresh.url };
    }
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'college-compat-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    return { dataDir };
  }

  /** What a newer release does on its start: its migration (a new nullable column), drizzle's row, and the record it writes. */
  async function upgradeByNewerRelease(target: { url?: string; dataDir?: string }, record: 'readable' | 'not readable' | 'none'): Promise<{ tag: string; when: number }> {
    const future = { tag: '0029_from_a_newer_release', when: newestKnownMigration() + 86_400_000 };
    const db = await openDatabase(target);
    try {
      await db.pool.query('alter table users add column nickname text');
      await db.pool.query('insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', ['from-a-newer-release', future.when]);
      const additive = record === 'not readable' ? ADDITIVE_MIGRATIONS : new Set([...ADDITIVE_MIGRATIONS, future.tag]);
      expect(await recordReaderLevel((t, p) => db.pool.query(t, p), [...journalEntries(), future], additive)).toBe(true);
      if (record === 'none') await db.pool.query('drop table portal_schema_compat');
    } finally { await db.close(); }
    return future;
  }

  it('this release records the newest migration older code cannot run on, and the level it computed that for', async () => {
    const db = await openDatabase(await newTarget());
    try {
      const journal = journalEntries();
      const notAdditive = journal.filter((e) => !ADDITIVE_MIGRATIONS.has(e.tag));
      const { rows } = await db.pool.query('select min_reader_when::text as min, as_of_when::text as as_of, as_of_tag as tag from portal_schema_compat');
      expect(rows).toEqual([{ min: String(notAdditive[notAdditive.length - 1].when), as_of: String(newestKnownMigration()), tag: journal[journal.length - 1].tag }]);
      expect(ADDITIVE_MIGRATIONS.has(journal[journal.length - 1].tag)).toBe(true);
    } finally { await db.close(); }
  }, 120_000);

  it('after additive migrations only, an older node starts again with one warning, applies nothing and leaves the record', async () => {
    const target = await newTarget();
    const future = await upgradeByNewerRelease(target, 'readable');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});

    for (const restart of [1, 2]) {
      const db = await openDatabase(target);
      try {
        // The node works on the migrated tables, and drizzle neither re-applied nor dropped anything.
        await db.pool.query(`insert into users (email, password_hash, first_name, last_name) values ($1, 'x', 'Old', 'Node')`, [`old${restart}@example.com`]);
        const { rows: [m] } = await db.pool.query('select count(*)::int as n, max(created_at)::text as newest from drizzle.__drizzle_migrations');
        expect(m).toEqual({ n: journalEntries().length + 1, newest: String(future.when) });
        const { rows: [c] } = await db.pool.query('select as_of_when::text as as_of, as_of_tag as tag from portal_schema_compat');
        expect(c).toEqual({ as_of: String(future.when), tag: future.tag });
      } finally { await db.close(); }
    }
    const lines = warn.mock.calls.map((args) => String(args[0])).filter((l) => l.startsWith('[db] WARNING'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(`newer release (up to ${future.tag})`);
  }, 120_000);

  for (const [when, record] of [
    ['a newer migration is not readable by older releases', 'not readable'],
    ['the record is missing (a database of a release without it)', 'none'],
  ] as const) {
    it(`refuses when ${when}`, async () => {
      const target = await newTarget();
      await upgradeByNewerRelease(target, record);
      const err = await openDatabase(target).then(async (d) => { await d.close(); return 'opened'; }, (e) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect(String(err.message)).toBe(REFUSAL);
    }, 120_000);
  }
});
