/**
 * Assessment-centre booking contract (spec §3 Assessment application, §5 Assessment form, option sets §3).
 * Beyond the spec (issue #3): the preferred date must be a weekday (the centre is closed at weekends),
 * today or later and within a year, judged in South African time.
 */
import { z } from 'zod';
import { IdempotencyKeySchema } from './contact.ts';

export const CAMPUS_OPTIONS = [
  { value: 'tshikombani', label: 'Tshikombani' }, { value: 'siloam', label: 'Siloam' },
  { value: 'biaba', label: 'Biaba Likhade' }, { value: 'tshitavha', label: 'Tshitavha' },
] as const;
export const COURSE_INTEREST_OPTIONS = [
  { value: 'business', label: 'Business' }, { value: 'information-technology', label: 'Information Technology' },
  { value: 'healthcare', label: 'Healthcare' }, { value: 'education', label: 'Education' },
  { value: 'hospitality', label: 'Hospitality' }, { value: 'engineering', label: 'Engineering' }, { value: 'other', label: 'Other' },
] as const;
export const ASSESSMENT_TYPE_OPTIONS = [
  { value: 'skills', label: 'Skills Assessment' }, { value: 'academic', label: 'Academic Assessment' },
  { value: 'aptitude', label: 'Aptitude Test' }, { value: 'combined', label: 'Combined Assessment' },
] as const;
export const EDUCATION_LEVEL_OPTIONS = [
  { value: 'grade-12', label: 'Grade 12 / Matric' }, { value: 'certificate', label: 'Certificate' },
  { value: 'diploma', label: 'Diploma' }, { value: 'degree', label: 'Degree' }, { value: 'postgraduate', label: 'Postgraduate' },
] as const;
export const PREFERRED_TIME_OPTIONS = [
  { value: 'morning', label: 'Morning (8:00 AM-12:00 PM)' },
  { value: 'afternoon', label: 'Afternoon (12:00 PM-4:00 PM)' },
  { value: 'evening', label: 'Evening (4:00 PM-6:00 PM)' },
] as const;

const values = <T extends readonly { value: string }[]>(o: T) => o.map((x) => x.value) as [T[number]['value'], ...T[number]['value'][]];
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Today's date 'YYYY-MM-DD' in South Africa (Africa/Johannesburg, UTC+2 all year). */
export function todayInSouthAfrica(now: Date = new Date()): string {
  return new Date(now.getTime() + 2 * 3600_000).toISOString().slice(0, 10);
}

/** True when 'YYYY-MM-DD' is a real calendar date. */
export function isRealDate(v: string): boolean {
  if (!ISO_DATE.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

/**
 * Why a preferred date cannot be booked, or null when it can. `today` is 'YYYY-MM-DD' (South African time).
 * Messages: past → 'Preferred date cannot be in the past'; Saturday/Sunday → 'The assessment centre is
 * closed on weekends. Please choose a weekday (Monday to Friday)'; > 365 days → 'Please choose a date within the next 12 months'.
 */
export function preferredDateProblem(date: string, today: string = todayInSouthAfrica()): string | null {
  if (!isRealDate(date)) return 'Please select a preferred date';
  if (date < today) return 'Preferred date cannot be in the past';
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  if (day === 0 || day === 6) return 'The assessment centre is closed on weekends. Please choose a weekday (Monday to Friday)';
  const limit = new Date(`${today}T00:00:00Z`);
  limit.setUTCDate(limit.getUTCDate() + 365);
  if (date > limit.toISOString().slice(0, 10)) return 'Please choose a date within the next 12 months';
  return null;
}

const select = <T extends readonly { value: string }[]>(o: T, message: string) =>
  z.enum(values(o), { error: message });

export const AssessmentBookingSchema = z.object({
  firstName: z.string({ error: 'First name must be at least 2 characters' }).trim()
    .min(2, 'First name must be at least 2 characters').max(80, 'First name is too long'),
  lastName: z.string({ error: 'Last name must be at least 2 characters' }).trim()
    .min(2, 'Last name must be at least 2 characters').max(80, 'Last name is too long'),
  email: z.string({ error: 'Please enter a valid email address' }).trim().toLowerCase()
    .pipe(z.email({ error: 'Please enter a valid email address' })),
  phone: z.string({ error: 'Phone number must be at least 10 digits' }).trim()
    .min(10, 'Phone number must be at least 10 digits').max(20, 'Phone number is too long'),
  dateOfBirth: z.string({ error: 'Date of birth is required' }).trim().min(1, 'Date of birth is required')
    .refine(isRealDate, 'Date of birth is required')
    .refine((v) => v >= '1900-01-01' && v < todayInSouthAfrica(), 'Please enter a valid date of birth'),
  idNumber: z.string({ error: 'ID number must be 13 digits' }).transform((v) => v.replace(/\s/g, ''))
    .pipe(z.string().regex(/^\d{13}$/, 'ID number must be 13 digits')),
  preferredCampus: select(CAMPUS_OPTIONS, 'Please select a preferred campus').describe('Campus slug, spec §3'),
  courseInterest: select(COURSE_INTEREST_OPTIONS, 'Please select your course interest'),
  assessmentType: select(ASSESSMENT_TYPE_OPTIONS, 'Please select an assessment type'),
  preferredDate: z.string({ error: 'Please select a preferred date' }).trim().min(1, 'Please select a preferred date')
    .superRefine((v, ctx) => { const p = preferredDateProblem(v); if (p) ctx.addIssue({ code: 'custom', message: p }); })
    .describe("'YYYY-MM-DD', a weekday from today (SAST)"),
  preferredTime: select(PREFERRED_TIME_OPTIONS, 'Please select a preferred time'),
  educationLevel: select(EDUCATION_LEVEL_OPTIONS, 'Please select your highest education level'),
  specialNeeds: z.string().trim().max(2000, 'Please keep this under 2000 characters').optional().default(''),
  additionalNotes: z.string().trim().max(2000, 'Please keep this under 2000 characters').optional().default(''),
  idempotencyKey: IdempotencyKeySchema.optional(),
});
export type AssessmentBookingInput = z.input<typeof AssessmentBookingSchema>;
export type AssessmentBooking = z.output<typeof AssessmentBookingSchema>;

/** Label for an option value, e.g. label(CAMPUS_OPTIONS, 'biaba') → 'Biaba Likhade'. */
export function optionLabel(options: readonly { value: string; label: string }[], value: string): string {
  return options.find((o) => o.value === value)?.label ?? value;
}
