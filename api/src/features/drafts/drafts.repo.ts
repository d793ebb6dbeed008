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

/** What a draft save must know before it writes (draftRoom): see there. */
export interface DraftRoom { courseExists: boolean; others: number; mine: boolean }

/**
 * In one statement, for a save of `userId`'s draft under `key`: whether course `courseId` exists (active or not: a
 * draft begun before a course was closed may still be saved; true when `courseId` is undefined, a key naming no
 * course), how many drafts the account keeps under other keys (`others`), and whether it keeps one under `key`
 * (`mine`). One aggregate over the account's drafts (the (user_id, key) index), which always answers one row.
 */
export async function draftRoom(db: DbOrTx, userId: number, key: string, courseId: number | undefined): Promise<DraftRoom> {
  const [row] = await db.select({
    others: sql<number>`(count(*) filter (where ${applicationDrafts.key} <> ${key}))::int`,
    mine: sql<boolean>`coalesce(bool_or(${applicationDrafts.key} = ${key}), false)`,
    courseExists: courseId === undefined ? sql<boolean>`true` : sql<boolean>`exists (select 1 from ${courses} where ${courses.id} = ${courseId})`,
  }).from(applicationDrafts).where(eq(applicationDrafts.userId, userId));
  return { courseExists: Boolean(row?.courseExists), others: Number(row?.others ?? 0), mine: Boolean(row?.mine) };
}
