/**
 * Auth contracts: login, simple and comprehensive registration (spec §2 Registration/Login, §5).
 * Messages are the spec's wording. Passwords: 6..128 characters, never truncated (ASVS 6.2.1, 6.2.9).
 */
import { z } from 'zod';
import { COUNTRY_CODES } from './common.ts';

export const PASSWORD_MAX = 128;
const email = () => z.string().trim().toLowerCase().pipe(z.email({ error: 'Please enter a valid email address' }));
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
  name: z.string().trim().min(1, 'High school name is required'),
  city: z.string().trim().min(1, 'City is required'),
  country: z.string().trim().min(1, 'Country is required'),
  from: z.string().trim().min(1, 'Start year is required'),
  to: z.string().trim().min(1, 'End year is required'),
  qualification: z.string().trim().min(1, 'Qualification is required'),
  grade: z.string().trim().min(1, 'Grade is required'),
});

export const RegisterPersonalSchema = z.object({
  firstName: name('First name'),
  lastName: name('Last name'),
  email: email(),
  password: password(),
  confirmPassword: z.string({ error: 'Passwords do not match' }),
  phone: phone(),
  dateOfBirth: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a valid ID number so we can fill in your date of birth'),
  nationality: z.enum(COUNTRY_CODES, { error: 'Please select a nationality' }),
  idNumber: z.string().trim().min(6, 'ID number is required').max(20, 'ID number is too long'),
});
export const RegisterAddressSchema = z.object({
  addressLine1: z.string().trim().min(1, 'Address is required'),
  addressLine2: z.string().trim().optional().default(''),
  city: z.string().trim().min(1, 'City is required'),
  state: z.string().trim().min(1, 'State/Province is required'),
  postalCode: z.string().trim().min(1, 'Postal code is required'),
  country: z.enum(COUNTRY_CODES, { error: 'Please select a country' }),
});
export const RegisterAcademicSchema = z.object({
  academicHistory: z.object({ highSchool: InstitutionSchema, college: InstitutionSchema.partial().optional() }),
});
export const RegisterEmergencySchema = z.object({
  emergencyContactName: z.string().trim().min(2, 'Emergency contact name is required'),
  emergencyContactPhone: phone(),
  emergencyContactRelation: z.string().trim().min(1, 'Relationship is required'),
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
    if (v.nationality === 'za' && !isValidSaIdNumber(v.idNumber)) ctx.addIssue({ code: 'custom', path: ['idNumber'], message: 'This South African ID number is not valid: check the 13 digits' });
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
