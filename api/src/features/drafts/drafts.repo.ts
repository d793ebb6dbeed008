/** Application drafts: one row per (user, key), upserted (table application_drafts). */
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { applicationDrafts } from '../../db/schema/applications.ts';
import { courses } from '../../db/schema/catalogue.ts';

/** An `application_drafts` row: `step` 0..4, `data` jsonb as sent (secrets already stripped), `revision` 1 + saves since. */
export type DraftRow = typeof applicationDrafts.$inferSelect;

/** The draft of `userId` under `key`, or undefined. */
export async function findDraft(db: DbOrTx, userId: number, key: string): Promise<DraftRow | undefined> {
  const rows = await db.select().from(applicationDrafts).where(and(eq(applicationDrafts.userId, userId), eq(applicationDrafts.key, key))).limit(1);
  return rows[0];
}

/** What a save must respect (upsertDraft): the course its key names, if any, and the account's number of drafts. */
export interface DraftLimits { courseId?: number; maxDrafts: number }

/**
 * Stores the draft of `userId` under `key` if the stored one is still at `baseRevision` (the revision the client's
 * copy descends from; undefined = the client has seen none, so only a new draft is created), and returns it with
 * its revision raised by one (1 when new); undefined, and nothing written, when a draft exists at another revision.
 * When there is no draft at all it is created whatever `baseRevision` says (nobody's work is lost by that). One
 * INSERT … ON CONFLICT DO UPDATE … WHERE: PostgreSQL re-checks the WHERE on the row version it locked, so of two
 * saves from the same revision exactly one is applied (the other waits for the row lock, then finds the revision
 * moved on).
 * With `limits`, the same statement writes nothing (undefined) unless course `limits.courseId` exists and the account
 * keeps fewer than `limits.maxDrafts` drafts under other keys or already one under `key` (INSERT … SELECT … WHERE:
 * an autosave is one round trip; draftRoom tells why nothing was written). Those counts see the statement's snapshot:
 * new keys saved by one account at the same moment may pass the limit by a few (a bound, as before).
 * Raw SQL for the reason sms-outbox.ts gives: drizzle 0.45's insert().select() must restate every column, the serial
 * id too. Throws the database's errors.
 */
export async function upsertDraft(db: DbOrTx, userId: number, key: string, step: number, data: unknown, baseRevision: number | undefined, limits?: DraftLimits): Promise<DraftRow | undefined> {
  const course = limits?.courseId === undefined ? sql`true` : sql`exists (select 1 from courses where id = ${limits.courseId}::int)`;
  const allowed = !limits ? sql`true` : sql`${course} and (
      (select count(*) from application_drafts where user_id = ${userId}::int and key <> ${key}::text) < ${limits.maxDrafts}::int
      or exists (select 1 from application_drafts where user_id = ${userId}::int and key = ${key}::text))`;
  const rows = rowsOf<Omit<DraftRow, 'updatedAt'> & { updatedAt: string }>(await db.execute(sql`
    insert into application_drafts (user_id, key, step, data, updated_at, revision)
    select ${userId}::int, ${key}::text, ${step}::int, ${JSON.stringify(data)}::jsonb, now(), 1 where ${allowed}
    on conflict (user_id, key) do update set step = excluded.step, data = excluded.data, updated_at = now(), revision = application_drafts.revision + 1
      -- Revisions start at 1, so 0 ("none seen") never matches a stored draft.
      where application_drafts.revision = ${baseRevision ?? 0}::int
    returning id, user_id as "userId", key, step, data, to_json(updated_at) #>> '{}' as "updatedAt", revision`));
  const row = rows[0];
  if (!row) return undefined;
  return { ...row, data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data, updatedAt: new Date(row.updatedAt) };
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
