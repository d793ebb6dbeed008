/**
 * Assessment-centre booking contract (spec §3 Assessment application, §5 Assessment form, option sets §3).
 * Beyond the spec (issue #3): the preferred date must be a weekday (the centre is closed at weekends),
 * today or later and within a year, and a slot today must not have ended yet, judged in South African time. `zod/mini` for the browser's sake (see contact.ts).
 */
import * as z from 'zod/mini';
import { IdempotencyKeySchema, emailAddress, personName } from './contact.ts';
import { saIdDigits, saIdNumberProblem } from './auth-rules.ts';
import { crossField } from './cross-field.ts';
import { phone } from './phone.ts';
import { PHONE_MIN_DIGITS_MESSAGE } from './phone-text.ts';
import { isRealDate, todayInSouthAfrica } from './sa-calendar.ts';

export { isRealDate, todayInSouthAfrica };

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

/** When each preferred-time slot ends, in minutes after midnight South African time (spec §3 option labels). */
export const SLOT_END_MINUTES: Readonly<Record<string, number>> = { morning: 12 * 60, afternoon: 16 * 60, evening: 18 * 60 };
/**
 * The field message (preferredTime) when the chosen slot has already ended today in South Africa
 * (preferredSlotProblem below; a rule beyond the spec, like 'today or later'). Shown by the form and the API alike.
 */
export const SLOT_PASSED_MESSAGE = 'This time has already passed today. Please choose a later time or another day.';

/**
 * Why a preferred time slot cannot be booked on a preferred date at `now`, or null. Beyond the spec (same rule as
 * preferredDateProblem's 'today or later'): when `date` ('YYYY-MM-DD') is today in South Africa
 * (todayInSouthAfrica(now)) and the slot `time` (a PREFERRED_TIME_OPTIONS value) has ended — morning at 12:00,
 * afternoon at 16:00, evening at 18:00 SAST, the end itself counting as passed — SLOT_PASSED_MESSAGE. Other dates,
 * unknown slots and a missing date or time are left to the field checks (null). `now` is the clock (tests fix it).
 */
export function preferredSlotProblem(date: string, time: string, now: Date = new Date()): string | null {
  // Not Object.hasOwn: the booking form runs this on phones without it (Chrome < 93, Safari < 15.4).
  const end = Object.prototype.hasOwnProperty.call(SLOT_END_MINUTES, time) ? SLOT_END_MINUTES[time] : undefined;
  if (end === undefined || date !== todayInSouthAfrica(now)) return null;
  const msIntoDay = now.getTime() - Date.parse(`${date}T00:00:00+02:00`);
  return msIntoDay >= end * 60_000 ? SLOT_PASSED_MESSAGE : null;
}

const select = <T extends readonly { value: string }[]>(o: T, message: string) => z.enum(values(o), { error: message });
const optionalText = () => z._default(z.optional(z.string().check(z.trim(), z.maxLength(2000, 'Please keep this under 2000 characters'))), '');

export const AssessmentBookingSchema = z.object({
  firstName: personName('First name'),
  lastName: personName('Last name'),
  email: emailAddress(),
  /** Spec §5: at least 10 characters, with the assessment form's word 'digits'; letters refused (phone.ts). */
  phone: phone(PHONE_MIN_DIGITS_MESSAGE),
  /** 'YYYY-MM-DD', before today. */
  dateOfBirth: z.string({ error: 'Date of birth is required' }).check(
    z.trim(), z.minLength(1, 'Date of birth is required'),
    z.superRefine((v, ctx) => {
      if (!v) return;
      if (!isRealDate(v)) ctx.issues.push({ code: 'custom', message: 'Date of birth is required', input: v });
      else if (v < '1900-01-01' || v >= todayInSouthAfrica()) ctx.issues.push({ code: 'custom', message: 'Please enter a valid date of birth', input: v });
    }),
  ),
  /** 13 digits (spaces and dashes ignored, as registration), then the one SA ID check: birth date and Luhn check digit (issue #14 point 5). */
  idNumber: z.pipe(
    z.pipe(z.string({ error: 'ID number must be 13 digits' }), z.transform(saIdDigits)),
    z.string().check(z.regex(/^\d{13}$/, 'ID number must be 13 digits'), z.superRefine((v, ctx) => {
      const p = /^\d{13}$/.test(v) ? saIdNumberProblem(v) : null;
      if (p) ctx.addIssue({ code: 'custom', message: p, input: v });
    })),
  ),
  preferredCampus: select(CAMPUS_OPTIONS, 'Please select a preferred campus'),
  courseInterest: select(COURSE_INTEREST_OPTIONS, 'Please select your course interest'),
  assessmentType: select(ASSESSMENT_TYPE_OPTIONS, 'Please select an assessment type'),
  /** 'YYYY-MM-DD', a weekday from today (SAST), see preferredDateProblem. */
  preferredDate: z.string({ error: 'Please select a preferred date' }).check(
    z.trim(), z.minLength(1, 'Please select a preferred date'),
    z.superRefine((v, ctx) => { const p = v ? preferredDateProblem(v) : null; if (p) ctx.issues.push({ code: 'custom', message: p, input: v }); }),
  ),
  preferredTime: select(PREFERRED_TIME_OPTIONS, 'Please select a preferred time'),
  educationLevel: select(EDUCATION_LEVEL_OPTIONS, 'Please select your highest education level'),
  specialNeeds: optionalText(),
  additionalNotes: optionalText(),
  idempotencyKey: z.optional(IdempotencyKeySchema),
}).check(crossField<{ preferredDate?: unknown; preferredTime?: unknown }>((v, ctx) => {
  // Today's slot that has already ended (preferredSlotProblem), on preferredTime, with the other messages.
  if (typeof v.preferredDate !== 'string' || typeof v.preferredTime !== 'string') return;
  const p = preferredSlotProblem(v.preferredDate.trim(), v.preferredTime);
  if (p) ctx.addIssue({ code: 'custom', path: ['preferredTime'], message: p, input: v.preferredTime });
}));
export type AssessmentBookingInput = z.input<typeof AssessmentBookingSchema>;
export type AssessmentBooking = z.output<typeof AssessmentBookingSchema>;

/** Label for an option value, e.g. label(CAMPUS_OPTIONS, 'biaba') → 'Biaba Likhade'. */
export function optionLabel(options: readonly { value: string; label: string }[], value: string): string {
  return options.find((o) => o.value === value)?.label ?? value;
}
