/**
 * Admin name and e-mail search on indexes (volume audit item 4b): immutable_unaccent (migration 0021) makes the
 * unaccented name indexable; the trigram GIN indexes users_name_trgm_idx and users_email_trgm_idx answer
 * unaccentContains(first_name || ' ' || last_name, term) and email ILIKE '%term%'. Every word of a search box term
 * (searchMatch) reads users through indexes alone (migration 0031; the Students list's APP reference through users_pkey),
 * so a word costs index lookups, not a pass over every user computing regexp_replace on each name (figures:
 * bench/admin-search-words.ts). Plans are read with sequential scans disabled, as an index that applies is then chosen
 * whatever the table's size. Matching rules: names.test.ts, search-words.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ilike, or, sql, type SQL } from 'drizzle-orm';
import { startTestApp, DB_KIND, type TestApp } from '../../test/harness.ts';
import { users } from '../../db/schema/users.ts';
import { unaccentContains } from '../../db/text-search.ts';
import { searchMatch, userOfApplication } from './admin-search.repo.ts';

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

  it('each word of the search box, and a phone number typed in groups, reads users through indexes only', async () => {
    const noApp = () => sql`false`;
    const word = await plan(searchMatch('oneill', (who) => who, noApp));
    expect(word).not.toContain('Seq Scan');
    for (const index of ['users_name_trgm_idx', 'users_joined_name_trgm_idx', 'users_email_trgm_idx', 'users_phone_trgm_idx']) expect(word).toContain(index);
    const phone = await plan(searchMatch('+27 82 123 4567', (who) => who, noApp));
    expect(phone).not.toContain('Seq Scan');
    expect(phone).toContain('users_phone_digits_trgm_idx');
  });

  it('the Students list: an APP reference, and digit words that may be one, read users through indexes only', async () => {
    for (const term of ['APP-12', 'mudau 4711', '082 123 4567']) {
      const students = await plan(searchMatch(term, (who) => who, userOfApplication));
      expect(students, term).not.toContain('Seq Scan');
    }
  });

  it('immutable_unaccent answers as unaccent does', async () => {
    const [r] = rowsOf<{ a: string; b: string }>(await t.database.db.execute(sql`SELECT immutable_unaccent('Ṋemudzivhadi O’Neill Ṱhilivhali') AS a, unaccent('Ṋemudzivhadi O’Neill Ṱhilivhali') AS b`));
    expect(r!.a).toBe(r!.b);
    expect(r!.a).toBe("Nemudzivhadi O'Neill Thilivhali");
  });
});
