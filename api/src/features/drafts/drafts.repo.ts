/** Application drafts: one row per (user, key), upserted (table application_drafts). */
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { applicationDrafts } from '../../db/schema/applications.ts';

/** An `application_drafts` row: `step` 0..4, `data` jsonb as sent (secrets already stripped). */
export type DraftRow = typeof applicationDrafts.$inferSelect;

/** The draft of `userId` under `key`, or undefined. */
export async function findDraft(db: DbOrTx, userId: number, key: string): Promise<DraftRow | undefined> {
  const rows = await db.select().from(applicationDrafts).where(and(eq(applicationDrafts.userId, userId), eq(applicationDrafts.key, key))).limit(1);
  return rows[0];
}

/** Creates or replaces the draft of `userId` under `key` (one row per pair, updatedAt now) and returns it. */
export async function upsertDraft(db: DbOrTx, userId: number, key: string, step: number, data: unknown): Promise<DraftRow> {
  const [row] = await db.insert(applicationDrafts).values({ userId, key, step, data, updatedAt: new Date() })
    .onConflictDoUpdate({ target: [applicationDrafts.userId, applicationDrafts.key], set: { step, data, updatedAt: sql`now()` } })
    .returning();
  return row;
}

/** Deletes the draft of `userId` under `key`; no error when there is none. */
export async function deleteDraft(db: DbOrTx, userId: number, key: string): Promise<void> {
  await db.delete(applicationDrafts).where(and(eq(applicationDrafts.userId, userId), eq(applicationDrafts.key, key)));
}
