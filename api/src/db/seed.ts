/**
 * First-start seed from content/seed/ (issue #2): the four campuses, the four departments, the catalogue
 * and a few announcements. Each table is filled only when it is empty, so restarts reuse the data.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { count } from 'drizzle-orm';
import type { Db } from './client.ts';
import { campuses, courses, departments } from './schema/catalogue.ts';
import { announcements } from './schema/messaging.ts';

const seedDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../content/seed');
const read = <T>(name: string): T => JSON.parse(fs.readFileSync(path.join(seedDir, name), 'utf8')) as T;

async function isEmpty(db: Db, table: any): Promise<boolean> {
  const [{ n }] = await db.select({ n: count() }).from(table);
  return Number(n) === 0;
}

/**
 * Loads the seed into empty tables. Returns the names of the tables it filled. It checks, then inserts: two callers
 * at once on an empty database would both fill, so startServer runs it under `Database.exclusive` (the start-up lock).
 */
export async function seed(db: Db): Promise<string[]> {
  const filled: string[] = [];
  await db.transaction(async (t) => {
    if (await isEmpty(t, campuses)) { await t.insert(campuses).values(read('campuses.json')); filled.push('campuses'); }
    if (await isEmpty(t, departments)) { await t.insert(departments).values(read<string[]>('departments.json').map((name) => ({ name }))); filled.push('departments'); }
    if (await isEmpty(t, courses)) { await t.insert(courses).values(read('courses.json')); filled.push('courses'); }
    if (await isEmpty(t, announcements)) { await t.insert(announcements).values(read('announcements.json')); filled.push('announcements'); }
  });
  return filled;
}
