/** Course contracts (spec §3 Course, §5 Course form). Written with `zod/mini`: the admin course form validates with them. */
import * as z from 'zod/mini';
import { COURSE_LEVELS, DEPARTMENTS, httpImageUrl } from './common.ts';
import { MinimumApsSchema, SubjectRequirementsSchema } from './nsc-schema.ts';
import { normaliseAmountText, toTwoDecimals } from './money-input.ts';
import { expectedUpdatedAt } from './expected-version.ts';

export const CourseSchema = z.object({
  id: z.number(),
  title: z.string(),
  name: z.string(),
  description: z.string(),
  level: z.enum(COURSE_LEVELS),
  duration: z.nullable(z.number()),
  tuitionFee: z.string(),
  price: z.nullable(z.string()),
  startDate: z.nullable(z.string()),
  requirements: z.nullable(z.string()),
  /** Structured entry requirements (issue #18): APS 0–42 (0 = none) and minimum percentages per NSC subject. */
  minimumAps: z.number(),
  subjectRequirements: z.array(z.object({ subject: z.string(), minimumPercent: z.number() })),
  department: z.string(),
  isActive: z.boolean(),
  imageUrl: z.nullable(z.string()),
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
export const CoursePriceSchema = z.pipe(
  z.optional(z.pipe(
    z.transform((v: unknown) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? null
      // Plain digits, never exponent notation: 1e308 is 'too large', not 'not an amount'.
      : typeof v === 'number' ? (Number.isFinite(v) ? v.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 }) : 'not a number')
      : typeof v === 'string' ? v.trim() : v)),
    z.nullable(z.pipe(
      z.pipe(z.string({ error: PRICE_MESSAGE }), z.transform((v: string) => normaliseAmountText(v))),
      z.pipe(
        z.string({ error: PRICE_MESSAGE }).check(
          z.refine((v) => !v.startsWith('-'), 'Price cannot be negative'),
          z.refine((v) => !/\.\d{3,}$/.test(v), 'Price can have at most 2 decimal places'),
          z.refine((v) => Number(v) <= MAX_COURSE_PRICE, 'Price is too large'),
        ),
        z.transform(toTwoDecimals),
      ),
    )),
  )),
  z.transform((v: string | null | undefined) => v ?? null),
);

/** Field message for a department outside DEPARTMENTS (spec §2 admin dashboard names the four). */
export const DEPARTMENT_MESSAGE = `Choose one of the departments: ${DEPARTMENTS.join(', ')}.`;

/**
 * Course department: one of DEPARTMENTS (spec §2 admin dashboard: Business, Technology, Healthcare, Arts and Design;
 * content/seed/departments.json), matched ignoring case and repeated spaces and stored in its listed spelling, so a
 * typo ('busines') or another spelling ('business ') never becomes a new public department in the /courses filter
 * (admin audit). Blank → 'Department is required'; anything else → DEPARTMENT_MESSAGE.
 */
export const CourseDepartmentSchema = z.pipe(
  z.pipe(
    z.string({ error: 'Department is required' }).check(z.trim(), z.minLength(1, 'Department is required')),
    z.transform((v: string) => DEPARTMENTS.find((d) => d.toLowerCase() === v.replace(/\s+/g, ' ').toLowerCase()) ?? v),
  ),
  z.enum(DEPARTMENTS, { error: DEPARTMENT_MESSAGE }),
);

/** Message for a course duration left blank (spec §5 Course form: duration is required). */
export const DURATION_REQUIRED = 'Duration is required';
/**
 * Message for a duration that is filled but not a positive number ('-3', '0', 'abc'): the spec gives no wording, and
 * 'Duration is required' for a filled field misled (QA audit 2026-11-28 item 2).
 */
export const DURATION_POSITIVE = 'Duration must be a positive number';

/**
 * Course duration in whole months, 1–120 (spec §3 Course: duration (months); §5: required). Absent, null or a blank
 * string → DURATION_REQUIRED; anything else is read as Number() reads it (a JSON number, or the text of the form's
 * number field, '12' or ' 12 '), then: not a number or below 1 → DURATION_POSITIVE, a fraction → 'Duration must be
 * a whole number of months', above 120 → 'Duration must be at most 120 months'. Output: the number.
 */
export const CourseDurationSchema = z.pipe(
  z.transform((v: unknown) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? undefined : Number(v))),
  z.number({ error: (issue) => (issue.input === undefined ? DURATION_REQUIRED : DURATION_POSITIVE) })
    .check(z.int('Duration must be a whole number of months'), z.gte(1, DURATION_POSITIVE), z.lte(120, 'Duration must be at most 120 months')),
);

/** Admin create/edit (spec §5 Course form: title, description, level, duration, department, tuitionFee, startDate required). */
// A check without its own message gets its schema's `error` (the API answered 'Title is required' for a title of 201
// characters): kept as it was. `requirements` has no `error`, so its length check carries zod's English wording,
// which the browser (zod/mini only) does not load.
export const CourseInputSchema = z.object({
  title: z.string({ error: 'Title is required' }).check(z.trim(), z.minLength(1, 'Title is required'), z.maxLength(200, 'Title must be at most 200 characters')),
  description: z.string({ error: 'Description is required' }).check(z.trim(), z.minLength(1, 'Description is required'), z.maxLength(5000, 'Description must be at most 5000 characters')),
  level: z._default(z.enum(COURSE_LEVELS, { error: 'Level is required' }), 'certificate'),
  /** Whole months 1–120 (CourseDurationSchema). */
  duration: CourseDurationSchema,
  /** One of DEPARTMENTS (case and spacing ignored). */
  department: CourseDepartmentSchema,
  tuitionFee: z.string({ error: 'Tuition fee is required' }).check(z.trim(), z.minLength(1, 'Tuition fee is required'), z.maxLength(100, 'Tuition fee must be at most 100 characters')),
  startDate: z.string({ error: 'Start date is required' }).check(z.trim(), z.minLength(1, 'Start date is required'), z.maxLength(100, 'Start date must be at most 100 characters')),
  price: CoursePriceSchema,
  requirements: z.pipe(
    z.nullable(z.optional(z.string().check(z.trim(), z.maxLength(5000, 'Too big: expected string to have <=5000 characters')))),
    z.transform((v: string | null | undefined) => (v ? v : null)),
  ),
  imageUrl: httpImageUrl(),
  /** 0–42; 0 means no APS requirement. */
  minimumAps: z._default(z.optional(MinimumApsSchema), 0),
  /** [{subject, minimumPercent 0–100}], each NSC subject once. */
  subjectRequirements: z._default(z.optional(SubjectRequirementsSchema), []),
  isActive: z._default(z.boolean(), true),
});
export type CourseInput = z.input<typeof CourseInputSchema>;

/** 409 message of an edit whose `expectedUpdatedAt` is no longer the course's `updatedAt` (lost-update check). */
export const COURSE_EDIT_CONFLICT = 'Someone else changed this course since you opened it. Reload to see their changes.';

/**
 * Admin edit (PUT /api/courses/:id): the create fields plus `expectedUpdatedAt`, the `updatedAt` of the version
 * the form was opened on (ISO 8601 with offset, see expectedUpdatedAt()). Optional for API compatibility; when given, the save is refused
 * with 409 COURSE_EDIT_CONFLICT if the course changed since (compared at millisecond precision).
 * Built in a pure function call, so that the browser, which never edits with it, drops it and zod's ISO date-time
 * format (issue #17).
 */
export const CourseUpdateSchema = /*#__PURE__*/ (() => z.extend(CourseInputSchema, {
  /** updatedAt of the version being edited; omitted = overwrite without a check. */
  expectedUpdatedAt: expectedUpdatedAt(),
}))();
export type CourseUpdate = z.input<typeof CourseUpdateSchema>;
