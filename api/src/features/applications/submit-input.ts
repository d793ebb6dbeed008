/**
 * Turning a POST /api/applications body into a complete application (spec §7 as written, DESIGN §6,
 * issue #14 point 2):
 * - completePersonal: personal details absent from the body come from the applicant's profile; the merged set
 *   is checked with the step-1 schema. 400 names the fields the profile lacks.
 * - storeDataUrlDocuments: document slots holding base64 data URLs are decoded, held to the upload rules
 *   (5 MB, PDF/DOC/DOCX/JPG/PNG by magic bytes) and stored as the applicant's uploads; slots then hold upload ids.
 */
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { DocumentStore } from '../../storage/document-store.ts';
import { badRequest, HttpError, notFound } from '../../http/errors.ts';
import { fieldErrors } from '../../http/validate.ts';
import { DATA_URL_PATTERN, PERSONAL_FIELDS, PersonalStepSchema, type ApplicationSubmitSchema } from '#contracts/applications.ts';
import { MAX_UPLOAD_BYTES } from '#contracts/common.ts';
import { findPersonalDetails, type FillableDetail, type PersonalDetails } from '../../auth/users-repo.ts';
import { ProfileUpdateSchema } from '#contracts/auth.ts';
import { removeUpload, storeUpload, tooLarge } from '../uploads/uploads.service.ts';

type Submit = z.output<typeof ApplicationSubmitSchema>;
export type Personal = z.output<typeof PersonalStepSchema>;

const LABELS: Record<string, string> = {
  firstName: 'first name', lastName: 'last name', email: 'e-mail address', phone: 'phone number', dateOfBirth: 'date of birth',
  nationality: 'nationality', addressLine1: 'address', addressLine2: 'address line 2', city: 'city', state: 'state/province',
  postalCode: 'postal code', country: 'country',
};

/**
 * The step-1 details of the application (`personal`): each field from the body when present, else from the profile;
 * and `fill` (profileGaps): the body's values for the profile's empty fields, which the submit stores on the profile.
 * `known`: the applicant's stored details already read in this request (the signed-in caller's own PublicUser, from
 * the session), so they are not read again; else they are read (findPersonalDetails: those columns only).
 * Throws 404 when the account no longer exists, 400 with field messages; when some failing fields came from the profile, the message names them
 * ('Your profile is missing your phone number, address. Add them on your profile or send them with the application.'),
 * and a stored value that fails today's rule is named as such ("Your profile's phone number cannot be used: {field
 * message}. Correct it on your profile or send it with the application.").
 */
export async function completePersonal(db: Db, userId: number, input: Submit, known?: PersonalDetails): Promise<{ personal: Personal; fill: ProfileFill }> {
  const profile = known ?? await findPersonalDetails(db, userId);
  if (!profile) throw notFound();
  const personal = mergePersonal(profile, input);
  return { personal, fill: profileGaps(profile, personal) };
}

/** The step-1 fields an application fills on the profile when empty there: PERSONAL_FIELDS but the account's own name and e-mail. */
export const PROFILE_FILL_FIELDS = PERSONAL_FIELDS.filter((k): k is FillableDetail => k !== 'firstName' && k !== 'lastName' && k !== 'email');
/** Values for fillEmptyPersonalDetails: field → the application's value. */
export type ProfileFill = Partial<Record<FillableDetail, string>>;

/**
 * The application's step-1 values for the profile fields that are empty (null, '' or white space) in `profile`:
 * PROFILE_FILL_FIELDS, each only when the application has a value and the profile form would take it
 * (ProfileUpdateSchema's own field rule, e.g. at most 20 characters for the phone, 200 for an address line), as that
 * rule stores it.
 */
export function profileGaps(profile: PersonalDetails, personal: Personal): ProfileFill {
  const fill: ProfileFill = {};
  for (const key of PROFILE_FILL_FIELDS) {
    if ((profile[key] ?? '').trim() !== '') continue;
    const given = personal[key];
    if (!given || !given.trim()) continue;
    const checked = ProfileUpdateSchema.shape[key].safeParse(given);
    if (checked.success && typeof checked.data === 'string' && checked.data) fill[key] = checked.data;
  }
  return fill;
}

/** completePersonal's merge and check (see there); throws its 400. */
function mergePersonal(profile: PersonalDetails, input: Submit): Personal {
  const merged: Record<string, unknown> = { courseId: input.courseId };
  const fromProfile = new Set<string>();
  for (const key of PERSONAL_FIELDS) {
    const given = (input as Record<string, unknown>)[key];
    if (given !== undefined) { merged[key] = given; continue; }
    const stored = (profile as Record<string, unknown>)[key];
    merged[key] = stored ?? (key === 'addressLine2' ? '' : undefined);
    fromProfile.add(key);
  }
  const parsed = PersonalStepSchema.safeParse(merged);
  if (parsed.success) return parsed.data;
  const fields = fieldErrors(parsed.error);
  const failing = Object.keys(fields).filter((k) => fromProfile.has(k));
  const blank = (k: string) => merged[k] == null || (typeof merged[k] === 'string' && (merged[k] as string).trim() === '');
  const missing = failing.filter(blank);
  const unusable = failing.filter((k) => !blank(k));
  const names = (keys: string[]) => keys.map((k) => LABELS[k] ?? k).join(', ');
  const them = (keys: string[]) => (keys.length === 1 ? 'it' : 'them');
  const sentences = [
    ...(missing.length ? [`Your profile is missing your ${names(missing)}. Add ${them(missing)} on your profile or send ${them(missing)} with the application.`] : []),
    // A stored value the rules now refuse (a phone saved with a letter before c2f1e0b) is there, not missing.
    ...(unusable.length ? [`Your profile's ${names(unusable)} cannot be used: ${fields[unusable[0]!]}. Correct ${them(unusable)} on your profile or send ${them(unusable)} with the application.`] : []),
  ];
  throw badRequest(sentences.length ? sentences.join(' ') : Object.values(fields)[0]!, fields);
}

/** Decoded size in bytes of base64 text of `length` characters ending in `pad` '=' signs. */
const decodedBytes = (length: number, pad: number) => Math.floor((length * 3) / 4) - pad;

/**
 * Replaces data URLs in `documents` by ids of new uploads owned by `userId`. Returns the new map and the ids it
 * created (so the caller can remove them when the application is not written). Throws 413 (> 5 MB) or 415
 * (not PDF/DOC/DOCX/JPG/PNG by its bytes) with the field `documents.<slot>`; uploads stored before the failure are removed.
 */
export async function storeDataUrlDocuments(db: Db, store: DocumentStore, userId: number, documents: Record<string, string | undefined>): Promise<{ documents: Record<string, string | undefined>; created: string[] }> {
  const out: Record<string, string | undefined> = { ...documents };
  const created: string[] = [];
  try {
    for (const [slot, value] of Object.entries(documents)) {
      if (!value || !DATA_URL_PATTERN.test(value)) continue;
      const comma = value.indexOf(',');
      const b64 = value.slice(comma + 1);
      if (decodedBytes(b64.length, (b64.match(/=*$/)?.[0].length ?? 0)) > MAX_UPLOAD_BYTES) throw withField(tooLarge(), slot);
      const name = /;name=([^;,]*)/i.exec(value.slice(0, comma))?.[1];
      try {
        const upload = await storeUpload(db, store, userId, { buffer: Buffer.from(b64, 'base64'), originalname: name ? safeDecode(name) : slot });
        out[slot] = upload.id;
        created.push(upload.id);
      } catch (err) {
        throw err instanceof HttpError ? withField(err, slot) : err;
      }
    }
  } catch (err) {
    await discardUploads(db, store, userId, created);
    throw err;
  }
  return { documents: out, created };
}

/** Removes uploads made for an application that was not written. Never throws. */
export async function discardUploads(db: Db, store: DocumentStore, userId: number, ids: string[]): Promise<void> {
  for (const id of ids) await removeUpload(db, store, userId, id).catch(() => undefined);
}

const safeDecode = (v: string) => { try { return decodeURIComponent(v); } catch { return v; } };

function withField(err: HttpError, slot: string): HttpError {
  return new HttpError(err.status, err.code, err.message, { [`documents.${slot}`]: err.message });
}
