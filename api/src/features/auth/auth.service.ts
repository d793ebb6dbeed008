/**
 * Accounts (spec §2 Registration/Login, DESIGN §4 Identity): registration always creates a `student`;
 * e-mails are stored lower-case so case variants are one account; a duplicate e-mail is a 409
 * 'Could not create account' (spec §8), the only place that reveals an e-mail exists; its e-mail field message
 * says what to do next (EMAIL_TAKEN_MESSAGE: log in or reset the password).
 */
import type { Db } from '../../db/client.ts';
import { hashPassword, verifyPassword } from '../../auth/password.ts';
import { endAllSessions } from '../../auth/session.ts';
import { findUserByEmail, insertUser, promoteToAdmin, toPublicUser } from '../../auth/users-repo.ts';
import { badRequest, conflict } from '../../http/errors.ts';
import { insertRegistrationDetails } from './auth.repo.ts';
import { applicableCourse } from '../courses/courses.service.ts';
import type { PublicUser } from '#contracts/auth.ts';
import { EMAIL_TAKEN_MESSAGE, normalisedIdNumber } from '#contracts/auth-rules.ts';
import { normalizeEmail } from '#contracts/mailbox.ts';

export const PRIVACY_NOTICE_VERSION = '2026-11-26';

export interface NewAccount {
  email: string; password: string; firstName: string; lastName: string; phone?: string | null;
  dateOfBirth?: string | null; nationality?: string | null; idNumber?: string | null;
  addressLine1?: string | null; addressLine2?: string | null; city?: string | null; state?: string | null;
  postalCode?: string | null; country?: string | null;
  emergencyContactName?: string | null; emergencyContactPhone?: string | null; emergencyContactRelation?: string | null;
}

function isUniqueViolation(err: any): boolean {
  return err?.code === '23505' || err?.cause?.code === '23505';
}

/**
 * Work that must commit together with a new account (e.g. its verification mail, audit L finding F): run in the
 * account's insert transaction `tx`, so a crash or error leaves either both or neither.
 */
export type OnCreated = (tx: Db, user: PublicUser) => Promise<void>;

/**
 * Creates a student account; `onCreated` runs in the same transaction as the insert (the password is hashed before
 * it opens). Throws 409 when the e-mail is taken (also under a concurrent double submit).
 */
export async function registerStudent(db: Db, input: NewAccount, onCreated?: OnCreated): Promise<PublicUser> {
  const email = normalizeEmail(input.email);
  if (await findUserByEmail(db, email)) throw duplicate();
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      const user = await insertStudent(tx, { ...input, email }, passwordHash);
      await onCreated?.(tx, user);
      return user;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicate();
    throw err;
  }
}

const duplicate = () => conflict('Could not create account', { email: EMAIL_TAKEN_MESSAGE });

/** Inserts the user row; role is always student and the privacy consent is stamped (POPIA, issue #4). */
async function insertStudent(db: Db, input: NewAccount, passwordHash: string): Promise<PublicUser> {
  const { password: _password, ...fields } = input;
  const row = await insertUser(db, {
    ...fields, email: normalizeEmail(input.email), passwordHash, role: 'student',
    privacyConsentAt: new Date(), privacyNoticeVersion: PRIVACY_NOTICE_VERSION,
  });
  return toPublicUser(row);
}

/**
 * The comprehensive wizard (spec §2 "Student Registration"): the account plus the chosen course and academic
 * history, in one transaction, with `onCreated` (OnCreated). A valid SA ID number typed with spaces or dashes is stored as its 13 digits
 * (normalisedIdNumber). Throws 400 {courseId: 'Please select a course'} for a missing or inactive
 * course, 409 'Could not create account' for a taken e-mail.
 */
export async function registerComprehensive(db: Db, input: ComprehensiveRegisterInput, onCreated?: OnCreated): Promise<PublicUser> {
  try { await applicableCourse(db, input.courseId); }
  catch { throw badRequest('Please select a course', { courseId: 'Please select a course' }); }
  const email = normalizeEmail(input.email);
  if (await findUserByEmail(db, email)) throw duplicate();
  const passwordHash = await hashPassword(input.password);
  const { courseId, academicHistory, ...account } = input;
  try {
    return await db.transaction(async (tx) => {
      const idNumber = account.idNumber ? normalisedIdNumber(account.idNumber) : account.idNumber;
      const user = await insertStudent(tx, { ...account, email, idNumber }, passwordHash);
      await insertRegistrationDetails(tx, { userId: user.id, courseId, academicHistory });
      await onCreated?.(tx, user);
      return user;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicate();
    throw err;
  }
}

export interface ComprehensiveRegisterInput extends NewAccount { courseId: number; academicHistory: unknown }

/**
 * Creates or promotes the admin account `email` with `password` (DESIGN §4: ADMIN_EMAIL at start-up and
 * `npm run admin:create`). Promoting an existing account — a role change or a new password — ends every
 * session and bearer token it had, in the same transaction (ASVS 5.0 V7.4.3): whoever was signed in to it
 * before must not carry on as admin. An account that is already admin with this password is left alone, so a
 * restart with ADMIN_EMAIL set signs nobody out. The operator vouches for the address: it counts as verified.
 * It finds, then creates: nodes starting at once would both insert (one failing on the unique e-mail), so
 * startServer runs it under `Database.exclusive` (the start-up lock). Without `names` a new admin is named after
 * the e-mail's local part (defaultAdminNames). Resolves to the admin as PublicUser.
 */
export async function ensureAdmin(db: Db, email: string, password: string, names?: { firstName: string; lastName: string }): Promise<PublicUser> {
  const lower = normalizeEmail(email);
  const existing = await findUserByEmail(db, lower);
  if (existing) {
    if (existing.role === 'admin' && existing.emailVerifiedAt && await verifyPassword(existing.passwordHash, password)) return toPublicUser(existing);
    const passwordHash = await hashPassword(password);
    return db.transaction(async (tx) => {
      const row = await promoteToAdmin(tx, existing.id, passwordHash);
      await endAllSessions(tx, existing.id);
      return toPublicUser(row);
    });
  }
  const passwordHash = await hashPassword(password);
  return toPublicUser(await insertUser(db, { email: lower, passwordHash, role: 'admin', emailVerifiedAt: new Date(), ...(names ?? defaultAdminNames(lower)) }));
}

/**
 * The display name of an admin created without one: first name the e-mail's local part ('admin2' for
 * admin2@college.example), last name empty. A fixed 'College Admin' made every such admin look the same in
 * application and document histories (staff audit).
 */
export function defaultAdminNames(email: string): { firstName: string; lastName: string } {
  return { firstName: normalizeEmail(email).split('@')[0] || 'admin', lastName: '' };
}
