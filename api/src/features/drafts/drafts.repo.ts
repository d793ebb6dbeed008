/** Application drafts: one row per (user, key), upserted (table application_drafts). */
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { applicationDrafts } from '../../db/schema/applications.ts';
import { courses } from '../../db/schema/catalogue.ts';

/** An `application_drafts` row: `step` 0..4, `data` jsonb as sent (secrets already stripped), `revision` 1 + saves since. */
export type DraftRow = typeof applicationDrafts.$inferSelect;

/** The draft of `userId` under `key`, or undefined. */
export async function findDraft(db: DbOrTx, userId: number, key: string): Promise<DraftRow | undefined> {
  const rows = await db.select().from(applicationDrafts).where(and(eq(applicationDrafts.userId, userId), eq(applicationDrafts.key, key))).limit(1);
  return rows[0];
}

/**
 * Stores the draft of `userId` under `key` if the stored one is still at `baseRevision` (the revision the client's
 * copy descends from; undefined = the client has seen none, so only a new draft is created), and returns it with
 * its revision raised by one (1 when new); undefined, and nothing written, when a draft exists at another revision.
 * When there is no draft at all it is created whatever `baseRevision` says (nobody's work is lost by that). One
 * INSERT … ON CONFLICT DO UPDATE … WHERE: PostgreSQL re-checks the WHERE on the row version it locked, so of two
 * saves from the same revision exactly one is applied (the other waits for the row lock, then finds the revision
 * moved on).
 */
export async function upsertDraft(db: DbOrTx, userId: number, key: string, step: number, data: unknown, baseRevision: number | undefined): Promise<DraftRow | undefined> {
  const [row] = await db.insert(applicationDrafts).values({ userId, key, step, data, updatedAt: new Date(), revision: 1 })
    .onConflictDoUpdate({
      target: [applicationDrafts.userId, applicationDrafts.key],
      set: { step, data, updatedAt: sql`now()`, revision: sql`${applicationDrafts.revision} + 1` },
      // Revisions start at 1, so 0 ("none seen") never matches a stored draft.
      setWhere: eq(applicationDrafts.revision, baseRevision ?? 0),
    })
    .returning();
  return row;
}

/** Deletes the draft of `userId` under `key`; no error when there is none. */
export async function deleteDraft(db: DbOrTx, userId: number, key: string): Promise<void> {
  await db.delete(applicationDrafts).where(and(eq(applicationDrafts.userId, userId), eq(applicationDrafts.key, key)));
}

/** True when course `id` exists (active or not: a draft begun before a course was closed may still be saved). */
export async function courseExists(db: DbOrTx, id: number): Promise<boolean> {
  const rows = await db.select({ id: courses.id }).from(courses).where(eq(courses.id, id)).limit(1);
  return rows.length > 0;
}

/** How many drafts `userId` keeps under keys other than `key`. */
export async function countOtherDrafts(db: DbOrTx, userId: number, key: string): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(applicationDrafts).where(and(eq(applicationDrafts.userId, userId), sql`${applicationDrafts.key} <> ${key}`));
  return Number(row?.n ?? 0);
}
