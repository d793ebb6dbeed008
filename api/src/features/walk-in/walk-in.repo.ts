/** SQL of the walk-in desk (issue #18 point 6): the campuses a desk can be at. */
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { campuses } from '../../db/schema/catalogue.ts';

/** Every campus as {id, name}, in seed (id) order. */
export function listCampuses(db: DbOrTx): Promise<{ id: number; name: string }[]> {
  return db.select({ id: campuses.id, name: campuses.name }).from(campuses).orderBy(campuses.id);
}

/** Whether campus `id` exists. */
export async function campusExists(db: DbOrTx, id: number): Promise<boolean> {
  const [row] = await db.select({ id: campuses.id }).from(campuses).where(eq(campuses.id, id)).limit(1);
  return row !== undefined;
}
