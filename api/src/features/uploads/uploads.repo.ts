/** Upload rows (DESIGN §4 Documents): metadata only; the bytes live under DATA_DIR/uploads. */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { uploads, applications } from '../../db/schema/applications.ts';

/**
 * An `uploads` row: metadata of one stored file (size in bytes, SHA-256 hex, `storedName` = key in the document store).
 */
export type UploadRow = typeof uploads.$inferSelect;

/** The values of a new `uploads` row (insertUploadRow): id, userId, names, mime, size in bytes, SHA-256 hex. */
export type NewUploadRow = typeof uploads.$inferInsert;

/** Inserts the metadata of a stored file and returns the row. Throws on a duplicate id (23505). */
export async function insertUploadRow(db: DbOrTx, row: NewUploadRow): Promise<UploadRow> {
  const [r] = await db.insert(uploads).values(row).returning();
  return r;
}

/** The upload with this id, or undefined (callers decide who may see it). */
export async function findUploadRow(db: DbOrTx, id: string): Promise<UploadRow | undefined> {
  const rows = await db.select().from(uploads).where(eq(uploads.id, id)).limit(1);
  return rows[0];
}

/** The uploads among `ids` that exist, in no particular order ([] for no ids). */
export async function findUploadRows(db: DbOrTx, ids: string[]): Promise<UploadRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(uploads).where(inArray(uploads.id, ids));
}

/**
 * The subset of `ids` that `userId` uploaded (an application may only reference its applicant's uploads, ASVS 8.2.2).
 */
export async function ownedUploadIds(db: DbOrTx, userId: number, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: uploads.id }).from(uploads).where(and(eq(uploads.userId, userId), inArray(uploads.id, ids)));
  return new Set(rows.map((r) => r.id));
}

/**
 * The subset of `ids` that `userId` uploaded, each row locked FOR SHARE until the transaction `tx` ends: a delete or
 * purge of one of them (which locks FOR UPDATE) waits for the citing transaction, and one that went first leaves
 * its id out of the answer. Call inside the transaction that writes the reference.
 */
export async function lockOwnedUploadIds(tx: DbOrTx, userId: number, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx.select({ id: uploads.id }).from(uploads).where(and(eq(uploads.userId, userId), inArray(uploads.id, ids))).for('share');
  return new Set(rows.map((r) => r.id));
}

/** The upload `id` locked FOR UPDATE until the transaction `tx` ends (a delete's re-check), or undefined. */
export async function lockUploadRow(tx: DbOrTx, id: string): Promise<UploadRow | undefined> {
  const rows = await tx.select().from(uploads).where(eq(uploads.id, id)).for('update').limit(1);
  return rows[0];
}

/**
 * True when any application cites the upload in its documents. One probe of the GIN index applications_upload_refs_idx
 * (`upload_refs(documents) @> ARRAY[id]`, migrations 0018/0019), not a scan of every application's JSON.
 */
export async function isAttached(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db.select({ id: applications.id }).from(applications)
    .where(sql`upload_refs(${applications.documents}) @> array[${id}::text]`).limit(1);
  return rows.length > 0;
}

/** Deletes the metadata row `id` (the caller deletes the bytes from the store). */
export async function deleteUploadRow(db: DbOrTx, id: string): Promise<void> {
  await db.delete(uploads).where(eq(uploads.id, id));
}

/** The newest 200 uploads of `userId`, newest first. */
export async function listUploadRows(db: DbOrTx, userId: number): Promise<UploadRow[]> {
  return db.select().from(uploads).where(eq(uploads.userId, userId)).orderBy(desc(uploads.createdAt)).limit(200);
}

/**
 * Uploads older than `before` that no application references and no saved draft mentions: files a person
 * uploaded and then abandoned (POPIA s14: keep personal information no longer than needed).
 */
export async function orphanUploadRows(db: DbOrTx, before: Date): Promise<UploadRow[]> {
  return db.select().from(uploads).where(orphaned(before)).limit(500);
}

/** Whether upload `id` is still an orphan as orphanUploadRows defines it (the purge's re-check under the row lock). */
export async function isOrphanUpload(tx: DbOrTx, id: string, before: Date): Promise<boolean> {
  const rows = await tx.select({ id: uploads.id }).from(uploads).where(and(eq(uploads.id, id), orphaned(before))).limit(1);
  return rows.length > 0;
}

/**
 * "Older than `before`, cited by no application and by no draft". Each reference test is `upload_refs(x) @> ARRAY[id]`,
 * exactly the expression of the GIN indexes applications_upload_refs_idx / drafts_upload_refs_idx (migrations 0018/0019),
 * so the planner answers it with one index probe per upload. It used to compare each upload with every application's
 * documents (jsonb_each_text) and LIKE-match every draft's text: quadratic, 46.5 s at 20 000 applications and 5 000
 * drafts (volume audit). A draft keeps an upload when any string in it, at any depth, is the upload's id (the wizard
 * stores `documents.<slot>.id`); the old substring match also kept uploads whose id merely appeared inside a longer
 * string, which no draft the wizard writes contains.
 */
const orphaned = (before: Date) => sql`${uploads.createdAt} < ${before.toISOString()}
    and not exists (select 1 from applications a where upload_refs(a.documents) @> array[${uploads.id}])
    and not exists (select 1 from application_drafts r where upload_refs(r.data) @> array[${uploads.id}])`;

/**
 * How many uploads `userId` keeps that none of their applications cites, and their total size in bytes (the per-account
 * limit, quota.ts). Each citation test is one probe of the GIN index applications_upload_refs_idx, as in `orphaned`.
 */
export async function unattachedUsage(db: DbOrTx, userId: number): Promise<{ count: number; bytes: number }> {
  const [row] = await db.select({ count: sql<number>`count(*)::int`, bytes: sql<string>`coalesce(sum(${uploads.size}), 0)::bigint` }).from(uploads)
    .where(and(eq(uploads.userId, userId), sql`not exists (select 1 from applications a where a.user_id = ${userId} and upload_refs(a.documents) @> array[${uploads.id}])`));
  return { count: Number(row?.count ?? 0), bytes: Number(row?.bytes ?? 0) };
}
