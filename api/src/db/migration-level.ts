/**
 * An older release on an upgraded database (backup and restore audit: on PostgreSQL an older release started and wrote
 * to a database a newer one had migrated; on PGlite it failed later with a raw stack). drizzle records each applied
 * migration in `drizzle.__drizzle_migrations` with `created_at` = the migration's `when` in
 * api/src/db/migrations/meta/_journal.json, and applies only those newer than the newest row (it compares nothing
 * else: rows its journal lacks are neither re-applied nor an error); so a database migrated by a newer release is left
 * as it is and nothing said. openDatabase (api/src/db/client.ts) calls `assertKnownMigrationLevel` right after
 * migrating (on PostgreSQL under the same start-up lock).
 *
 * Rolling deploys (rolling-deploy audit F3): most migrations only add (a nullable column, a table, an index), and the
 * previous release runs on them unchanged. Migrations named in ADDITIVE_MIGRATIONS are such; the one-row table
 * portal_schema_compat (migration 0028) records the `when` of the newest applied migration that is not, and an older
 * node (this release or later) starts when its journal reaches that. Releases before 0028 do not read it and keep
 * refusing any newer migration.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../config.ts';

const journalFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations', 'meta', '_journal.json');

/** One migration of the journal: its file name without `.sql` and its `when` (ms since epoch, drizzle's created_at). */
export type JournalEntry = { tag: string; when: number };

/**
 * Migrations that code of the release before them runs on unchanged (each read; only what adds or rewrites nothing
 * older code reads in a way it cannot handle). Adding a tag here lets an older node start on a database that has it;
 * leave a migration out when in doubt (older nodes then refuse, as before). Classifying migrations before 0028 changes
 * nothing (every release that reads the table knows 0028), they are listed as checked.
 * - 0022_draft_revision: new column with DEFAULT 1 NOT NULL; older inserts get the default.
 * - 0023_mail_reply_to, 0025_announcement_opt_out: new nullable columns.
 * - 0024_reset_channel: new column with DEFAULT 'email'.
 * - 0026_reset_channel_unknown: channel loses DEFAULT/NOT NULL and unused 'email' links become NULL; older code reads
 *   it only as `channel === 'email'` (null: the link does not verify the address, the safe side) and inserts work.
 * - 0027_sms_body_not_kept: rewrites the text of final SMS rows, which no code sends again.
 * - 0028_schema_compat: a new table older code never reads.
 * - 0029_erased_at: a new nullable column (users.erased_at) and its backfill. An older node still erases without
 *   setting it; such rows keep the exact erasure signature, which readErasureLedger also counts (LEGACY_ERASED_SQL).
 * - 0030_held_at: a new nullable column (payments.held_at). An older node holds payments without setting it; such
 *   rows are simply not restored when the application leaves payment_pending (the behaviour before 0030).
 * - 0031_search_word_indexes: three new indexes on users (the admin search's joined-name and phone tests).
 * - 0032_session_epoch: users.session_epoch (DEFAULT 0 NOT NULL) and nullable auth_tokens.session_epoch. An older node
 *   neither raises nor checks them; it still deletes the sessions and revokes the tokens as before.
 * Not listed: migrations that drop or rename a column or table older code uses, add NOT NULL without a default, or
 * change what a value means to older code.
 */
export const ADDITIVE_MIGRATIONS: ReadonlySet<string> = new Set([
  '0022_draft_revision',
  '0023_mail_reply_to',
  '0024_reset_channel',
  '0025_announcement_opt_out',
  '0026_reset_channel_unknown',
  '0027_sms_body_not_kept',
  '0028_schema_compat',
  '0029_erased_at',
  '0030_held_at',
  '0031_search_word_indexes',
  '0032_session_epoch',
]);

/** The journal of this code, oldest first. */
export function journalEntries(): JournalEntry[] {
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: JournalEntry[] };
  return journal.entries.map(({ tag, when }) => ({ tag, when })).sort((a, b) => a.when - b.when);
}

/** The newest migration this code knows: the largest `when` (ms since epoch) of the journal. */
export function newestKnownMigration(): number {
  return Math.max(...journalEntries().map((e) => e.when));
}

/** `query(text, params)` → `{rows}`: the pool of an open Database, or a PGlite client. */
type Query = (text: string, params?: unknown[]) => Promise<{ rows: any[] }>;

async function newestApplied(query: Query): Promise<number | null> {
  const { rows } = await query('select max(created_at)::text as newest from drizzle.__drizzle_migrations');
  return rows[0]?.newest == null ? null : Number(rows[0].newest);
}

/**
 * Writes portal_schema_compat for a database at `journal`'s level: min_reader_when = `when` of the newest journal
 * entry not in `additive` (0 when all are), as_of = the newest entry. Does nothing unless the database's newest
 * applied migration is exactly the journal's newest (a node that does not know every applied migration cannot say
 * which are additive), nor over a row computed for a newer level. `journal` and `additive` default to this code's;
 * tests pass a longer journal to act as a newer release. Resolves to whether the row was written.
 */
export async function recordReaderLevel(query: Query, journal: JournalEntry[] = journalEntries(), additive: ReadonlySet<string> = ADDITIVE_MIGRATIONS): Promise<boolean> {
  const newest = journal.reduce((a, b) => (b.when > a.when ? b : a));
  if ((await newestApplied(query)) !== newest.when) return false;
  const minReader = Math.max(0, ...journal.filter((e) => !additive.has(e.tag)).map((e) => e.when));
  const { rows } = await query(`insert into portal_schema_compat (id, min_reader_when, as_of_when, as_of_tag) values (1, $1, $2, $3)
    on conflict (id) do update set min_reader_when = excluded.min_reader_when, as_of_when = excluded.as_of_when, as_of_tag = excluded.as_of_tag, updated_at = now()
    where portal_schema_compat.as_of_when <= excluded.as_of_when returning id`, [minReader, newest.when, newest.tag]);
  return rows.length > 0;
}

/**
 * Records this code's reader level (recordReaderLevel) when the database is at this code's level, then checks that
 * this code may run on it. When the database has an applied migration newer than this code's journal (newest
 * `created_at` of drizzle.__drizzle_migrations > newestKnownMigration()), it starts only when portal_schema_compat
 * describes that migration (as_of_when ≥ it) and says this code is new enough (min_reader_when ≤ this code's
 * newest), printing one `[db] WARNING: …` line naming the newer migration; otherwise (no table: a database of a
 * release before 0028; a row older than the migration; a migration older code cannot run on) it throws ConfigError
 * ("this database was upgraded by a newer release of the portal; …", printed by server.ts as one "Cannot start:"
 * line). Never writes the table in that case.
 */
export async function assertKnownMigrationLevel(query: Query): Promise<void> {
  const journal = journalEntries();
  const known = journal[journal.length - 1];
  const newest = await newestApplied(query);
  if (newest == null || newest <= known.when) {
    if (newest === known.when) await recordReaderLevel(query, journal);
    return;
  }
  const refuse = () => new ConfigError('this database was upgraded by a newer release of the portal; start that release, or restore the backup taken before the upgrade.');
  const { rows: [table] } = await query(`select to_regclass('portal_schema_compat') is not null as present`);
  if (!table?.present) throw refuse();
  const { rows: [compat] } = await query('select min_reader_when::text as min, as_of_when::text as as_of, as_of_tag as tag from portal_schema_compat where id = 1');
  if (!compat || Number(compat.as_of) < newest || Number(compat.min) > known.when) throw refuse();
  console.warn(`[db] WARNING: this database was migrated by a newer release (up to ${compat.tag}); this release (up to ${known.tag}) runs on it because every newer migration is readable by older releases. Upgrade this node.`);
}
