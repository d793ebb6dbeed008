/** User rows: lookups by e-mail (case-insensitive, stored lower-case) and id, and the public projection. */
import { and, count, eq, isNotNull, isNull, notLike, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { users } from '../db/schema/users.ts';
import type { PublicUser } from '#contracts/auth.ts';
import { normalizeEmail } from '#contracts/mailbox.ts';
import { saIdNumberProblem } from '#contracts/auth-rules.ts';
import { LEGACY_ERASED_SQL } from '../features/erasure/erasure.repo.ts';

/**
 * Locks user `userId`'s row until transaction `tx` ends, so that per-account check-then-insert steps take turns
 * (the 3-live-link caps of reset and verification links, an admin's repeated announcement; concurrency audit). A
 * missing user locks nothing. FOR NO KEY UPDATE: two such locks exclude each other like FOR UPDATE, but rows that
 * merely reference the user (a foreign-key check takes KEY SHARE) are not held up.
 */
export async function lockUserRow(tx: DbOrTx, userId: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
}

/** A full `users` row as drizzle selects it (includes the password hash: never send it to a client). */
export type UserRow = typeof users.$inferSelect;

/** The user with this e-mail (trimmed, compared lower-case: one account per address, spec §8), or undefined. */
export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(eq(users.email, normalizeEmail(email))).limit(1);
  return rows[0];
}

/** The user with primary key `id`, or undefined. */
export async function findUserById(db: DbOrTx, id: number): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0];
}

/**
 * The personal details of user `id` that an application's step 1 takes from the profile (the columns of
 * #contracts/applications.ts PERSONAL_FIELDS, as stored; no password hash or other column), or undefined.
 */
export async function findPersonalDetails(db: DbOrTx, id: number): Promise<PersonalDetails | undefined> {
  const rows = await db.select({
    firstName: users.firstName, lastName: users.lastName, email: users.email, phone: users.phone, dateOfBirth: users.dateOfBirth,
    nationality: users.nationality, addressLine1: users.addressLine1, addressLine2: users.addressLine2, city: users.city,
    state: users.state, postalCode: users.postalCode, country: users.country,
  }).from(users).where(eq(users.id, id)).limit(1);
  return rows[0];
}

/** What findPersonalDetails reads: the stored step-1 fields of a user (PublicUser has every one of them too). */
export type PersonalDetails = Pick<UserRow, 'firstName' | 'lastName' | 'email' | 'phone' | 'dateOfBirth' | 'nationality' | 'addressLine1' | 'addressLine2' | 'city' | 'state' | 'postalCode' | 'country'>;

/** The personal-detail columns an application may fill on its applicant's profile (fillEmptyPersonalDetails). */
export type FillableDetail = Exclude<keyof PersonalDetails, 'firstName' | 'lastName' | 'email'>;

/** True in SQL when `column` holds nothing: null, '' or only white space. */
const emptySql = (column: (typeof users)[FillableDetail]) => sql`coalesce(btrim(${column}), '') = ''`;

/**
 * Sets each column of `values` (non-empty text) on user `id` only where the stored value is empty (null, '' or white
 * space), in one UPDATE, so a value the person has — even one saved by another request since the caller read the
 * row — is never overwritten (application submit: spec §5 step 1 "Defaults from the logged-in user"). updatedAt
 * changes only when at least one column was empty. Empty `values` runs no statement. Takes the row's FOR NO KEY
 * UPDATE lock until `db`'s transaction ends.
 * Nationality 'za' is not filled while the stored ID number is a passport or foreign number (not a valid SA ID
 * number): the profile would then hold a South African with a foreign ID number, which the profile form refuses
 * (ProfileUpdateSchema: a South African's ID number must be a valid SA ID), so the person's next save failed. The ID
 * number is read under the row lock first, so it cannot change before the UPDATE.
 */
export async function fillEmptyPersonalDetails(db: DbOrTx, id: number, values: Partial<Record<FillableDetail, string>>): Promise<void> {
  const set: Record<string, SQL> = {};
  const empties: SQL[] = [];
  if (values.nationality === 'za') {
    const [row] = await db.select({ idNumber: users.idNumber }).from(users).where(eq(users.id, id)).for('no key update');
    const stored = row?.idNumber?.trim();
    if (stored && saIdNumberProblem(stored) !== null) values = { ...values, nationality: undefined };
  }
  for (const [key, value] of Object.entries(values) as [FillableDetail, string | undefined][]) {
    if (!value || !value.trim()) continue;
    const column = users[key];
    set[key] = sql`case when ${emptySql(column)} then ${value} else ${column} end`;
    empties.push(emptySql(column));
  }
  if (!empties.length) return;
  await db.update(users).set({ ...set, updatedAt: new Date() }).where(and(eq(users.id, id), or(...empties)));
}

/**
 * Sets the user's argon2id hash (and updatedAt). `emailProven`: the change came through a link sent to the
 * account's mailbox, so the address counts as verified from now on if it was not already (issue #12), and an earlier
 * hard bounce (email_bounced_at) is cleared: the mailbox took that mail.
 */
export async function setPasswordHash(db: DbOrTx, userId: number, passwordHash: string, opts: { emailProven?: boolean } = {}): Promise<void> {
  await db.update(users).set({ passwordHash, updatedAt: new Date(), ...(opts.emailProven ? { emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`, emailBouncedAt: null } : {}) }).where(eq(users.id, userId));
}

/** Inserts a user row and returns it (the caller decides role and consent). Throws on a duplicate e-mail (23505). */
export async function insertUser(db: DbOrTx, values: typeof users.$inferInsert): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  return row!;
}

/** Whether the portal has an admin account that can sign in (role admin, not erased). Start-up log hint, README. */
export async function hasAdmin(db: DbOrTx): Promise<boolean> {
  const [{ n }] = await db.select({ n: count() }).from(users).where(and(eq(users.role, 'admin'), isNull(users.erasedAt)));
  return n > 0;
}

/**
 * Makes user `id` an admin with this argon2id password hash and marks the address verified if it was not
 * (the operator vouches for it, DESIGN §4); a role change, so it raises users.session_epoch: every earlier login of the
 * account is refused from now on (auth/session.ts loginStillValid). Returns the updated row.
 */
export async function promoteToAdmin(db: DbOrTx, id: number, passwordHash: string): Promise<UserRow> {
  const [row] = await db.update(users).set({ role: 'admin', passwordHash, sessionEpoch: sql`${users.sessionEpoch} + 1`, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`, updatedAt: new Date() }).where(eq(users.id, id)).returning();
  return row!;
}

/**
 * Id, e-mail and first name of every student we may e-mail in bulk (announcement mail): the address is verified (its
 * owner opened the mailed link; an unverified one may be a stranger's, given at registration) and the account is not
 * erased (users.erased_at; erasure also clears the verification), the address is not .invalid (RFC 6761: no mail
 * reaches it; an erased account's, or one registered before the address rule refused .invalid), the student
 * has not turned announcement mail off (profile checkbox or the unsubscribe link; POPIA s69) and the address has not
 * bounced permanently (email_bounced_at, set by the mail outbox on an SMTP 5xx for the recipient). Mail audit:
 * an erased account got "Dear Erased," and counted in "emailed".
 */
export function mailableStudents(db: DbOrTx): Promise<{ id: number; email: string; firstName: string }[]> {
  return db.select({ id: users.id, email: users.email, firstName: users.firstName }).from(users).where(mailable());
}

/** The rule of mailableStudents as one condition on `users`. */
const mailable = () => and(eq(users.role, 'student'), isNotNull(users.emailVerifiedAt), isNull(users.erasedAt), notLike(users.email, '%.invalid'),
  isNull(users.announcementMailOptOutAt), isNull(users.emailBouncedAt));

/** How many students mailableStudents would list, counted in the database (the announcement e-mail's question). */
export async function countMailableStudents(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(mailable());
  return Number(row?.n ?? 0);
}

/**
 * Id, e-mail and first name of every student who can still read a portal notification (announcement notifications):
 * not an erased account, i.e. users.erased_at unset and not LEGACY_ERASED_SQL (an erasure by a release before
 * migration 0029, which did not set erased_at; the same test as the restore's erasure ledger). An erased account can
 * never sign in again, and a notification row for it is data the college keeps about nobody for nothing (POPIA §14).
 */
export function studentContacts(db: DbOrTx): Promise<{ id: number; email: string; firstName: string }[]> {
  return db.select({ id: users.id, email: users.email, firstName: users.firstName }).from(users)
    .where(and(eq(users.role, 'student'), isNull(users.erasedAt), sql`not ${sql.raw(LEGACY_ERASED_SQL)}`));
}

/** Strips the hash and private identifiers; the shape of spec §4 "user". */
export function toPublicUser(u: UserRow): PublicUser {
  return {
    id: u.id, email: u.email, firstName: u.firstName, lastName: u.lastName, phone: u.phone, role: u.role,
    dateOfBirth: u.dateOfBirth, nationality: u.nationality, addressLine1: u.addressLine1, addressLine2: u.addressLine2,
    city: u.city, state: u.state, postalCode: u.postalCode, country: u.country, emailVerified: u.emailVerifiedAt != null,
    createdAt: u.createdAt instanceof Date ? u.createdAt.toISOString() : String(u.createdAt),
  };
}
