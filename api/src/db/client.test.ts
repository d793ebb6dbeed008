/**
 * openDatabase on a damaged embedded folder (DATA_DIR/pgdata, README Configuration): it must fail with the database's own
 * reason and leave DATA_DIR unlocked, so that once the folder is moved away the same process (or the next
 * `npm start`, or `npm run admin:create`) opens a fresh database instead of waiting 12 s to be told the folder is
 * "open in another process". PGlite only: a PostgreSQL server has no folder lock.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client.ts';

describe.skipIf(!!process.env.DATABASE_URL)('openDatabase on a damaged DATA_DIR', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'college-damaged-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('refuses the damaged folder without keeping it locked, and opens a fresh one once the folder is moved away', async () => {
    const pgdata = path.join(dataDir, 'pgdata');
    fs.mkdirSync(pgdata, { recursive: true });
    fs.writeFileSync(path.join(pgdata, 'PG_VERSION'), 'not a version\n');

    await expect(openDatabase({ dataDir })).rejects.toThrow(/PGlite/);
    expect(await lockfile.check(pgdata)).toBe(false);

    fs.renameSync(pgdata, path.join(dataDir, 'pgdata.damaged'));
    const fresh = await openDatabase({ dataDir });
    try {
      const { rows } = await fresh.pool.query('SELECT count(*)::int AS n FROM users');
      expect(rows).toEqual([{ n: 0 }]);
    } finally { await fresh.close(); }
  }, 180_000); // opens two embedded databases from scratch (no template): over 60 s on a loaded 2-core machine
});
