/** What the public site shows from the database; its hash decides whether a rebuild is needed. */
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { courses } from '../db/schema/catalogue.ts';
import { announcements } from '../db/schema/messaging.ts';
import { settings } from '../db/schema/system.ts';

/**
 * Active courses and announcements and every setting, ordered by id/key: the data a build renders; its SHA-256 decides whether to rebuild.
 */
export async function publicSnapshot(db: Db): Promise<unknown> {
  const [c, a, s] = await Promise.all([
    db.select().from(courses).where(eq(courses.isActive, true)).orderBy(asc(courses.id)),
    db.select().from(announcements).where(eq(announcements.active, true)).orderBy(asc(announcements.id)),
    db.select().from(settings).orderBy(asc(settings.key)),
  ]);
  return { c, a, s };
}
