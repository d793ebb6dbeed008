/** Announcement rows and their public projection (spec §3 Announcement). */
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { announcements } from '../../db/schema/messaging.ts';

/** An `announcements` row as drizzle selects it. */
export type AnnouncementRow = typeof announcements.$inferSelect;

/** The API shape of an announcement (spec §3): dates as ISO 8601 strings (null when unset). */
export interface Announcement {
  id: number; title: string; content: string; imageUrl: string | null; active: boolean; createdBy: number | null;
  createdAt: string | null; updatedAt: string | null;
}

/** A row in the API shape (spec §3 Announcement). */
export function toAnnouncement(r: AnnouncementRow): Announcement {
  return {
    id: r.id, title: r.title, content: r.content, imageUrl: r.imageUrl, active: r.active, createdBy: r.createdBy,
    createdAt: r.createdAt?.toISOString() ?? null, updatedAt: r.updatedAt?.toISOString() ?? null,
  };
}

/** Newest first; only active ones unless `includeInactive`; at most `limit` when given (all otherwise). */
export async function listAnnouncements(db: DbOrTx, opts: { includeInactive?: boolean; limit?: number } = {}): Promise<Announcement[]> {
  const q = db.select().from(announcements).where(opts.includeInactive ? undefined : eq(announcements.active, true))
    .orderBy(desc(announcements.createdAt), desc(announcements.id)).$dynamic();
  const rows = await (opts.limit === undefined ? q : q.limit(opts.limit));
  return rows.map(toAnnouncement);
}

type AnnouncementValues = Pick<typeof announcements.$inferInsert, 'title' | 'content' | 'imageUrl' | 'active'>;

/** Inserts an announcement by admin `createdBy` and returns it. */
export async function insertAnnouncement(db: DbOrTx, values: AnnouncementValues & { createdBy: number }): Promise<Announcement> {
  const [row] = await db.insert(announcements).values(values).returning();
  return toAnnouncement(row);
}

/**
 * Replaces title, content, image URL and active flag of announcement `id` (updatedAt now); undefined when there is
 * no such id or, with `expectedUpdatedAt` (ISO 8601), when its updated_at is no longer that instant. The check is in
 * the UPDATE's WHERE, so of two edits made from the same version exactly one succeeds. updated_at is compared
 * truncated to milliseconds: the column keeps microseconds (defaultNow) while the API's ISO strings carry milliseconds.
 */
export async function updateAnnouncement(db: DbOrTx, id: number, values: Omit<AnnouncementValues, 'active'> & { active?: boolean }, expectedUpdatedAt?: string): Promise<Announcement | undefined> {
  const sameVersion = expectedUpdatedAt === undefined ? undefined : sql`date_trunc('milliseconds', ${announcements.updatedAt}) = ${expectedUpdatedAt}::timestamptz`;
  const [row] = await db.update(announcements).set({ ...values, updatedAt: new Date() }).where(and(eq(announcements.id, id), sameVersion)).returning();
  return row ? toAnnouncement(row) : undefined;
}

/**
 * Announcement `id`, active or not, or undefined. With `opts.lock`, its row is locked until the transaction ends
 * (FOR UPDATE), so an edit saved at the same moment waits for the caller rather than changing what it read.
 */
export async function findAnnouncement(db: DbOrTx, id: number, opts: { lock?: boolean } = {}): Promise<Announcement | undefined> {
  const query = db.select().from(announcements).where(eq(announcements.id, id)).limit(1);
  const [row] = opts.lock ? await query.for('update') : await query;
  return row ? toAnnouncement(row) : undefined;
}

/** true when a row was deleted. */
export async function deleteAnnouncement(db: DbOrTx, id: number): Promise<boolean> {
  const rows = await db.delete(announcements).where(eq(announcements.id, id)).returning({ id: announcements.id });
  return rows.length > 0;
}

/**
 * Whether admin `createdBy` created an announcement with exactly this title and content in the last `seconds`
 * seconds (database clock).
 */
export async function hasRecentTwin(db: DbOrTx, createdBy: number, title: string, content: string, seconds: number): Promise<boolean> {
  const rows = await db.select({ id: announcements.id }).from(announcements).where(and(
    eq(announcements.createdBy, createdBy), eq(announcements.title, title), eq(announcements.content, content),
    gt(announcements.createdAt, sql`now() - make_interval(secs => ${seconds})`),
  )).limit(1);
  return rows.length > 0;
}
