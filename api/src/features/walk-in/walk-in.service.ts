/**
 * Staff-assisted applications for walk-ins (issue #18 point 6; UJ 2012: nobody should queue for hours because
 * they have no phone or data). An admin at a campus desk:
 * 1. `createWalkInApplicant` — creates the person's student account (a random password nobody knows) and, in the
 *    same transaction, sends a set-password link (a password-reset token, valid 7 days) by e-mail and by SMS
 *    (the SMS outbox of issue #17; `sms` in the answer says whether it was queued or why not). The SMS has its own
 *    shorter token (128 bits, stored as SHA-256 like every reset token) behind the short path /r, so the message
 *    stays one segment with a PUBLIC_URL of up to 66 characters; either link works once and spends the other.
 * 2. uploads the scanned documents, owned by the applicant's account (uploads.service storeUpload);
 * 3. `submitWalkInApplication` — submits the application form on their behalf; the application belongs to the
 *    applicant and records the admin and the campus ("entered by <admin> at <campus>").
 * Only admins reach these (routes under /api/admin); the applicant must be a student account (404 otherwise).
 */
import crypto from 'node:crypto';
import type { z } from 'zod/mini';
import type { Db } from '../../db/client.ts';
import type { DocumentStore } from '../../storage/document-store.ts';
import type { Config } from '../../config.ts';
import { campusExists, listCampuses } from './walk-in.repo.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { findUserById, type UserRow } from '../../auth/users-repo.ts';
import type { PublicUser } from '#contracts/auth.ts';
import { SET_PASSWORD_TTL_MS, type WalkInApplicantSchema, type WalkInApplicationSchema } from '#contracts/walk-in.ts';
import { registerStudent } from '../auth/auth.service.ts';
import { queueSetPasswordLink, siteOrigin } from '../auth/password-reset.service.ts';
import { insertReset } from '../auth/password-resets.repo.ts';
import { sha256 } from '../../auth/tokens.ts';
import { queueSms } from '../../sms/sms-outbox.ts';
import { setPasswordSms, setPasswordSmsLink } from '../../sms/sms-text.ts';
import { submitApplication } from '../applications/applications.service.ts';

type ApplicantInput = z.output<typeof WalkInApplicantSchema>;
type ApplicationInput = z.output<typeof WalkInApplicationSchema>;

const NO_CAMPUS = 'Please select a campus';

/** The campuses a desk can be at: [{id, name}] in seed order. */
export async function walkInCampuses(db: Db): Promise<{ id: number; name: string }[]> {
  return listCampuses(db);
}

/** Throws 400 {campusId: 'Please select a campus'} unless campus `id` exists. */
async function assertCampus(db: Db, id: number): Promise<void> {
  if (!await campusExists(db, id)) throw badRequest(NO_CAMPUS, { campusId: NO_CAMPUS });
}

/**
 * Creates the applicant's account and queues the set-password e-mail in one transaction.
 * Throws 400 (unknown campus), 409 'Could not create account' (e-mail taken: the person should log in or reset).
 */
export async function createWalkInApplicant(db: Db, config: Config, input: ApplicantInput): Promise<{ applicant: PublicUser; setPasswordLinkDays: number; sms: WalkInSms }> {
  await assertCampus(db, input.campusId);
  const days = SET_PASSWORD_TTL_MS / (24 * 3600_000);
  const { applicant, sms } = await db.transaction(async (t) => {
    const user = await registerStudent(t, {
      firstName: input.firstName, lastName: input.lastName, email: input.email, phone: input.phone,
      password: crypto.randomBytes(32).toString('base64url'),
    });
    await queueSetPasswordLink(t, config, user, SET_PASSWORD_TTL_MS);
    // 16 random bytes (128 bits, 22 base64url characters) instead of the e-mail's 32: the e-mailed link with a
    // 33-character PUBLIC_URL already made a 161-character SMS. Stored only when the SMS is queued.
    const smsToken = crypto.randomBytes(16).toString('base64url');
    const queued = await queueSms(t, { userId: user.id, kind: 'set_password', body: setPasswordSms(setPasswordSmsLink(siteOrigin(config), smsToken), days) });
    // channel 'sms': using this link proves the phone, not the e-mail address (security audit F3).
    if (queued.queued) await insertReset(t, { userId: user.id, tokenHash: sha256(smsToken), expiresAt: new Date(Date.now() + SET_PASSWORD_TTL_MS), channel: 'sms' });
    return { applicant: user, sms: queued.queued ? 'queued' as const : queued.reason };
  });
  return { applicant, setPasswordLinkDays: days, sms };
}

/**
 * Whether the set-password SMS was queued, or why not: no valid mobile number, SMS turned off for it (profile or STOP
 * reply), or the link too long for one SMS (a PUBLIC_URL over 66 characters).
 */
export type WalkInSms = 'queued' | 'no_phone' | 'opted_out' | 'too_long';

/** The applicant an admin acts for: their user row when `id` is a student account; throws 404 'Applicant not found' otherwise. */
export async function walkInApplicant(db: Db, id: number): Promise<UserRow> {
  const user = await findUserById(db, id);
  if (!user || user.role !== 'student') throw notFound('Applicant not found');
  return user;
}

/**
 * Submits the application for the applicant (theirs, with their uploads only), recording the admin and campus.
 * Throws 404 (applicant or course), 400 (campus, foreign uploads), 409 (they already have an active application).
 */
export async function submitWalkInApplication(db: Db, adminId: number, input: ApplicationInput, fee: string, opts: { store: DocumentStore; origin: string }): ReturnType<typeof submitApplication> {
  const applicant = await walkInApplicant(db, input.applicantId);
  await assertCampus(db, input.campusId);
  const { applicantId: _a, campusId, ...application } = input;
  return submitApplication(db, applicant.id, application, fee, { ...opts, entry: { adminId, campusId } });
}
