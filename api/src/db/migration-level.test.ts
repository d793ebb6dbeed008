/**
 * An older release must not start on a database a newer release migrated (backup and restore audit): a row in
 * drizzle.__drizzle_migrations newer than this code's journal stops openDatabase (and so npm start) with one
 * "Cannot start:" message. Runs on PGlite (a DATA_DIR opened twice) and on PostgreSQL (a fresh database).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../config.ts';
import { openDatabase } from './client.ts';
import { newestKnownMigration } from './migration-level.ts';
import { DB_KIND, freshPostgres } from '../test/harness.ts';

describe(`a database upgraded by a newer release (${DB_KIND})`, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'college-newer-'));
  let drop: (() => Promise<void>) | undefined;
  afterAll(async () => { fs.rmSync(dataDir, { recursive: true, force: true }); await drop?.(); });

  it('refuses to start with "upgraded by a newer release", and the database is left as it was', async () => {
    let target: { url?: string; dataDir?: string } = { dataDir };
    if (process.env.DATABASE_URL) {
      const fresh = await freshPostgres(process.env.DATABASE_URL);
      drop = fresh.drop;
      target = { url: fresh.url };
    }
    const first = await openDatabase(target);
    await first.pool.query('insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', ['from-a-newer-release', newestKnownMigration() + 86_400_000]);
    await first.close();

    const err = await openDatabase(target).then(async (d) => { await d.close(); return 'opened'; }, (e) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(String(err.message)).toBe('this database was upgraded by a newer release of the portal; start that release, or restore the backup taken before the upgrade.');
    // Closed on the way out: the folder is free again (PGlite), the pool ended.
    const again = await openDatabase(target).catch((e) => e);
    expect(again).toBeInstanceOf(ConfigError);
  }, 120_000);
});
