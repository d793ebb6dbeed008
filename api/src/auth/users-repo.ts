/** User rows: lookups by e-mail (case-insensitive, stored lower-case) and id, and the public projection. */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema/users.ts';
import type { PublicUser } from '#contracts/auth.ts';

export type UserRow = typeof users.$inferSelect;

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  return rows[0];
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0];
}

/** Strips the hash and private identifiers; the shape of spec §4 "user". */
export function toPublicUser(u: UserRow): PublicUser {
  return {
    id: u.id, email: u.email, firstName: u.firstName, lastName: u.lastName, phone: u.phone, role: u.role,
    dateOfBirth: u.dateOfBirth, nationality: u.nationality, addressLine1: u.addressLine1, addressLine2: u.addressLine2,
    city: u.city, state: u.state, postalCode: u.postalCode, country: u.country,
    createdAt: u.createdAt instanceof Date ? u.createdAt.toISOString() : String(u.createdAt),
  };
}
