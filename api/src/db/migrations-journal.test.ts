/**
 * The migration journal (api/src/db/migrations/meta/_journal.json, written by `npm run db:generate`). drizzle's
 * migrator applies a migration only when its journal time is after the last applied one's, so times must rise
 * with the index and none may lie in the future: a migration generated later the same day would get an earlier
 * time and be skipped without a word on every database that had applied the future-dated one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const journal = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'migrations/meta/_journal.json'), 'utf8')) as { entries: { idx: number; tag: string; when: number }[] };

describe('migration journal', () => {
  it('times rise from one migration to the next, and none is in the future', () => {
    const entries = journal.entries;
    for (let i = 1; i < entries.length; i++) expect(entries[i]!.when, entries[i]!.tag).toBeGreaterThan(entries[i - 1]!.when);
    const future = entries.filter((e) => e.when > Date.now()).map((e) => `${e.tag} at ${new Date(e.when).toISOString()}`);
    expect(future).toEqual([]);
    for (const e of entries) expect(fs.existsSync(path.join(import.meta.dirname, 'migrations', `${e.tag}.sql`)), e.tag).toBe(true);
  });
});
