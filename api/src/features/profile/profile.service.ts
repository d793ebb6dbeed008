/**
 * The person's own account (issue #4 /profile; POPIA): view and edit details, change the password (needs the
 * current one), end every session, export everything held on them, and delete the account — erased outright
 * when they have no applications, otherwise an erasure request is recorded for an admin.
 */
import { sql } from 'drizzle-orm';
import type { Db, Database } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';
import type { Config } from '../../config.ts';
import { findUserById, toPublicUser } from '../../auth/users-repo.ts';
import { hashPassword, verifyPassword } from '../../auth/password.ts';
import { endAllSessions } from '../../auth/session.ts';
import { spendResetLinks } from '../auth/password-reset.service.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { erasureRequestedMail, greeting, withFooter } from '../../mail/messages.ts';
import { siteOrigin } from '../../mail/links.ts';
import { badRequest, notFound, HttpError } from '../../http/errors.ts';
import type { DocumentStore } from '../../storage/document-store.ts';
import { tusDatastore } from '../../storage/tus-datastore.ts';
import { birthDateFromIdNumber, typesDateOfBirth, PROFILE_EDIT_CONFLICT, type Profile, type ProfileUpdate } from '#contracts/auth.ts';
import { readNscResults, writeNscResults } from './profile.repo.ts';
import { normalisedIdNumber } from '#contracts/auth-rules.ts';
import { collectPersonalData, countApplications, deleteUserRow, insertErasureRequest, openErasureRequest, storedUploadNames, textedNumbers, updateUserRow, type PersonalData, type UserRow } from './profile.repo.ts';
import { removeOutboxFilesOf } from '../../mail/outbox-files.ts';

const iso = (d: Date | string | null | undefined) => (d == null ? null : d instanceof Date ? d.toISOString() : String(d));

/** The public user plus private details only the person sees. Never the hash. */
export function toProfile(u: UserRow): Profile {
  return {
    ...toPublicUser(u),
    idNumber: u.idNumber, emergencyContactName: u.emergencyContactName, emergencyContactPhone: u.emergencyContactPhone,
    emergencyContactRelation: u.emergencyContactRelation, privacyConsentAt: iso(u.privacyConsentAt), privacyNoticeVersion: u.privacyNoticeVersion,
    announcementEmails: u.announcementMailOptOutAt == null, announcementMailOptOutAt: iso(u.announcementMailOptOutAt),
    updatedAt: iso(u.updatedAt)!,
  };
}

async function loadUser(db: Db, id: number): Promise<UserRow> {
  const u = await findUserById(db, id);
  if (!u) throw notFound();
  return u;
}

/**
 * The caller's profile (issue #4; Profile contract, dates ISO 8601). Throws 404 when the account no longer exists.
 */
export async function getProfile(db: Db, userId: number): Promise<Profile> {
  return toProfile(await loadUser(db, userId));
}

/**
 * The date of birth to store, by the registration rule (typesDateOfBirth): a nationality that types it keeps the
 * validated typed date, or the stored one when none was sent (undefined); za or no nationality take the SA ID's, and
 * keep the stored one (undefined) when the ID number gives none: no ID number (a submitted application fills an
 * empty date of birth from its step 1, and the next profile save stored null over it; review, 2026-11-27), or, with
 * no nationality, a passport or foreign ID number (ProfileUpdateSchema refuses one for za).
 */
function dateOfBirthToStore(input: Pick<ProfileUpdate, 'nationality' | 'idNumber' | 'dateOfBirth'>): string | null | undefined {
  if (typesDateOfBirth(input.nationality)) return input.dateOfBirth === undefined ? undefined : (input.dateOfBirth || null);
  return (input.idNumber && birthDateFromIdNumber(input.idNumber)) || undefined;
}

/** What updateProfile answers: the saved profile, or, for a save made from an older version, the profile as it is now. */
export type ProfileSaveResult = { user: Profile } | { conflict: { message: string; current: Profile } };

/**
 * Saves the editable fields. `announcementEmails` false turns announcement mail off (keeping the first opt-out time),
 * true turns it back on, omitted leaves it (POPIA s69). The date of birth follows the ID number (spec §5) for za or no nationality; for any
 * other nationality it is the typed one (ProfileUpdateSchema checked it), left as stored when not sent.
 * With `expectedUpdatedAt` (the profile's `updatedAt` the form was loaded with), a profile changed since — saved in
 * another tab, or filled by an application submitted meanwhile (fillEmptyPersonalDetails) — is left as it is and
 * the answer is `{conflict: {message: PROFILE_EDIT_CONFLICT, current}}` (lost update, issue #16; the course edit's
 * pattern). Throws 404 when the account no longer exists.
 */
export async function updateProfile(db: Db, userId: number, input: Required<Omit<ProfileUpdate, 'dateOfBirth' | 'announcementEmails'>> & Pick<ProfileUpdate, 'dateOfBirth' | 'announcementEmails'> & { expectedUpdatedAt?: string }): Promise<ProfileSaveResult> {
  const blank = (v: string) => (v === '' ? null : v);
  const dateOfBirth = dateOfBirthToStore(input);
  const row = await updateUserRow(db, userId, {
    firstName: input.firstName, lastName: input.lastName, phone: input.phone,
    nationality: blank(input.nationality), idNumber: blank(input.idNumber && normalisedIdNumber(input.idNumber)),
    ...(dateOfBirth === undefined ? {} : { dateOfBirth }),
    addressLine1: blank(input.addressLine1), addressLine2: blank(input.addressLine2), city: blank(input.city), state: blank(input.state),
    postalCode: blank(input.postalCode), country: blank(input.country),
    emergencyContactName: blank(input.emergencyContactName), emergencyContactPhone: blank(input.emergencyContactPhone),
    emergencyContactRelation: blank(input.emergencyContactRelation),
    ...(input.announcementEmails === undefined ? {} : { announcementMailOptOutAt: input.announcementEmails ? null : sql`coalesce(${users.announcementMailOptOutAt}, now())` }),
  }, input.expectedUpdatedAt);
  if (row) return { user: toProfile(row) };
  return { conflict: { message: PROFILE_EDIT_CONFLICT, current: toProfile(await loadUser(db, userId)) } };
}

const wrongPassword = (field: string, message: string) => badRequest(message, { [field]: message });

/**
 * Changes the password after checking the current one (400 {currentPassword}). Every other session and token of
 * the person ends, and so does every live reset or set-password link (security audit F5); the caller starts a fresh
 * session for this browser. An e-mail tells the person it happened (its
 * footer links `origin`).
 */
export async function changePassword(db: Db, userId: number, current: string, next: string, origin: string): Promise<void> {
  const u = await loadUser(db, userId);
  if (!(await verifyPassword(u.passwordHash, current))) throw wrongPassword('currentPassword', 'Current password is incorrect');
  const passwordHash = await hashPassword(next);
  await db.transaction(async (t) => {
    await updateUserRow(t, userId, { passwordHash });
    await spendResetLinks(t, userId);
    await endAllSessions(t, userId);
    await enqueueMail(t, { to: u.email, subject: 'Your password was changed', text: withFooter(`${greeting(u.firstName)}\n\nThe password of your account was just changed and you were signed out on your other devices. If this was not you, reset your password now from the login page and contact the admissions office.\n`, origin) });
  });
}


/** One recipient (or category of recipient) of the person's data and what it receives. */
export interface DataRecipient { recipient: string; receives: string }

/**
 * Who receives personal data from the portal (POPIA s23(1)(b): the identity of all third parties, or categories of
 * third parties, who have had access). Kept in step with "Who receives it" in content/legal/privacy.md.
 */
export const DATA_RECIPIENTS: readonly DataRecipient[] = [
  { recipient: 'College staff (admissions, assessments, finance, student support)', receives: 'what their task needs, on a need-to-know basis' },
  { recipient: 'Our e-mail provider (the mail server that delivers the college\'s e-mail)', receives: 'your e-mail address and each e-mail we send you' },
  { recipient: 'Our SMS provider (BulkSMS)', receives: 'your mobile number and each SMS we send you' },
  { recipient: 'The college\'s student-administration system', receives: 'once you enrol: your name, e-mail address, phone number, address, campus, course, enrolment date and fee payments' },
  { recipient: 'The service provider that hosts the portal and stores its data and documents', receives: 'everything listed in this export, to keep it for us' },
  { recipient: 'The Department of Higher Education and Training and quality councils', receives: 'what the law requires us to report' },
];

/**
 * The export document: when (ISO 8601), the profile, the privacy-notice consent, the e-mail state (`mail`:
 * announcement e-mails on or off and since when, and when our mail to the address was refused for good, if it was),
 * who receives the data (`recipients`, DATA_RECIPIENTS) and every row of PersonalData.
 */
export type PersonalDataExport = PersonalData & {
  exportedAt: string; user: Profile; consents: { kind: 'privacy-notice'; version: string | null; acceptedAt: string | null }[];
  mail: { announcementEmails: boolean; announcementMailOptOutAt: string | null; emailBouncedAt: string | null };
  recipients: readonly DataRecipient[];
};

/** Everything held on the person, as one JSON document (POPIA §23 access request). Throws 404 for a deleted account. */
export async function exportPersonalData(db: Db, userId: number): Promise<PersonalDataExport> {
  const u = await loadUser(db, userId);
  const data = await collectPersonalData(db, u);
  return {
    exportedAt: new Date().toISOString(),
    user: toProfile(u),
    consents: [{ kind: 'privacy-notice', version: u.privacyNoticeVersion, acceptedAt: iso(u.privacyConsentAt) }],
    mail: { announcementEmails: u.announcementMailOptOutAt == null, announcementMailOptOutAt: iso(u.announcementMailOptOutAt), emailBouncedAt: iso(u.emailBouncedAt) },
    recipients: DATA_RECIPIENTS,
    ...data,
  };
}

export type DeleteOutcome = { outcome: 'deleted' } | { outcome: 'requested'; requestId: number; requestedAt: string };

/**
 * Removes every unfinished (tus) upload whose metadata ownerId is `userId`: its bytes and its info file, on the local
 * FileStore (`<DATA_DIR>/uploads/tus/<id>` + `<id>.json`) or S3 (`<id>`, `<id>.info`, `<id>.part` at the bucket root).
 * Lists the store's tus info files and reads each one's owner (one small read per partial upload; erasures are rare).
 * Returns how many were removed. Throws on a store failure; whatever is left expires with the 24 h tus purge.
 */
export async function removeTusUploadsOf(config: Config, store: DocumentStore, userId: number): Promise<number> {
  const datastore = await tusDatastore(config);
  const ids = store.kind === 's3'
    ? (await store.list()).filter((k) => k.endsWith('.info') && !k.includes('/')).map((k) => k.slice(0, -'.info'.length))
    : (await store.list('tus/')).filter((k) => k.endsWith('.json')).map((k) => k.slice('tus/'.length, -'.json'.length));
  let removed = 0;
  for (const id of ids) {
    let owner: number;
    try { owner = Number((await datastore.getUpload(id)).metadata?.ownerId); } catch { continue; } // finished or purged meanwhile
    if (owner !== userId) continue;
    await datastore.remove(id);
    removed++;
  }
  return removed;
}

/**
 * After a committed erasure: removeTusUploadsOf, logged instead of thrown (the rows are already gone, and the 24 h
 * tus purge removes what a store failure leaves). The person can no longer sign in, so no new partial upload starts.
 */
export async function removeTusUploadsAfterErasure(config: Config, store: DocumentStore, userId: number): Promise<void> {
  try {
    const n = await removeTusUploadsOf(config, store, userId);
    if (n) console.info(`[privacy] removed ${n} unfinished upload(s) of user ${userId}`);
  } catch (err: any) {
    console.warn(`[privacy] unfinished uploads of user ${userId} not removed now (the 24 h tus purge will): ${err?.message ?? err}`);
  }
}

/**
 * "Delete my account" (POPIA §24). Needs the password (400 {password}). No applications → the account and its
 * data are erased now (sessions, tokens, and the uploaded documents in the document store — local disk or S3 — first,
 * so a store failure throws before any row is gone and the person can simply try again; the mail and SMS sent to the
 * person with the rows; unfinished tus uploads after the commit, see removeTusUploadsAfterErasure, and the file
 * drivers' copies of that mail and SMS, removeOutboxFilesOf; privacy audit F8). Otherwise an erasure request is recorded
 * (once), the office is e-mailed, because application records must be reviewed by an admin first, and so is the
 * person (erasureRequestedMail: received, what happens next).
 * Admin accounts cannot delete themselves here (403).
 */
export async function deleteAccount(database: Database, config: Config, store: DocumentStore, userId: number, password: string): Promise<DeleteOutcome> {
  const db = database.db;
  const u = await loadUser(db, userId);
  if (!(await verifyPassword(u.passwordHash, password))) throw wrongPassword('password', 'Password is incorrect');
  if (u.role === 'admin') throw new HttpError(403, 'forbidden', 'Admin accounts cannot be deleted from the profile page');
  if ((await countApplications(db, userId)) === 0) {
    const files = await storedUploadNames(db, userId);
    await Promise.all(files.map((key) => store.delete(key)));
    const phones = await db.transaction(async (t) => {
      const texted = await textedNumbers(t, u);
      await endAllSessions(t, userId);
      await deleteUserRow(t, u);
      return texted;
    });
    await removeTusUploadsAfterErasure(config, store, userId);
    await removeOutboxFilesOf(config.dataDir, { emails: [u.email], phones }).catch((err) => {
      console.warn(`[privacy] account ${userId} deleted: could not remove the person's outbox files: ${err?.code ?? err?.message ?? err}`);
    });
    return { outcome: 'deleted' };
  }
  const existing = await openErasureRequest(db, userId);
  if (existing) return { outcome: 'requested', requestId: existing.id, requestedAt: iso(existing.createdAt)! };
  const created = await db.transaction(async (t) => {
    const row = await insertErasureRequest(t, userId);
    await enqueueMail(t, { to: config.OFFICE_EMAIL, subject: `Account deletion request (user ${userId})`, text: `User ${userId} asked for their account and personal data to be deleted. They have applications on record, so an admin must review the request (erasure request ${row.id}).\n` });
    await enqueueMail(t, erasureRequestedMail(u, row.id, siteOrigin(config)));
    return row;
  });
  return { outcome: 'requested', requestId: created.id, requestedAt: iso(created.createdAt)! };
}

/** The person's own NSC results (issue #18 point 1): [{subject, percent, name?}], kept with the registration details. */
export function getNscResults(db: Db, userId: number): Promise<unknown[]> {
  return readNscResults(db, userId);
}

/** Replaces the person's NSC results (already validated by NscResultsSchema) and returns them as stored. */
export async function saveNscResults(db: Db, userId: number, nscResults: unknown[]): Promise<unknown[]> {
  await writeNscResults(db, userId, nscResults);
  return readNscResults(db, userId);
}
