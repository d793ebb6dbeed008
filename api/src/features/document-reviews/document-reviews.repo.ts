/** Document review rows (issue #16 point 3) and the application row they belong to. */
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { applications, documentReviews } from '../../db/schema/applications.ts';
import { users } from '../../db/schema/users.ts';

export type ReviewRow = typeof documentReviews.$inferSelect & { reviewerName: string | null; reviewerEmail: string | null };

/** An application's owner, status (spec §4) and documents (slot → upload id). */
export interface ApplicationDocumentsRow { userId: number; status: string; documents: Record<string, string> }

const documentsFields = { userId: applications.userId, status: applications.status, documents: applications.documents };
const toDocumentsRow = (r: { userId: number; status: string; documents: unknown } | undefined): ApplicationDocumentsRow | undefined =>
  r ? { userId: r.userId, status: r.status, documents: (r.documents ?? {}) as Record<string, string> } : undefined;

/**
 * The application's owner, status and documents, locked FOR UPDATE so reviews, replacements and status changes of one
 * application serialise (a decision taken meanwhile is seen here).
 */
export async function lockApplicationDocuments(tx: DbOrTx, id: number): Promise<ApplicationDocumentsRow | undefined> {
  const rows = await tx.select(documentsFields).from(applications).where(eq(applications.id, id)).for('update').limit(1);
  return toDocumentsRow(rows[0]);
}

/** Owner, status and documents of the application, unlocked (reads). */
export async function applicationDocuments(db: DbOrTx, id: number): Promise<ApplicationDocumentsRow | undefined> {
  const rows = await db.select(documentsFields).from(applications).where(eq(applications.id, id)).limit(1);
  return toDocumentsRow(rows[0]);
}

/**
 * Appends a document review row (verified / rejected with reason; issue #16 point 3), stamped with clock_timestamp().
 */
export async function insertReview(tx: DbOrTx, row: typeof documentReviews.$inferInsert): Promise<void> {
  await tx.insert(documentReviews).values({ createdAt: sql`clock_timestamp()`, ...row });
}

/** The latest review of upload `uploadId` in `slot` of application `applicationId` (status, reason, reviewer's name), or undefined. */
export async function latestReview(tx: DbOrTx, applicationId: number, slot: string, uploadId: string): Promise<{ status: string; reason: string | null; reviewerName: string | null } | undefined> {
  const rows = await tx.select({ status: documentReviews.status, reason: documentReviews.reason, first: users.firstName, last: users.lastName }).from(documentReviews)
    .leftJoin(users, eq(users.id, documentReviews.reviewedBy))
    .where(and(eq(documentReviews.applicationId, applicationId), eq(documentReviews.slot, slot), eq(documentReviews.uploadId, uploadId)))
    .orderBy(desc(documentReviews.createdAt), desc(documentReviews.id)).limit(1);
  const r = rows[0];
  return r && { status: r.status, reason: r.reason, reviewerName: r.first != null ? `${r.first} ${r.last ?? ''}`.trim() : null };
}

/** Every review of the application, oldest first, with the reviewer's name and e-mail (null once the account is gone). */
export async function reviewsFor(db: DbOrTx, applicationId: number): Promise<ReviewRow[]> {
  const rows = await db.select({ r: documentReviews, first: users.firstName, last: users.lastName, email: users.email }).from(documentReviews)
    .leftJoin(users, eq(users.id, documentReviews.reviewedBy))
    .where(eq(documentReviews.applicationId, applicationId)).orderBy(asc(documentReviews.createdAt), asc(documentReviews.id));
  return rows.map((x) => ({ ...x.r, reviewerName: x.first ? `${x.first} ${x.last ?? ''}`.trim() : null, reviewerEmail: x.email ?? null }));
}

/** Puts `uploadId` into `slot` of the application's documents. */
export async function setSlot(tx: DbOrTx, id: number, documents: Record<string, string>): Promise<void> {
  await tx.update(applications).set({ documents, updatedAt: new Date() }).where(eq(applications.id, id));
}

/**
 * For each application of `apps` ({id, documents: slot → upload id}), the slots whose current document's latest review
 * rejected it (issue: the dashboard showed "Documents (done)" while one was Rejected). Applications with none are absent.
 * One query for the whole list.
 */
export async function rejectedSlotsOf(db: DbOrTx, apps: { id: number; documents: Record<string, string> | null }[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (!apps.length) return out;
  const rows = await db.select({ applicationId: documentReviews.applicationId, slot: documentReviews.slot, uploadId: documentReviews.uploadId, status: documentReviews.status })
    .from(documentReviews).where(inArray(documentReviews.applicationId, apps.map((a) => a.id))).orderBy(asc(documentReviews.createdAt), asc(documentReviews.id));
  const latest = new Map<string, string>();
  for (const r of rows) latest.set(`${r.applicationId}\u0000${r.slot}\u0000${r.uploadId}`, r.status);
  for (const a of apps) {
    const slots = Object.entries(a.documents ?? {}).filter(([slot, upload]) => upload && latest.get(`${a.id}\u0000${slot}\u0000${upload}`) === 'rejected').map(([slot]) => slot);
    if (slots.length) out.set(a.id, slots);
  }
  return out;
}
