/** Application drafts: one row per (user, key), upserted (table application_drafts). */
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { applicationDrafts } from '../../db/schema/applications.ts';

export type DraftRow = typeof applicationDrafts.$inferSelect;

export async function findDraft(db: DbOrTx, userId: number, key: string): Promise<DraftRow | undefined> {
  const rows = await db.select().from(applicationDrafts).where(and(eq(applicationDrafts.userId, userId), eq(applicationDrafts.key, key))).limit(1);
  return rows[0];
}

export async function upsertDraft(db: DbOrTx, userId: number, key: string, step: number, data: unknown): Promise<DraftRow> {
  const [row] = await db.insert(applicationDrafts).values({ userId, key, step, data, updatedAt: new Date() })
    .onConflictDoUpdate({ target: [applicationDrafts.userId, applicationDrafts.key], set: { step, data, updatedAt: sql`now()` } })
    .returning();
  return row;
}

export async function deleteDraft(db: DbOrTx, userId: number, key: string): Promise<void> {
  await db.delete(applicationDrafts).where(and(eq(applicationDrafts.userId, userId), eq(applicationDrafts.key, key)));
}
