/**
 * Auth contracts: login, simple and comprehensive registration (spec §2 Registration/Login, §5).
 * Messages are the spec's wording. Passwords: 6..128 characters, never truncated (ASVS 6.2.1, 6.2.9).
 */
import { z } from 'zod';
import { COUNTRY_CODES } from './common.ts';

export const PASSWORD_MAX = 128;
const email = () => z.string({ error: 'Please enter a valid email address' }).trim().toLowerCase()
  .pipe(z.email({ error: 'Please enter a valid email address' }).max(254, 'Please enter a valid email address'));
const password = () => z.string({ error: 'Password must be at least 6 characters' })
  .min(6, 'Password must be at least 6 characters')
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);
const phone = () => z.string({ error: 'Phone number must be at least 10 characters' }).trim().min(10, 'Phone number must be at least 10 characters').max(20, 'Phone number is too long');
const name = (label: string) => z.string({ error: `${label} must be at least 2 characters` }).trim().min(2, `${label} must be at least 2 characters`).max(80, `${label} is too long`);

export const LoginSchema = z.object({
  email: email(),
  password: z.string({ error: 'Password must be at least 6 characters' }).min(6, 'Password must be at least 6 characters').max(PASSWORD_MAX, 'Password must be at least 6 characters'),
  rememberMe: z.boolean().optional().default(false),
});
export type Login = z.infer<typeof LoginSchema>;

/** Simple register (spec §5). courseId: 'none' or empty means no course. Role is never read. */
export const SimpleRegisterSchema = z.object({
  firstName: name('First name'),
  lastName: name('Last name'),
  email: email(),
  password: password(),
  confirmPassword: z.string({ error: 'Passwords do not match' }),
  phone: phone(),
  courseId: z.union([z.literal('none'), z.literal(''), z.coerce.number().int().positive(), z.null()]).optional()
    .transform((v) => (v === 'none' || v === '' || v == null ? undefined : v)),
  terms: z.literal(true, { error: 'You must agree to the terms and conditions' }),
}).refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: 'Passwords do not match' });
export type SimpleRegister = z.input<typeof SimpleRegisterSchema>;

/**
 * Birth date from a South African ID number's first six digits (YYMMDD), spec §5:
 * YY ≤ 21 → 20YY else 19YY; month 1–12, day 1–31, year 1900–2025, else ''.
 * Returns 'YYYY-MM-DD' or ''.
 */
export function birthDateFromIdNumber(idNumber: string): string {
  const digits = (idNumber ?? '').replace(/\s/g, '');
  if (!/^\d{6}/.test(digits)) return '';
  const yy = Number(digits.slice(0, 2));
  const mm = Number(digits.slice(2, 4));
  const dd = Number(digits.slice(4, 6));
  const year = yy <= 21 ? 2000 + yy : 1900 + yy;
  if (mm < 1 || mm > 12 || dd < 1 || dd > 31 || year < 1900 || year > 2025) return '';
  return `${year}-${String(mm).padStart(2, '0')}-${String(dd).padStart(2, '0')}`;
}

/** Luhn check of a 13-digit SA ID number (issue #4: checked when nationality is South Africa). */
export function isValidSaIdNumber(idNumber: string): boolean {
  if (!/^\d{13}$/.test(idNumber)) return false;
  let sum = 0;
  for (let i = 0; i < 13; i++) {
    let d = Number(idNumber[12 - i]);
    if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
  }
  return sum % 10 === 0;
}

export const InstitutionSchema = z.object({
  name: z.string({ error: 'High school name is required' }).trim().min(1, 'High school name is required').max(200, 'High school name is too long'),
  city: z.string({ error: 'City is required' }).trim().min(1, 'City is required').max(200, 'City is too long'),
  country: z.string({ error: 'Country is required' }).trim().min(1, 'Country is required').max(200, 'Country is too long'),
  from: z.string({ error: 'Start year is required' }).trim().min(1, 'Start year is required').max(200, 'Start year is too long'),
  to: z.string({ error: 'End year is required' }).trim().min(1, 'End year is required').max(200, 'End year is too long'),
  qualification: z.string({ error: 'Qualification is required' }).trim().min(1, 'Qualification is required').max(200, 'Qualification is too long'),
  grade: z.string({ error: 'Grade is required' }).trim().min(1, 'Grade is required').max(200, 'Grade is too long'),
}, { error: 'High school name is required' });

export const SA_ID_MESSAGE = 'This South African ID number is not valid: check the 13 digits';

export const RegisterPersonalSchema = z.object({
  firstName: name('First name'),
  lastName: name('Last name'),
  email: email(),
  password: password(),
  confirmPassword: z.string({ error: 'Passwords do not match' }),
  phone: phone(),
  dateOfBirth: z.string({ error: 'Enter a valid ID number so we can fill in your date of birth' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a valid ID number so we can fill in your date of birth'),
  nationality: z.enum(COUNTRY_CODES, { error: 'Please select a nationality' }),
  idNumber: z.string({ error: 'ID number is required' }).trim().min(6, 'ID number is required').max(20, 'ID number is too long'),
});
/** Wizard step 0 as the island checks it before moving on: the nine fields, matching passwords, Luhn for za. */
export const RegisterPersonalStepSchema = RegisterPersonalSchema.superRefine((v, ctx) => {
  if (v.password !== v.confirmPassword) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'Passwords do not match' });
  if (v.nationality === 'za' && !isValidSaIdNumber(v.idNumber)) ctx.addIssue({ code: 'custom', path: ['idNumber'], message: SA_ID_MESSAGE });
});

export const RegisterAddressSchema = z.object({
  addressLine1: z.string({ error: 'Address is required' }).trim().min(1, 'Address is required').max(200, 'Address is too long'),
  addressLine2: z.string().trim().max(200, 'Address is too long').optional().default(''),
  city: z.string({ error: 'City is required' }).trim().min(1, 'City is required').max(100, 'City is too long'),
  state: z.string({ error: 'State/Province is required' }).trim().min(1, 'State/Province is required').max(100, 'State/Province is too long'),
  postalCode: z.string({ error: 'Postal code is required' }).trim().min(1, 'Postal code is required').max(20, 'Postal code is too long'),
  country: z.enum(COUNTRY_CODES, { error: 'Please select a country' }),
});
const optionalText = (max: number, label: string) => z.string().trim().max(max, `${label} is too long`).optional().default('');

/** College/university in the wizard: optional, same fields as the high school, any of them may be blank. */
export const OptionalInstitutionSchema = z.object({
  name: optionalText(200, 'Name'), city: optionalText(100, 'City'), country: optionalText(100, 'Country'),
  from: optionalText(10, 'Start year'), to: optionalText(10, 'End year'), qualification: optionalText(200, 'Qualification'), grade: optionalText(50, 'Grade'),
});

export const RegisterAcademicSchema = z.object({
  academicHistory: z.object({ highSchool: InstitutionSchema, college: OptionalInstitutionSchema.optional() }, { error: 'High school name is required' }),
});
export const RegisterEmergencySchema = z.object({
  emergencyContactName: z.string({ error: 'Emergency contact name is required' }).trim().min(2, 'Emergency contact name is required').max(100, 'Emergency contact name is too long'),
  emergencyContactPhone: phone(),
  emergencyContactRelation: z.string({ error: 'Relationship is required' }).trim().min(1, 'Relationship is required').max(60, 'Relationship is too long'),
});
export const RegisterCourseSchema = z.object({
  courseId: z.coerce.number({ error: 'Please select a course' }).int().positive('Please select a course'),
  termsAndConditions: z.literal(true, { error: 'You must agree to the Terms and Conditions and Privacy Policy' }),
});

/** The comprehensive registration payload (spec §3), checked as a whole by the server. */
export const ComprehensiveRegisterSchema = RegisterPersonalSchema
  .extend(RegisterAddressSchema.shape)
  .extend(RegisterAcademicSchema.shape)
  .extend(RegisterEmergencySchema.shape)
  .extend(RegisterCourseSchema.shape)
  .superRefine((v, ctx) => {
    if (v.password !== v.confirmPassword) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'Passwords do not match' });
    if (v.nationality === 'za' && !isValidSaIdNumber(v.idNumber)) ctx.addIssue({ code: 'custom', path: ['idNumber'], message: SA_ID_MESSAGE });
    if (birthDateFromIdNumber(v.idNumber) !== v.dateOfBirth) ctx.addIssue({ code: 'custom', path: ['dateOfBirth'], message: 'Date of birth must match the ID number' });
  });
export type ComprehensiveRegister = z.input<typeof ComprehensiveRegisterSchema>;

/** The user as the API returns it: never a password or hash. */
export const PublicUserSchema = z.object({
  id: z.number(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().nullable(),
  role: z.enum(['student', 'admin']),
  dateOfBirth: z.string().nullable(),
  nationality: z.string().nullable(),
  addressLine1: z.string().nullable(),
  addressLine2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  postalCode: z.string().nullable(),
  country: z.string().nullable(),
  createdAt: z.string(),
});
export type PublicUser = z.infer<typeof PublicUserSchema>;

/** POST /reset-password: always answered the same way, whether or not the e-mail is registered. */
export const ForgotPasswordSchema = z.object({ email: email() });
export type ForgotPassword = z.infer<typeof ForgotPasswordSchema>;

/** POST /reset-password/confirm: the e-mailed token (43 base64url characters) and the new password. */
export const ResetPasswordConfirmSchema = z.object({
  token: z.string({ error: 'This reset link is invalid or has expired' }).trim().regex(/^[A-Za-z0-9_-]{20,100}$/, 'This reset link is invalid or has expired'),
  password: password(),
  confirmPassword: z.string({ error: 'Passwords do not match' }),
}).refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: 'Passwords do not match' });
export type ResetPasswordConfirm = z.input<typeof ResetPasswordConfirmSchema>;

/**
 * PUT /api/profile: the person's own details. E-mail and role are not editable here; the date of birth is
 * derived from the ID number (spec §5) when one is given.
 */
export const ProfileUpdateSchema = z.object({
  firstName: name('First name'),
  lastName: name('Last name'),
  phone: phone(),
  nationality: z.union([z.enum(COUNTRY_CODES), z.literal('')], { error: 'Please select a nationality' }).optional().default(''),
  idNumber: z.string().trim().max(20, 'ID number is too long').optional().default(''),
  addressLine1: optionalText(200, 'Address'),
  addressLine2: optionalText(200, 'Address'),
  city: optionalText(100, 'City'),
  state: optionalText(100, 'State/Province'),
  postalCode: optionalText(20, 'Postal code'),
  country: z.union([z.enum(COUNTRY_CODES), z.literal('')], { error: 'Please select a country' }).optional().default(''),
  emergencyContactName: optionalText(100, 'Emergency contact name'),
  emergencyContactPhone: z.string().trim().max(20, 'Phone number is too long')
    .refine((v) => v === '' || v.length >= 10, 'Phone number must be at least 10 characters').optional().default(''),
  emergencyContactRelation: optionalText(60, 'Relationship'),
}).superRefine((v, ctx) => {
  if (v.nationality === 'za' && v.idNumber && !isValidSaIdNumber(v.idNumber)) ctx.addIssue({ code: 'custom', path: ['idNumber'], message: SA_ID_MESSAGE });
});
export type ProfileUpdate = z.input<typeof ProfileUpdateSchema>;

/** POST /api/profile/password: needs the current password. */
export const ChangePasswordSchema = z.object({
  currentPassword: z.string({ error: 'Please enter your current password' }).min(1, 'Please enter your current password').max(PASSWORD_MAX, 'Current password is incorrect'),
  password: password(),
  confirmPassword: z.string({ error: 'Passwords do not match' }),
}).refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: 'Passwords do not match' });
export type ChangePassword = z.input<typeof ChangePasswordSchema>;

/** POST /api/profile/delete: the password confirms a destructive action. */
export const DeleteAccountSchema = z.object({
  password: z.string({ error: 'Please enter your password' }).min(1, 'Please enter your password').max(PASSWORD_MAX, 'Password is incorrect'),
});

/** GET /api/profile: the public user plus the private details only the person sees. */
export const ProfileSchema = PublicUserSchema.extend({
  idNumber: z.string().nullable(),
  emergencyContactName: z.string().nullable(),
  emergencyContactPhone: z.string().nullable(),
  emergencyContactRelation: z.string().nullable(),
  privacyConsentAt: z.string().nullable(),
  privacyNoticeVersion: z.string().nullable(),
});
export type Profile = z.infer<typeof ProfileSchema>;
