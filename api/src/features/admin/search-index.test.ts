/**
 * Admin name and e-mail search on indexes (volume audit item 4b): immutable_unaccent (migration 0021) makes the
 * unaccented name indexable; the trigram GIN indexes users_name_trgm_idx and users_email_trgm_idx answer
 * unaccentContains(first_name || ' ' || last_name, term) and email ILIKE '%term%'. Matching rules: names.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ilike, or, sql, type SQL } from 'drizzle-orm';
import { startTestApp, DB_KIND, type TestApp } from '../../test/harness.ts';
import { users } from '../../db/schema/users.ts';
import { unaccentContains } from '../../db/text-search.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const rowsOf = <T,>(r: unknown): T[] => (r as { rows: T[] }).rows;

async function plan(where: SQL): Promise<string> {
  return t.database.db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL enable_seqscan = off`);
    return rowsOf<Record<string, string>>(await tx.execute(sql`EXPLAIN SELECT id FROM users WHERE ${where}`)).map((r) => Object.values(r)[0]).join('\n');
  });
}

describe(`admin search indexes (${DB_KIND})`, () => {
  it('a name search and a name-or-e-mail search are trigram index scans', async () => {
    const name = unaccentContains(sql`${users.firstName} || ' ' || ${users.lastName}`, 'Nemudzivhadi');
    expect(await plan(name)).toContain('users_name_trgm_idx');
    const either = await plan(or(name, ilike(users.email, '%nemu%'))!);
    expect(either).toContain('users_name_trgm_idx');
    expect(either).toContain('users_email_trgm_idx');
  });

  it('immutable_unaccent answers as unaccent does', async () => {
    const [r] = rowsOf<{ a: string; b: string }>(await t.database.db.execute(sql`SELECT immutable_unaccent('Ṋemudzivhadi O’Neill Ṱhilivhali') AS a, unaccent('Ṋemudzivhadi O’Neill Ṱhilivhali') AS b`));
    expect(r!.a).toBe(r!.b);
    expect(r!.a).toBe("Nemudzivhadi O'Neill Thilivhali");
  });
});
