/** Course contracts (spec §3 Course, §5 Course form). */
import { z } from 'zod';
import { COURSE_LEVELS, DEPARTMENTS, httpImageUrl } from './common.ts';
import { MinimumApsSchema, SubjectRequirementsSchema } from './nsc-schema.ts';
import { normaliseAmountText, toTwoDecimals } from './money-input.ts';

export const CourseSchema = z.object({
  id: z.number(),
  title: z.string(),
  name: z.string(),
  description: z.string(),
  level: z.enum(COURSE_LEVELS),
  duration: z.number().nullable(),
  tuitionFee: z.string(),
  price: z.string().nullable(),
  startDate: z.string().nullable(),
  requirements: z.string().nullable(),
  /** Structured entry requirements (issue #18): APS 0–42 (0 = none) and minimum percentages per NSC subject. */
  minimumAps: z.number(),
  subjectRequirements: z.array(z.object({ subject: z.string(), minimumPercent: z.number() })),
  department: z.string(),
  isActive: z.boolean(),
  imageUrl: z.string().nullable(),
  createdAt: z.string(),
  /** When the course last changed (ISO 8601, millisecond precision): an edit sends it back as `expectedUpdatedAt`. */
  updatedAt: z.string(),
});
export type Course = z.infer<typeof CourseSchema>;

/** Message for a course price that is not an amount in rand. */
export const PRICE_MESSAGE = 'Price must be an amount in rand, like 1250 or 1250.50';
/** Largest course price, in rand (the column is numeric(12,2)). */
export const MAX_COURSE_PRICE = 9_999_999_999.99;

/**
 * Course price in rand (optional): blank, null or absent → null (no price: the public site shows the tuition fee).
 * Otherwise a decimal amount typed the South African way (normaliseAmountText: optional 'R', spaces grouping
 * thousands, one decimal comma or point) or a JSON number; ≥ 0, at most 2 decimals, ≤ MAX_COURSE_PRICE.
 * Hex, exponents and other number spellings are refused with PRICE_MESSAGE (no silent rounding: '1250.999' is refused).
 * Output: a two-decimal string ('1250.50') or null.
 */
export const CoursePriceSchema = z.preprocess(
  (v) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? null
    // Plain digits, never exponent notation: 1e308 is 'too large', not 'not an amount'.
    : typeof v === 'number' ? (Number.isFinite(v) ? v.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 }) : 'not a number')
    : typeof v === 'string' ? v.trim() : v),
  z.string({ error: PRICE_MESSAGE }).transform((v) => normaliseAmountText(v))
    .pipe(z.string({ error: PRICE_MESSAGE })
      .refine((v) => !v.startsWith('-'), 'Price cannot be negative')
      .refine((v) => !/\.\d{3,}$/.test(v), 'Price can have at most 2 decimal places')
      .refine((v) => Number(v) <= MAX_COURSE_PRICE, 'Price is too large')
      .transform(toTwoDecimals))
    .nullable(),
).optional().transform((v) => v ?? null);

/** Field message for a department outside DEPARTMENTS (spec §2 admin dashboard names the four). */
export const DEPARTMENT_MESSAGE = `Choose one of the departments: ${DEPARTMENTS.join(', ')}.`;

/**
 * Course department: one of DEPARTMENTS (spec §2 admin dashboard: Business, Technology, Healthcare, Arts and Design;
 * content/seed/departments.json), matched ignoring case and repeated spaces and stored in its listed spelling, so a
 * typo ('busines') or another spelling ('business ') never becomes a new public department in the /courses filter
 * (admin audit). Blank → 'Department is required'; anything else → DEPARTMENT_MESSAGE.
 */
export const CourseDepartmentSchema = z.string({ error: 'Department is required' }).trim().min(1, 'Department is required')
  .transform((v) => DEPARTMENTS.find((d) => d.toLowerCase() === v.replace(/\s+/g, ' ').toLowerCase()) ?? v)
  .pipe(z.enum(DEPARTMENTS, { error: DEPARTMENT_MESSAGE }));

/** Admin create/edit (spec §5 Course form: title, description, level, duration, department, tuitionFee, startDate required). */
export const CourseInputSchema = z.object({
  title: z.string({ error: 'Title is required' }).trim().min(1, 'Title is required').max(200),
  description: z.string({ error: 'Description is required' }).trim().min(1, 'Description is required').max(5000),
  level: z.enum(COURSE_LEVELS, { error: 'Level is required' }).default('certificate'),
  duration: z.coerce.number({ error: 'Duration is required' }).int('Duration must be a whole number of months').min(1, 'Duration is required').max(120),
  department: CourseDepartmentSchema.describe(`One of ${DEPARTMENTS.join(', ')} (case and spacing ignored)`),
  tuitionFee: z.string({ error: 'Tuition fee is required' }).trim().min(1, 'Tuition fee is required').max(100),
  startDate: z.string({ error: 'Start date is required' }).trim().min(1, 'Start date is required').max(100),
  price: CoursePriceSchema,
  requirements: z.string().trim().max(5000).optional().nullable().transform((v) => (v ? v : null)),
  imageUrl: httpImageUrl(),
  minimumAps: z.optional(MinimumApsSchema).default(0).describe('0–42; 0 means no APS requirement'),
  subjectRequirements: z.optional(SubjectRequirementsSchema).default([]).describe('[{subject, minimumPercent 0–100}], each NSC subject once'),
  isActive: z.boolean().default(true),
});
export type CourseInput = z.input<typeof CourseInputSchema>;

/** 409 message of an edit whose `expectedUpdatedAt` is no longer the course's `updatedAt` (lost-update check). */
export const COURSE_EDIT_CONFLICT = 'Someone else changed this course since you opened it. Reload to see their changes.';

/**
 * Admin edit (PUT /api/courses/:id): the create fields plus `expectedUpdatedAt`, the `updatedAt` of the version
 * the form was opened on (ISO 8601 with offset). Optional for API compatibility; when given, the save is refused
 * with 409 COURSE_EDIT_CONFLICT if the course changed since (compared at millisecond precision).
 */
export const CourseUpdateSchema = CourseInputSchema.extend({
  expectedUpdatedAt: z.iso.datetime({ offset: true, error: 'Expected version must be an ISO 8601 date and time' }).optional()
    .describe('updatedAt of the version being edited; omitted = overwrite without a check'),
});
export type CourseUpdate = z.input<typeof CourseUpdateSchema>;
