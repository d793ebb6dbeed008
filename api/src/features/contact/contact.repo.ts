/** SQL for contact messages (table contact_messages, api/src/db/schema/messaging.ts). */
import { count, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { contactMessages } from '../../db/schema/messaging.ts';
import type { ContactMessage, StoredContactMessage } from '#contracts/contact.ts';

type Row = typeof contactMessages.$inferSelect;
const toPublic = (r: Row): StoredContactMessage => ({
  id: r.id, firstName: r.firstName, lastName: r.lastName, email: r.email, phone: r.phone, message: r.message,
  createdAt: r.createdAt.toISOString(),
});

/** Inserts a message; returns null when a row with the same idempotency key already exists. */
export async function insertContactMessage(db: DbOrTx, m: ContactMessage): Promise<StoredContactMessage | null> {
  const rows = await db.insert(contactMessages).values({
    firstName: m.firstName, lastName: m.lastName, email: m.email, phone: m.phone || null, message: m.message,
    idempotencyKey: m.idempotencyKey ?? null,
  }).onConflictDoNothing({ target: contactMessages.idempotencyKey }).returning();
  return rows[0] ? toPublic(rows[0]) : null;
}

/** The message stored under idempotency key `key` (a repeated submit), or null. */
export async function contactMessageByKey(db: DbOrTx, key: string): Promise<StoredContactMessage | null> {
  const rows = await db.select().from(contactMessages).where(eq(contactMessages.idempotencyKey, key)).limit(1);
  return rows[0] ? toPublic(rows[0]) : null;
}

/** Messages newest first (created_at, then id), rows `offset` to `offset + limit`, and how many there are in all. */
export async function listContactMessages(db: DbOrTx, page: { limit: number; offset: number }): Promise<{ messages: StoredContactMessage[]; total: number }> {
  const [rows, [{ n }]] = await Promise.all([
    db.select().from(contactMessages).orderBy(desc(contactMessages.createdAt), desc(contactMessages.id)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(contactMessages),
  ]);
  return { messages: rows.map(toPublic), total: Number(n) };
}
