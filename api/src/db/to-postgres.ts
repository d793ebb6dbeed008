/**
 * Moving a college from the embedded database (`DATA_DIR/pgdata`, npm start) to a PostgreSQL server (backup and
 * restore audit; the audit's verified script /tmp/audit-d/scripts/pglite-to-pg.mjs made into the product):
 * both sides are migrated to this release, every table of the `public` schema is copied in one transaction on the
 * target, the sequences are moved past the copied ids, and the row counts are compared. The documents stay where
 * they are: copy `DATA_DIR/uploads` to the new node's DATA_DIR (or to S3). The CLI is api/src/cli/db-to-postgres.ts.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { DataDirInUseError, openPgliteFolder } from './client.ts';
import { BackupError } from './backup.ts';
import { embeddedDatabase } from './restore-marker.ts';

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Rows sent to PostgreSQL per INSERT (as one JSON parameter). */
const BATCH_ROWS = 500;

/** What `copyToPostgres` copied: rows per table (equal on both sides, else it throws). */
export interface CopySummary { tables: Record<string, number>; rows: number }

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * The tables of `tables` ordered so that a table comes after the tables its foreign keys reference (`fks`: child →
 * parents); a cycle (none in this schema) keeps the remaining tables in name order.
 */
function referencedFirst(tables: string[], fks: Array<{ child: string; parent: string }>): string[] {
  const out: string[] = [];
  const left = new Set(tables);
  while (left.size) {
    const ready = [...left].filter((t) => !fks.some((f) => f.child === t && f.parent !== t && left.has(f.parent)));
    for (const t of ready.length ? ready : [...left]) { out.push(t); left.delete(t); }
  }
  return out;
}

/**
 * Copies the embedded database of `dataDir` into the PostgreSQL database `url`, which must have no tables in `public`
 * (a fresh `createdb`; BackupError otherwise). The embedded folder must not be open elsewhere (BackupError "stop the
 * server"). Both are migrated to this release first, so their tables match. The copy runs in one transaction: user
 * triggers (content version bumps) are off while it runs, the migrations' own rows are replaced, tables are filled
 * parents first, and every sequence is set past its column's highest value. Throws BackupError when a table's row
 * count differs afterwards (the transaction is then rolled back). Resolves to the rows copied per table.
 */
export async function copyToPostgres(dataDir: string, url: string): Promise<CopySummary> {
  let folder: Awaited<ReturnType<typeof openPgliteFolder>>;
  try { folder = await openPgliteFolder(dataDir); } catch (err: any) {
    if (err instanceof DataDirInUseError) throw new BackupError(`${embeddedDatabase(dataDir)} is open in another process (a running \`npm start\`?). Stop the server, then run this again.`);
    throw new BackupError(err?.message ?? String(err));
  }
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const existing = (await pool.query(`select count(*)::int as n from information_schema.tables where table_schema = 'public'`)).rows[0].n;
    if (existing) throw new BackupError('the database in --url already has tables: copy into a new, empty database (createdb college).');
    const src = folder.client;
    await migratePglite(drizzlePglite(src) as any, { migrationsFolder });
    await migratePg(drizzlePg(pool) as any, { migrationsFolder });
    const tables = (await src.query<{ t: string }>(`select table_name as t from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`)).rows.map((r) => r.t);
    const fks = (await src.query<{ child: string; parent: string }>(`select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent from pg_constraint c
      where c.contype = 'f' and c.connamespace = 'public'::regnamespace`)).rows.map((r) => ({ child: r.child.replaceAll('"', ''), parent: r.parent.replaceAll('"', '') }));
    const order = referencedFirst(tables, fks);
    const counts: Record<string, number> = {};
    const dst = await pool.connect();
    try {
      await dst.query('BEGIN');
      for (const t of tables) await dst.query(`ALTER TABLE ${quote(t)} DISABLE TRIGGER USER`);
      await dst.query(`TRUNCATE ${tables.map(quote).join(', ')}`);
      for (const t of order) {
        const cols = (await src.query<{ c: string }>(`select column_name as c from information_schema.columns where table_schema = 'public' and table_name = $1 and is_generated = 'NEVER' order by ordinal_position`, [t])).rows.map((r) => quote(r.c)).join(', ');
        counts[t] = (await src.query<{ n: number }>(`select count(*)::int as n from ${quote(t)}`)).rows[0].n;
        for (let offset = 0; offset < counts[t]; offset += BATCH_ROWS) {
          // ctid order: a stable page through a table nobody writes to (the folder is locked).
          const rows = (await src.query<{ r: unknown }>(`select row_to_json(x) as r from (select ${cols} from ${quote(t)} order by ctid limit ${BATCH_ROWS} offset ${offset}) x`)).rows.map((r) => r.r);
          await dst.query(`INSERT INTO ${quote(t)} (${cols}) OVERRIDING SYSTEM VALUE SELECT ${cols} FROM json_populate_recordset(null::${quote(t)}, $1)`, [JSON.stringify(rows)]);
        }
      }
      await dst.query(`DO $$ declare r record; begin
        for r in select s.oid::regclass::text as seq, t.relname as tbl, a.attname as col from pg_class s
          join pg_depend d on d.objid = s.oid and d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass
          join pg_class t on d.refobjid = t.oid join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
          where s.relkind = 'S' and t.relnamespace = 'public'::regnamespace loop
          execute format('select setval(%L, coalesce((select max(%I) from %I), 0) + 1, false)', r.seq, r.col, r.tbl);
        end loop; end $$`);
      for (const t of tables) await dst.query(`ALTER TABLE ${quote(t)} ENABLE TRIGGER USER`);
      for (const t of tables) {
        const n = (await dst.query(`select count(*)::int as n from ${quote(t)}`)).rows[0].n;
        if (n !== counts[t]) throw new BackupError(`table ${t}: ${counts[t]} row(s) in the embedded database but ${n} copied; nothing was kept.`);
      }
      await dst.query('COMMIT');
    } catch (err) {
      await dst.query('ROLLBACK').catch(() => {});
      throw err;
    } finally { dst.release(); }
    return { tables: counts, rows: Object.values(counts).reduce((a, b) => a + b, 0) };
  } finally {
    await pool.end();
    await folder.close();
  }
}
