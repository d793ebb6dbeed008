/** Announcement rows and their public projection (spec §3 Announcement). */
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { announcements } from '../../db/schema/messaging.ts';

export type AnnouncementRow = typeof announcements.$inferSelect;

export function toAnnouncement(r: AnnouncementRow) {
  return {
    id: r.id, title: r.title, content: r.content, imageUrl: r.imageUrl, active: r.active, createdBy: r.createdBy,
    createdAt: r.createdAt?.toISOString() ?? null, updatedAt: r.updatedAt?.toISOString() ?? null,
  };
}
export type Announcement = ReturnType<typeof toAnnouncement>;

/** Newest first; only active ones unless `includeInactive`. */
export async function listAnnouncements(db: Db, opts: { includeInactive?: boolean } = {}): Promise<Announcement[]> {
  const q = db.select().from(announcements);
  const rows = opts.includeInactive
    ? await q.orderBy(desc(announcements.createdAt), desc(announcements.id))
    : await q.where(eq(announcements.active, true)).orderBy(desc(announcements.createdAt), desc(announcements.id));
  return rows.map(toAnnouncement);
}
