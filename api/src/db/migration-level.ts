/**
 * An older release on an upgraded database (backup and restore audit: on PostgreSQL an older release started and wrote
 * to a database a newer one had migrated; on PGlite it failed later with a raw stack). drizzle records each applied
 * migration in `drizzle.__drizzle_migrations` with `created_at` = the migration's `when` in
 * api/src/db/migrations/meta/_journal.json, and applies only those newer than the newest row; so a database migrated
 * by a newer release is left as it is and nothing said. openDatabase (api/src/db/client.ts) calls
 * `assertKnownMigrationLevel` right after migrating.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../config.ts';

const journalFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations', 'meta', '_journal.json');

/** The newest migration this code knows: the largest `when` (ms since epoch) of the journal. */
export function newestKnownMigration(): number {
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: Array<{ when: number }> };
  return Math.max(...journal.entries.map((e) => e.when));
}

/**
 * Throws ConfigError ("this database was upgraded by a newer release of the portal; …", printed by server.ts as one
 * "Cannot start:" line) when the database behind `query` has an applied migration newer than this code's journal
 * (newest `created_at` of drizzle.__drizzle_migrations > newestKnownMigration()). `query(text)` → `{rows}` is the
 * pool of an open Database. Resolves when the level is known (the normal case, migrations just applied).
 */
export async function assertKnownMigrationLevel(query: (text: string) => Promise<{ rows: any[] }>): Promise<void> {
  const { rows } = await query('select max(created_at)::text as newest from drizzle.__drizzle_migrations');
  const newest = rows[0]?.newest == null ? null : Number(rows[0].newest);
  if (newest != null && newest > newestKnownMigration()) {
    throw new ConfigError('this database was upgraded by a newer release of the portal; start that release, or restore the backup taken before the upgrade.');
  }
}
