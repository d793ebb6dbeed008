/**
 * External administration system contracts (spec §2 External pages, §3 External branch/student/payment,
 * §4 External login, §5 External payment, §7 /api/external/*). Shared by the API, the islands and the
 * http driver (which validates what the remote system answers with the same shapes). Imports only zod (and the zod-free option lists in external-options.ts and amount parsing in money-input.ts; the phone rule from phone.ts).
 */
import { z } from 'zod';
import { EXTERNAL_CURRENCIES, EXTERNAL_PAYMENT_METHODS, EXTERNAL_STUDENT_STATUSES } from './external-options.ts';
import { normaliseAmountText, toTwoDecimals } from './money-input.ts';
import { IdSchema, pageQuerySchema, type PageInfo, type PageQuery } from './common.ts';
import { isReservedEmail, RESERVED_EMAIL_MESSAGE } from './mailbox.ts';
import { isPhoneText, PHONE_CHARS_MESSAGE, tidyPhone } from './phone.ts';

export const ExternalStudentStatusSchema = z.enum(EXTERNAL_STUDENT_STATUSES);

/** Largest single payment accepted, in currency units (the ledger column is numeric(12,2)). */
export const MAX_PAYMENT_AMOUNT = 1_000_000_000;

/** External ids are opaque strings chosen by the driver (the local driver uses row numbers). */
export const ExternalIdSchema = z.string().trim().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'Invalid id');
export const ExternalIdParamSchema = z.object({ id: ExternalIdSchema });

/** POST /api/external/login. */
export const ExternalLoginSchema = z.object({
  email: z.string({ error: 'Please enter a valid email address' }).trim().toLowerCase()
    .pipe(z.email({ error: 'Please enter a valid email address' })).describe('external account e-mail'),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(128, 'Password is too long')
    .describe('external account password'),
});
export type ExternalLogin = z.input<typeof ExternalLoginSchema>;

/** Rows per page of the external lists unless the caller asks otherwise. */
export const EXTERNAL_PAGE_SIZE = 50;
/** page (1-based) and pageSize (1–100, default 50) of the external lists (volume audit: no silent cap). */
export const ExternalPageQuerySchema = pageQuerySchema(EXTERNAL_PAGE_SIZE);
/** A page of an external list (PageQuery). */
export type ExternalPageQuery = PageQuery;

/** GET /api/external/students query: free-text search on name, email, course, campus; status filter; the page. */
export const ExternalStudentsQuerySchema = ExternalPageQuerySchema.extend({
  search: z.string().trim().max(100, 'Search is too long').optional().default('').describe('case-insensitive text'),
  status: z.union([ExternalStudentStatusSchema, z.literal(''), z.literal('all')]).optional().default('')
    .transform((v) => (v === 'all' ? '' : v)).describe('one of active, pending, graduated, withdrawn; empty for all'),
});
export type ExternalStudentsQuery = z.output<typeof ExternalStudentsQuerySchema>;

/** The paging part of an external list answer (PageInfo: `total` rows match, 1 ≤ `page` ≤ `pages`). */
export type ExternalPageInfo = PageInfo;

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
/** Optional trimmed text, blank → undefined; `nfc` for a person's text (an address: one spelling however it was typed). */
const optionalText = (max: number, label: string, opts: { nfc?: boolean } = {}) => z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  (opts.nfc ? z.string().trim().normalize('NFC') : z.string().trim()).max(max, `${label} must be at most ${max} characters`).optional(),
);

/**
 * Amount: a number or a decimal string in currency units, > 0, at most 2 decimals, ≤ MAX_PAYMENT_AMOUNT.
 * Typed the South African way too (normaliseAmountText in money-input.ts): an optional leading 'R', spaces or
 * thin spaces grouping thousands, one decimal comma or point ('R1 250,50', '1 250,00', '1,250.00'). A lone comma
 * is the decimal mark, so '1,25' = 1.25 and '1,250' (three decimals) is refused rather than guessed.
 * Output is a normalised string with two decimals ('1500.00') so no float ever reaches the ledger.
 */
export const PaymentAmountSchema = z.preprocess(
  (v) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' ? v.trim() : v),
  z.string({ error: 'Amount is required' }).min(1, 'Amount is required')
    .transform((v) => normaliseAmountText(v))
    .pipe(z.string({ error: 'Amount must be a number' })
      .refine((v) => Number(v) > 0, 'Amount must be greater than 0')
      .refine((v) => !/\.\d{3,}$/.test(v), 'Amount can have at most 2 decimal places')
      .refine((v) => Number(v) <= MAX_PAYMENT_AMOUNT, 'Amount is too large')
      .transform(toTwoDecimals)),
);

/** Message for a currency the add-payment form does not offer (EXTERNAL_CURRENCIES). */
export const CURRENCY_MESSAGE = `Currency must be one of ${EXTERNAL_CURRENCIES.join(', ')}`;

/** POST /api/external/payments (spec §5 External payment). */
export const ExternalPaymentInputSchema = z.object({
  studentId: z.preprocess((v) => (typeof v === 'number' ? String(v) : blankToUndefined(v)),
    z.string({ error: 'Student is required' }).trim().min(1, 'Student is required')
      .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'Student not found')).describe('external student id'),
  amount: PaymentAmountSchema.describe('currency units, > 0, at most 2 decimals'),
  currency: z.preprocess((v) => (v === undefined || v === null || v === '' ? 'ZAR' : typeof v === 'string' ? v.trim().toUpperCase() : v),
    z.enum(EXTERNAL_CURRENCIES, { error: CURRENCY_MESSAGE })).describe('one of EXTERNAL_CURRENCIES (the form\'s list), default ZAR'),
  method: z.preprocess((v) => (v === undefined ? 'card' : v),
    z.enum(EXTERNAL_PAYMENT_METHODS, { error: 'Payment method is required' })).describe('default card'),
  description: optionalText(500, 'Description'),
  reference: optionalText(64, 'Reference'),
  idempotencyKey: optionalText(128, 'Idempotency key').describe('alternative to the Idempotency-Key header'),
});
export type ExternalPaymentInput = z.input<typeof ExternalPaymentInputSchema>;
export type ExternalPaymentData = z.output<typeof ExternalPaymentInputSchema>;

/** POST /api/external/students: enrol someone directly (walk-in); from-application is the usual way. */
export const ExternalStudentInputSchema = z.object({
  /** NFC-normalised after trimming: a name typed decomposed (ṱ as t + U+032D) and composed is one name. */
  name: z.string({ error: 'Name is required' }).trim().normalize('NFC').min(2, 'Name must be at least 2 characters').max(160, 'Name is too long'),
  email: z.string({ error: 'Please enter a valid email address' }).trim().toLowerCase().pipe(z.email({ error: 'Please enter a valid email address' }))
    .refine((v) => !isReservedEmail(v), RESERVED_EMAIL_MESSAGE),
  /** Optional, at most 30 characters; digits, spaces, ( ) - . and a leading + only (phone.ts, PHONE_CHARS_MESSAGE). */
  phone: z.preprocess(
    (v) => (typeof v === 'string' ? tidyPhone(v) || undefined : v),
    z.string().max(30, 'Phone must be at most 30 characters').refine(isPhoneText, PHONE_CHARS_MESSAGE).optional(),
  ),
  address: optionalText(300, 'Address', { nfc: true }),
  branchId: ExternalIdSchema.describe('branch (campus) id'),
  course: z.string({ error: 'Course is required' }).trim().min(1, 'Course is required').max(200, 'Course is too long'),
  status: ExternalStudentStatusSchema.optional().default('active'),
});
export type ExternalStudentInput = z.output<typeof ExternalStudentInputSchema>;

/** POST /api/external/students/from-application/:applicationId body: the campus to enrol at. */
export const FromApplicationSchema = z.object({
  branchId: ExternalIdSchema.optional().describe('branch id; default the first branch (the main campus)'),
});
export const ApplicationIdParamSchema = z.object({ applicationId: IdSchema });

// ---- Shapes the API answers with (and the http driver expects from the remote system) ----

/** spec §3 External branch. established: a year. studentCount: students with status active. */
export const ExternalBranchSchema = z.object({
  id: z.coerce.string(), name: z.string(), location: z.string(), established: z.coerce.number().int(), studentCount: z.coerce.number().int().min(0),
});
export type ExternalBranch = z.infer<typeof ExternalBranchSchema>;

/** spec §3 External student. enrollmentDate: 'YYYY-MM-DD'. */
export const ExternalStudentSchema = z.object({
  id: z.coerce.string(), name: z.string(), email: z.string(), phone: z.string().nullable().default(null),
  address: z.string().nullable().default(null), campus: z.string(), course: z.string(),
  status: ExternalStudentStatusSchema, enrollmentDate: z.string(),
});
export type ExternalStudent = z.infer<typeof ExternalStudentSchema>;

/** spec §3 External payment. amount: string with 2 decimals; date: ISO 8601. */
export const ExternalPaymentSchema = z.object({
  id: z.coerce.string(), reference: z.string(), studentName: z.string(), studentId: z.coerce.string(),
  amount: z.union([z.string(), z.number()]).transform((v) => Number(v).toFixed(2)), currency: z.string(),
  method: z.enum(EXTERNAL_PAYMENT_METHODS), date: z.string(), status: z.string(),
  branchName: z.string().nullable().default(null), description: z.string().nullable().default(null),
});
export type ExternalPayment = z.infer<typeof ExternalPaymentSchema>;

/** The external account the admin is connected as. */
export const ExternalUserSchema = z.object({ id: z.coerce.string(), email: z.string(), name: z.string() });
export type ExternalUser = z.infer<typeof ExternalUserSchema>;

/** Sum of payments in one currency; amount has two decimals. */
export interface CurrencyTotal { currency: string; amount: string; count: number }
/**
 * A CurrencyTotal as the http driver's remote sends it (README http driver contract): `amount` a number or a decimal
 * string, normalised to two decimals ('1500.00'); `count` a whole number ≥ 0 (numeric strings accepted).
 */
export const CurrencyTotalSchema = z.object({ currency: z.string(), amount: z.union([z.string(), z.number()]).transform((v) => Number(v).toFixed(2)), count: z.coerce.number().int().min(0) });

/** GET /api/external/enrolable-applications query: APP-id, applicant name or e-mail (empty: the newest). */
export const EnrolableApplicationsQuerySchema = z.object({
  q: z.string().trim().max(100, 'Search is too long').optional().default('').describe('APP-{id}, {id}, name or e-mail, case-insensitive'),
});
/** An accepted application the "Enrol accepted applicant" picker offers. */
export interface EnrolableApplication { id: number; name: string; email: string; course: string | null; createdAt: string }
/** GET /api/external/enrolable-applications → the first matches (newest first) and how many match in all. */
export interface EnrolableApplicationsPage { applications: EnrolableApplication[]; total: number }

/** GET /api/external/students → one page of students. */
export interface ExternalStudentsPage extends ExternalPageInfo { students: ExternalStudent[] }
/** GET /api/external/branches/{id}/students → the branch and one page of its students. */
export interface ExternalBranchStudentsPage extends ExternalPageInfo { branch: ExternalBranch; students: ExternalStudent[] }
/** GET /api/external/payments → one page of payments (newest first) and the totals per currency of every payment. */
export interface ExternalPaymentsPage extends ExternalPageInfo { payments: ExternalPayment[]; totals: CurrencyTotal[] }

/** Error codes the external routes add to the common error shape. */
export const EXTERNAL_ERROR = {
  loginRequired: 'external_login_required',
  loginFailed: 'external_login_failed',
  unavailable: 'external_unavailable',
  timeout: 'external_timeout',
} as const;
