/**
 * Auth contracts: login, simple and comprehensive registration (spec §2 Registration/Login, §5).
 * Messages are the spec's wording. Passwords: 6..128 characters, never truncated (ASVS 6.2.1, 6.2.9).
 * Written with `zod/mini` (same engine and messages as `zod`, a fraction of the bytes) because the
 * /login, /register and /profile islands validate with these schemas in the browser (80 KB page budget).
 * The zod-free rules live in auth-rules.ts, login and simple registration in sign-in.ts; both are re-exported here.
 */
import { z } from 'zod/mini';
import { COUNTRY_CODES } from './application-steps.ts';
import { NscResultsSchema } from './nsc-schema.ts';
import { birthDateFromIdNumber, isValidSaIdNumber, saIdNumberProblem, typedBirthDateProblem, PASSWORD_MAX, SA_ID_MESSAGE } from './auth-rules.ts';
import { yearProblem } from './application-steps.ts';
import { crossField, passwordsMatch, yearsInOrder } from './cross-field.ts';
import { accountFields, name, password, phone, signInEmail } from './sign-in.ts';
import { optionalPhone } from './phone.ts';
import { expectedUpdatedAt } from './expected-version.ts';

export { birthDateFromIdNumber, isValidSaIdNumber, saIdNumberProblem, typedBirthDateProblem, PASSWORD_MAX, SA_ID_MESSAGE };
export { LoginSchema, SimpleRegisterSchema, type Login, type SimpleRegister } from './sign-in.ts';

/** Required trimmed text: 1..max characters, `${label} is required` / `${label} is too long`. */
const requiredText = (max: number, label: string) => z.string({ error: `${label} is required` })
  .check(z.trim(), z.minLength(1, `${label} is required`), z.maxLength(max, `${label} is too long`));
const optionalText = (max: number, label: string) => z._default(z.optional(z.string().check(z.trim(), z.normalize('NFC'), z.maxLength(max, `${label} is too long`))), '');
/** A school year 1990..current year (DESIGN §6); `${label} is required` when blank. */
const schoolYear = (label: string) => z.string({ error: `${label} is required` }).check(
  z.trim(), z.minLength(1, `${label} is required`),
  z.superRefine((v, ctx) => { const p = v ? yearProblem(v) : null; if (p) ctx.addIssue({ code: 'custom', message: p, input: v }); }),
);
const optionalSchoolYear = () => z._default(z.optional(z.string().check(
  z.trim(), z.superRefine((v, ctx) => { const p = v ? yearProblem(v) : null; if (p) ctx.addIssue({ code: 'custom', message: p, input: v }); }),
)), '');
/** Luhn + date check of the SA ID (issue #14 point 5) when the nationality is South Africa; runs with the field checks. */
const saIdForSouthAfricans = <T extends { nationality?: string; idNumber?: string }>(opts: { optional?: boolean } = {}) => crossField<T>((v, ctx) => {
  if (v.nationality !== 'za' || typeof v.idNumber !== 'string' || (opts.optional && !v.idNumber)) return;
  const p = saIdNumberProblem(v.idNumber);
  if (p) ctx.addIssue({ code: 'custom', path: ['idNumber'], message: p, input: v.idNumber });
});

/** The read-only date of birth's message when no valid SA ID number has filled it (za, or no nationality yet). */
export const DOB_FROM_ID_MESSAGE = 'Enter a valid ID number so we can fill in your date of birth';

/**
 * True when the applicant types the date of birth: any nationality of the option set (spec §3) but South Africa.
 * For za, or while no nationality is chosen, it is read-only and filled from the SA ID number (spec §2, §5).
 */
export function typesDateOfBirth(nationality: unknown): boolean {
  return typeof nationality === 'string' && nationality !== 'za' && (COUNTRY_CODES as readonly string[]).includes(nationality);
}

/**
 * The date of birth by nationality (runs with the field checks): for a typed one (typesDateOfBirth) the
 * typedBirthDateProblem rule; otherwise, as before, a 'YYYY-MM-DD' filled from the SA ID, else DOB_FROM_ID_MESSAGE.
 * `optional` (the profile): a date that was not sent is not checked, and for za none is, as the server takes it
 * from the SA ID.
 */
const dateOfBirthByNationality = <T extends { nationality?: string; dateOfBirth?: string | null }>(opts: { optional?: boolean } = {}) => crossField<T>((v, ctx) => {
  const typed = typesDateOfBirth(v.nationality);
  if (opts.optional && (!typed || v.dateOfBirth === undefined)) return;
  const dob = typeof v.dateOfBirth === 'string' ? v.dateOfBirth : '';
  const problem = typed ? typedBirthDateProblem(dob) : (/^\d{4}-\d{2}-\d{2}$/.test(dob) ? null : DOB_FROM_ID_MESSAGE);
  if (problem) ctx.addIssue({ code: 'custom', path: ['dateOfBirth'], message: problem, input: v.dateOfBirth });
});

export const InstitutionSchema = z.object({
  name: requiredText(200, 'High school name'),
  city: requiredText(200, 'City'),
  country: requiredText(200, 'Country'),
  from: schoolYear('Start year'),
  to: schoolYear('End year'),
  qualification: requiredText(200, 'Qualification'),
  grade: requiredText(200, 'Grade'),
}, { error: 'High school name is required' }).check(yearsInOrder());

export const RegisterPersonalSchema = z.object({
  ...accountFields(),
  /** Checked by dateOfBirthByNationality: filled from the SA ID for za, typed 'YYYY-MM-DD' for other nationalities. */
  dateOfBirth: z._default(z.optional(z.string({ error: DOB_FROM_ID_MESSAGE }).check(z.trim())), ''),
  nationality: z.enum(COUNTRY_CODES, { error: 'Please select a nationality' }),
  /** An SA ID number for za (saIdForSouthAfricans); a passport or foreign ID number, 6..20 characters, otherwise. */
  idNumber: z.string({ error: 'ID number is required' }).check(z.trim(), z.minLength(6, 'ID number is required'), z.maxLength(20, 'ID number is too long')),
});
/**
 * Wizard step 0 as the island checks it before moving on: the nine fields, matching passwords, SA ID for za, and
 * the date of birth by nationality (filled from the SA ID for za, typed otherwise).
 */
export const RegisterPersonalStepSchema = RegisterPersonalSchema.check(passwordsMatch(), saIdForSouthAfricans(), dateOfBirthByNationality());

export const RegisterAddressSchema = z.object({
  addressLine1: requiredText(200, 'Address'),
  addressLine2: optionalText(200, 'Address'),
  city: requiredText(100, 'City'),
  state: requiredText(100, 'State/Province'),
  postalCode: requiredText(20, 'Postal code'),
  country: z.enum(COUNTRY_CODES, { error: 'Please select a country' }),
});

/** College/university in the wizard: optional, same fields as the high school, any of them may be blank. */
export const OptionalInstitutionSchema = z.object({
  name: optionalText(200, 'Name'), city: optionalText(100, 'City'), country: optionalText(100, 'Country'),
  from: optionalSchoolYear(), to: optionalSchoolYear(), qualification: optionalText(200, 'Qualification'), grade: optionalText(50, 'Grade'),
}).check(yearsInOrder());

export const RegisterAcademicSchema = z.object({
  academicHistory: z.object({ highSchool: InstitutionSchema, college: z.optional(OptionalInstitutionSchema), nscResults: z.optional(NscResultsSchema) }, { error: 'High school name is required' }),
});
export const RegisterEmergencySchema = z.object({
  emergencyContactName: z.string({ error: 'Emergency contact name is required' })
    .check(z.trim(), z.normalize('NFC'), z.minLength(2, 'Emergency contact name is required'), z.maxLength(100, 'Emergency contact name is too long')),
  emergencyContactPhone: phone(),
  emergencyContactRelation: requiredText(60, 'Relationship'),
});
export const RegisterCourseSchema = z.object({
  courseId: z.coerce.number({ error: 'Please select a course' }).check(z.int(), z.positive('Please select a course')),
  termsAndConditions: z.literal(true, { error: 'You must agree to the Terms and Conditions and Privacy Policy' }),
});

/**
 * The comprehensive registration payload (spec §3), checked as a whole by the server and by the wizard before
 * submitting: the step schemas plus the cross-field checks, and for za 'Date of birth must match the ID number'.
 */
export const ComprehensiveRegisterSchema = z.extend(RegisterPersonalSchema, {
  ...RegisterAddressSchema.shape,
  ...RegisterAcademicSchema.shape,
  ...RegisterEmergencySchema.shape,
  ...RegisterCourseSchema.shape,
}).check(passwordsMatch(), saIdForSouthAfricans(), dateOfBirthByNationality(), crossField((v, ctx) => {
  // Only a South African's ID number gives the birth date; a foreign number that happens to pass the SA check
  // does not, so another nationality's typed date of birth is never compared with it.
  const derived = v.nationality === 'za' && typeof v.idNumber === 'string' ? birthDateFromIdNumber(v.idNumber) : '';
  if (derived && typeof v.dateOfBirth === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v.dateOfBirth) && derived !== v.dateOfBirth) {
    ctx.addIssue({ code: 'custom', path: ['dateOfBirth'], message: 'Date of birth must match the ID number', input: v.dateOfBirth });
  }
}));
export type ComprehensiveRegister = z.input<typeof ComprehensiveRegisterSchema>;

/** The user as the API returns it: never a password or hash. */
export const PublicUserSchema = z.object({
  id: z.number(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.nullable(z.string()),
  role: z.enum(['student', 'admin']),
  dateOfBirth: z.nullable(z.string()),
  nationality: z.nullable(z.string()),
  addressLine1: z.nullable(z.string()),
  addressLine2: z.nullable(z.string()),
  city: z.nullable(z.string()),
  state: z.nullable(z.string()),
  postalCode: z.nullable(z.string()),
  country: z.nullable(z.string()),
  /** False until the owner opens the e-mailed verification link (issue #12). */
  emailVerified: z.boolean(),
  createdAt: z.string(),
});
export type PublicUser = z.infer<typeof PublicUserSchema>;

/** The one message for an unknown, used or expired verification link. */
export const INVALID_VERIFICATION_LINK = 'This verification link is invalid or has expired';

/** POST /api/auth/verify-email: the token from the e-mailed link (43 base64url characters). */
export const VerifyEmailSchema = z.object({
  token: z.string({ error: INVALID_VERIFICATION_LINK }).check(z.trim(), z.regex(/^[A-Za-z0-9_-]{20,100}$/, INVALID_VERIFICATION_LINK)),
});
export type VerifyEmail = z.input<typeof VerifyEmailSchema>;

/** POST /reset-password: always answered the same way, whether or not the e-mail is registered. */
export const ForgotPasswordSchema = z.object({ email: signInEmail() });
export type ForgotPassword = z.infer<typeof ForgotPasswordSchema>;

/** POST /reset-password/confirm: the e-mailed token (43 base64url characters) and the new password. */
export const ResetPasswordConfirmSchema = z.object({
  token: z.string({ error: 'This reset link is invalid or has expired' })
    .check(z.trim(), z.regex(/^[A-Za-z0-9_-]{20,100}$/, 'This reset link is invalid or has expired')),
  password: password(),
  confirmPassword: z.string({ error: 'Passwords do not match' }),
}).check(passwordsMatch());
export type ResetPasswordConfirm = z.input<typeof ResetPasswordConfirmSchema>;

/** The fields of a profile save (ProfileUpdateSchema); their cross-field checks are profileChecks. */
const ProfileFields = z.object({
  firstName: name('First name'),
  lastName: name('Last name'),
  phone: phone(),
  nationality: z._default(z.optional(z.union([z.enum(COUNTRY_CODES), z.literal('')], { error: 'Please select a nationality' })), ''),
  /** An SA ID number for za (checked when given); a passport or foreign ID number otherwise. */
  idNumber: z._default(z.optional(z.string().check(z.trim(), z.maxLength(20, 'ID number is too long'))), ''),
  /** 'YYYY-MM-DD', used only for a nationality that types it (dateOfBirthByNationality); null counts as blank. */
  dateOfBirth: z.optional(z.nullable(z.string({ error: 'Please enter a valid date in YYYY-MM-DD format' }).check(z.trim()))),
  addressLine1: optionalText(200, 'Address'),
  addressLine2: optionalText(200, 'Address'),
  city: optionalText(100, 'City'),
  state: optionalText(100, 'State/Province'),
  postalCode: optionalText(20, 'Postal code'),
  country: z._default(z.optional(z.union([z.enum(COUNTRY_CODES), z.literal('')], { error: 'Please select a country' })), ''),
  emergencyContactName: optionalText(100, 'Emergency contact name'),
  emergencyContactPhone: optionalPhone(),
  emergencyContactRelation: optionalText(60, 'Relationship'),
  /** 'E-mail me college announcements' (POPIA s69 opt-out): false turns announcement mail off; omitted leaves it as it is. */
  announcementEmails: z.optional(z.boolean({ error: 'Please choose whether to receive announcement e-mails' })),
});
/** The profile's cross-field checks, for ProfileUpdateSchema and ProfileSaveSchema alike: the SA ID when given, the date of birth by nationality. */
const profileChecks = <T extends { nationality?: string; idNumber?: string; dateOfBirth?: string | null }>() =>
  [saIdForSouthAfricans<T>({ optional: true }), dateOfBirthByNationality<T>({ optional: true })] as const;

/**
 * PUT /api/profile's details as the profile page checks them in the browser (the API adds `expectedUpdatedAt`:
 * ProfileSaveSchema): the person's own details; e-mail and role are not editable here. Optional text is trimmed,
 * blank → ''. An SA ID number is Luhn- and date-checked for za when given (SA_ID_MESSAGE). The date of birth follows
 * the registration rule: for za (or no nationality) it is derived from the ID number (spec §5) when one is given,
 * and a sent one is ignored; for any other nationality it is typed (typedBirthDateProblem), and left as stored
 * when not sent. `announcementEmails` omitted leaves the choice as it is.
 */
export const ProfileUpdateSchema = ProfileFields.check(...profileChecks());
export type ProfileUpdate = z.input<typeof ProfileUpdateSchema>;

/**
 * 409 message of a profile save whose `expectedUpdatedAt` is no longer the profile's `updatedAt`: the details were
 * saved in another tab, or an application submitted since filled empty ones (lost update, issue #16).
 */
export const PROFILE_EDIT_CONFLICT = 'Your details were changed since you opened this page, in another tab or by an application you submitted. Reload to see the changes.';

/**
 * PUT /api/profile as the API checks it: ProfileUpdateSchema plus `expectedUpdatedAt`, the profile's `updatedAt`
 * the form was loaded with (ISO 8601 with Z or an offset; 400 outside years 0001..9999, parsed to UTC milliseconds:
 * expectedUpdatedAt()). Optional for API compatibility; when given, a save made from an older version is refused
 * with 409 PROFILE_EDIT_CONFLICT (compared at millisecond precision), as course and announcement edits are. Built in a pure function call, so that the browser, which validates with
 * ProfileUpdateSchema, drops it and zod's ISO date-time format (issue #17).
 */
export const ProfileSaveSchema = /*#__PURE__*/ (() => z.extend(ProfileFields, {
  /** updatedAt of the version being edited; omitted = overwrite without a check. */
  expectedUpdatedAt: expectedUpdatedAt(),
}).check(...profileChecks()))();
export type ProfileSave = z.input<typeof ProfileSaveSchema>;

/** POST /api/profile/password: needs the current password. */
export const ChangePasswordSchema = z.object({
  currentPassword: z.string({ error: 'Please enter your current password' })
    .check(z.minLength(1, 'Please enter your current password'), z.maxLength(PASSWORD_MAX, 'Current password is incorrect')),
  password: password(),
  confirmPassword: z.string({ error: 'Passwords do not match' }),
}).check(passwordsMatch());
export type ChangePassword = z.input<typeof ChangePasswordSchema>;

/** POST /api/profile/delete: the password confirms a destructive action. */
export const DeleteAccountSchema = z.object({
  password: z.string({ error: 'Please enter your password' })
    .check(z.minLength(1, 'Please enter your password'), z.maxLength(PASSWORD_MAX, 'Password is incorrect')),
});

/** GET /api/profile: the public user plus the private details only the person sees. */
export const ProfileSchema = z.extend(PublicUserSchema, {
  idNumber: z.nullable(z.string()),
  emergencyContactName: z.nullable(z.string()),
  emergencyContactPhone: z.nullable(z.string()),
  emergencyContactRelation: z.nullable(z.string()),
  privacyConsentAt: z.nullable(z.string()),
  privacyNoticeVersion: z.nullable(z.string()),
  /** Announcement e-mails on (users.announcement_mail_opt_out_at is null); false after the checkbox or the unsubscribe link turned them off. */
  announcementEmails: z.boolean(),
  /** When announcement e-mails were turned off (ISO 8601), or null. */
  announcementMailOptOutAt: z.nullable(z.string()),
  /** When the account row last changed (ISO 8601, milliseconds): the version a profile save sends back as `expectedUpdatedAt`. */
  updatedAt: z.string(),
});
export type Profile = z.infer<typeof ProfileSchema>;
