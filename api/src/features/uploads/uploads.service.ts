/**
 * Upload ownership checks used by other features (DESIGN §4 Documents): an application may only
 * reference uploads its applicant made.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { uploads } from '../../db/schema/applications.ts';
import { badRequest } from '../../http/errors.ts';

/** Throws 400 (field `documents.<slot>`) when a referenced upload is missing or belongs to someone else. */
export async function assertOwnedUploads(db: Db, userId: number, documents: Record<string, string | undefined>): Promise<void> {
  const entries = Object.entries(documents).filter(([, v]) => Boolean(v)) as [string, string][];
  if (entries.length === 0) return;
  const rows = await db.select({ id: uploads.id }).from(uploads)
    .where(and(eq(uploads.userId, userId), inArray(uploads.id, entries.map(([, v]) => v))));
  const owned = new Set(rows.map((r) => r.id));
  const fields: Record<string, string> = {};
  for (const [slot, id] of entries) if (!owned.has(id)) fields[`documents.${slot}`] = 'This document was not found. Please upload it again.';
  if (Object.keys(fields).length) throw badRequest('Please upload the required documents again', fields);
}
