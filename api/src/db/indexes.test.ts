/**
 * The indexes a realistic college database needs (volume audit: 300 courses, 5 000 students, 20 000–100 000
 * applications), as the migrations leave them on PGlite and PostgreSQL: the admin list's order, the foreign keys
 * the application pages and deletes follow, and every foreign key to users (deleting or erasing an account checks
 * each referencing table; without an index that is a scan of the whole table per deleted user).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, DB_KIND, type TestApp } from '../test/harness.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const rowsOf = <T,>(r: unknown): T[] => (r as { rows: T[] }).rows;

/** EXPLAIN of `query` with sequential scans priced out, as one text (what a big table would get from the planner). */
async function plan(query: ReturnType<typeof sql>): Promise<string> {
  return t.database.db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL enable_seqscan = off`);
    return rowsOf<Record<string, string>>(await tx.execute(sql`EXPLAIN ${query}`)).map((r) => Object.values(r)[0]).join('\n');
  });
}

describe(`indexes after the migrations (${DB_KIND})`, () => {
  it('pg_indexes lists the audit\'s indexes on the columns it named', async () => {
    const found = rowsOf<{ indexname: string; indexdef: string }>(await t.database.db.execute(sql`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()`));
    const def = (name: string) => found.find((i) => i.indexname === name)?.indexdef ?? `(no index ${name})`;
    expect(def('applications_created_idx')).toMatch(/ON (\w+\.)?applications USING btree \(created_at DESC, id DESC\)/);
    expect(def('applications_course_idx')).toMatch(/ON (\w+\.)?applications USING btree \(course_id\)/);
    expect(def('payments_application_idx')).toMatch(/ON (\w+\.)?payments USING btree \(application_id\)/);
    expect(def('applications_entered_by_idx')).toMatch(/\(entered_by\)/);
    expect(def('history_changed_by_idx')).toMatch(/application_status_history USING btree \(changed_by\)/);
    expect(def('sms_outbox_user_idx')).toMatch(/sms_outbox USING btree \(user_id\)/);
    expect(def('document_reviews_reviewed_by_idx')).toMatch(/document_reviews USING btree \(reviewed_by\)/);
    expect(def('external_payments_created_by_idx')).toMatch(/external_payments USING btree \(created_by\)/);
  });

  it('every foreign key to users leads some index', async () => {
    const unindexed = rowsOf<{ tbl: string; col: string }>(await t.database.db.execute(sql`
      SELECT c.conrelid::regclass::text AS tbl, a.attname AS col
      FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
      WHERE c.contype = 'f' AND c.confrelid = 'users'::regclass
        AND NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.conrelid AND i.indkey[0] = c.conkey[1])
      ORDER BY 1, 2`));
    expect(unindexed).toEqual([]);
  });

  it('the planner uses them: newest-first page, applications of a course, payments of an application', async () => {
    expect(await plan(sql`SELECT id FROM applications ORDER BY created_at DESC, id DESC LIMIT 20`)).toContain('applications_created_idx');
    expect(await plan(sql`SELECT id FROM applications WHERE course_id = 1`)).toContain('applications_course_idx');
    expect(await plan(sql`SELECT id FROM payments WHERE application_id = 1`)).toContain('payments_application_idx');
  });
});
