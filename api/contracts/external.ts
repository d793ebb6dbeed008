/**
 * External administration system contracts (spec §2 External pages, §3 External branch/student/payment,
 * §4 External login, §5 External payment, §7 /api/external/*). Shared by the API, the islands and the
 * http driver (which validates what the remote system answers with the same shapes). Imports only zod (and the zod-free option lists in external-options.ts and amount parsing in money-input.ts; the phone rule from phone.ts).
 * Written with `zod/mini`: the external login and payment forms validate with it.
 */
import * as z from 'zod/mini';
import { EXTERNAL_CURRENCIES, EXTERNAL_PAYMENT_METHODS, EXTERNAL_STUDENT_STATUSES } from './external-options.ts';
import { normaliseAmountText, toTwoDecimals } from './money-input.ts';
import { IdSchema, pageQuerySchema, type PageInfo, type PageQuery } from './common.ts';
import { isReservedEmail, RESERVED_EMAIL_MESSAGE } from './mailbox.ts';
import { isPhoneText, PHONE_CHARS_MESSAGE, tidyPhone } from './phone-text.ts';

export const ExternalStudentStatusSchema = z.enum(EXTERNAL_STUDENT_STATUSES);

/** Largest single payment accepted, in currency units (the ledger column is numeric(12,2)). */
export const MAX_PAYMENT_AMOUNT = 1_000_000_000;

/** External ids are opaque strings chosen by the driver (the local driver uses row numbers). */
export const ExternalIdSchema = z.string().check(z.trim(), z.regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'Invalid id'));
export const ExternalIdParamSchema = z.object({ id: ExternalIdSchema });

/** POST /api/external/login. */
export const ExternalLoginSchema = z.object({
  /** External account e-mail. */
  email: z.pipe(
    z.string({ error: 'Please enter a valid email address' }).check(z.trim(), z.toLowerCase()),
    z.email({ error: 'Please enter a valid email address' }),
  ),
  /** External account password. */
  password: z.string({ error: 'Password is required' }).check(z.minLength(1, 'Password is required'), z.maxLength(128, 'Password is too long')),
});
export type ExternalLogin = z.input<typeof ExternalLoginSchema>;

/** Rows per page of the external lists unless the caller asks otherwise. */
export const EXTERNAL_PAGE_SIZE = 50;
/** page (1-based) and pageSize (1–100, default 50) of the external lists (volume audit: no silent cap). */
export const ExternalPageQuerySchema = pageQuerySchema(EXTERNAL_PAGE_SIZE);
/** A page of an external list (PageQuery). */
export type ExternalPageQuery = PageQuery;

/** GET /api/external/students query: free-text search on name, email, course, campus; status filter; the page. */
export const ExternalStudentsQuerySchema = z.extend(ExternalPageQuerySchema, {
  /** Case-insensitive text. */
  search: z._default(z.optional(z.string().check(z.trim(), z.maxLength(100, 'Search is too long'))), ''),
  /** One of active, pending, graduated, withdrawn; empty for all. */
  status: z.pipe(
    z._default(z.optional(z.union([ExternalStudentStatusSchema, z.literal(''), z.literal('all')])), ''),
    z.transform((v: z.output<typeof ExternalStudentStatusSchema> | '' | 'all') => (v === 'all' ? '' : v)),
  ),
});
export type ExternalStudentsQuery = z.output<typeof ExternalStudentsQuerySchema>;

/** The paging part of an external list answer (PageInfo: `total` rows match, 1 ≤ `page` ≤ `pages`). */
export type ExternalPageInfo = PageInfo;

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
/** Optional trimmed text, blank → undefined; `nfc` for a person's text (an address: one spelling however it was typed). */
const optionalText = (max: number, label: string, opts: { nfc?: boolean } = {}) => z.pipe(
  z.transform((v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v)),
  z.optional(z.string().check(z.trim(), ...(opts.nfc ? [z.normalize('NFC')] : []), z.maxLength(max, `${label} must be at most ${max} characters`))),
);

/**
 * Amount: a number or a decimal string in currency units, > 0, at most 2 decimals, ≤ MAX_PAYMENT_AMOUNT.
 * Typed the South African way too (normaliseAmountText in money-input.ts): an optional leading 'R', spaces or
 * thin spaces grouping thousands, one decimal comma or point ('R1 250,50', '1 250,00', '1,250.00'). A lone comma
 * is the decimal mark, so '1,25' = 1.25 and '1,250' (three decimals) is refused rather than guessed.
 * Output is a normalised string with two decimals ('1500.00') so no float ever reaches the ledger.
 */
export const PaymentAmountSchema = z.pipe(
  z.transform((v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' ? v.trim() : v)),
  z.pipe(
    z.pipe(z.string({ error: 'Amount is required' }).check(z.minLength(1, 'Amount is required')), z.transform((v: string) => normaliseAmountText(v))),
    z.pipe(
      z.string({ error: 'Amount must be a number' }).check(
        z.refine((v) => Number(v) > 0, 'Amount must be greater than 0'),
        z.refine((v) => !/\.\d{3,}$/.test(v), 'Amount can have at most 2 decimal places'),
        z.refine((v) => Number(v) <= MAX_PAYMENT_AMOUNT, 'Amount is too large'),
      ),
      z.transform(toTwoDecimals),
    ),
  ),
);

/** Message for a currency the add-payment form does not offer (EXTERNAL_CURRENCIES). */
export const CURRENCY_MESSAGE = `Currency must be one of ${EXTERNAL_CURRENCIES.join(', ')}`;

/** POST /api/external/payments (spec §5 External payment). */
export const ExternalPaymentInputSchema = z.object({
  /** External student id. */
  studentId: z.pipe(z.transform((v: unknown) => (typeof v === 'number' ? String(v) : blankToUndefined(v))),
    z.string({ error: 'Student is required' }).check(z.trim(), z.minLength(1, 'Student is required'), z.regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'Student not found'))),
  /** Currency units, > 0, at most 2 decimals. */
  amount: PaymentAmountSchema,
  /** One of EXTERNAL_CURRENCIES (the form's list), default ZAR. */
  currency: z.pipe(z.transform((v: unknown) => (v === undefined || v === null || v === '' ? 'ZAR' : typeof v === 'string' ? v.trim().toUpperCase() : v)),
    z.enum(EXTERNAL_CURRENCIES, { error: CURRENCY_MESSAGE })),
  /** Default card. */
  method: z.pipe(z.transform((v: unknown) => (v === undefined ? 'card' : v)), z.enum(EXTERNAL_PAYMENT_METHODS, { error: 'Payment method is required' })),
  description: optionalText(500, 'Description'),
  reference: optionalText(64, 'Reference'),
  /** Alternative to the Idempotency-Key header. */
  idempotencyKey: optionalText(128, 'Idempotency key'),
});
export type ExternalPaymentInput = z.input<typeof ExternalPaymentInputSchema>;
export type ExternalPaymentData = z.output<typeof ExternalPaymentInputSchema>;

/** POST /api/external/students: enrol someone directly (walk-in); from-application is the usual way. */
export const ExternalStudentInputSchema = z.object({
  /** NFC-normalised after trimming: a name typed decomposed (ṱ as t + U+032D) and composed is one name. */
  name: z.string({ error: 'Name is required' })
    .check(z.trim(), z.normalize('NFC'), z.minLength(2, 'Name must be at least 2 characters'), z.maxLength(160, 'Name is too long')),
  email: z.pipe(
    z.string({ error: 'Please enter a valid email address' }).check(z.trim(), z.toLowerCase()),
    z.email({ error: 'Please enter a valid email address' }),
  ).check(z.refine((v) => !isReservedEmail(v), RESERVED_EMAIL_MESSAGE)),
  /** Optional, at most 30 characters; digits, spaces, ( ) - . and a leading + only (phone.ts, PHONE_CHARS_MESSAGE). */
  phone: z.pipe(
    z.transform((v: unknown) => (typeof v === 'string' ? tidyPhone(v) || undefined : v)),
    z.optional(z.string().check(z.maxLength(30, 'Phone must be at most 30 characters'), z.refine(isPhoneText, PHONE_CHARS_MESSAGE))),
  ),
  address: optionalText(300, 'Address', { nfc: true }),
  /** Branch (campus) id. */
  branchId: ExternalIdSchema,
  course: z.string({ error: 'Course is required' }).check(z.trim(), z.minLength(1, 'Course is required'), z.maxLength(200, 'Course is too long')),
  status: z._default(z.optional(ExternalStudentStatusSchema), 'active'),
});
export type ExternalStudentInput = z.output<typeof ExternalStudentInputSchema>;

/** POST /api/external/students/from-application/:applicationId body: the campus to enrol at. */
export const FromApplicationSchema = z.object({
  /** Branch id; default the first branch (the main campus). */
  branchId: z.optional(ExternalIdSchema),
});
export const ApplicationIdParamSchema = z.object({ applicationId: IdSchema });

// ---- Shapes the API answers with (and the http driver expects from the remote system) ----
// Each built in a pure function call: the browser, which only takes their types, drops them whole (issue #17).

/** spec §3 External branch. established: a year. studentCount: students with status active. */
export const ExternalBranchSchema = /*#__PURE__*/ (() => z.object({
  id: z.coerce.string(), name: z.string(), location: z.string(),
  established: z.coerce.number().check(z.int()), studentCount: z.coerce.number().check(z.int(), z.gte(0)),
}))();
export type ExternalBranch = z.infer<typeof ExternalBranchSchema>;

/** spec §3 External student. enrollmentDate: 'YYYY-MM-DD'. */
export const ExternalStudentSchema = /*#__PURE__*/ (() => z.object({
  id: z.coerce.string(), name: z.string(), email: z.string(), phone: z._default(z.nullable(z.string()), null),
  address: z._default(z.nullable(z.string()), null), campus: z.string(), course: z.string(),
  status: ExternalStudentStatusSchema, enrollmentDate: z.string(),
}))();
export type ExternalStudent = z.infer<typeof ExternalStudentSchema>;

/** spec §3 External payment. amount: string with 2 decimals; date: ISO 8601. */
export const ExternalPaymentSchema = /*#__PURE__*/ (() => z.object({
  id: z.coerce.string(), reference: z.string(), studentName: z.string(), studentId: z.coerce.string(),
  amount: z.pipe(z.union([z.string(), z.number()]), z.transform((v: string | number) => Number(v).toFixed(2))), currency: z.string(),
  method: z.enum(EXTERNAL_PAYMENT_METHODS), date: z.string(), status: z.string(),
  branchName: z._default(z.nullable(z.string()), null), description: z._default(z.nullable(z.string()), null),
}))();
export type ExternalPayment = z.infer<typeof ExternalPaymentSchema>;

/** The external account the admin is connected as. */
export const ExternalUserSchema = /*#__PURE__*/ (() => z.object({ id: z.coerce.string(), email: z.string(), name: z.string() }))();
export type ExternalUser = z.infer<typeof ExternalUserSchema>;

/** Sum of payments in one currency; amount has two decimals. */
export interface CurrencyTotal { currency: string; amount: string; count: number }
/**
 * A CurrencyTotal as the http driver's remote sends it (README http driver contract): `amount` a number or a decimal
 * string, normalised to two decimals ('1500.00'); `count` a whole number ≥ 0 (numeric strings accepted).
 */
export const CurrencyTotalSchema = /*#__PURE__*/ (() => z.object({
  currency: z.string(), amount: z.pipe(z.union([z.string(), z.number()]), z.transform((v: string | number) => Number(v).toFixed(2))),
  count: z.coerce.number().check(z.int(), z.gte(0)),
}))();

/** GET /api/external/enrolable-applications query: APP-id, applicant name or e-mail (empty: the newest). */
export const EnrolableApplicationsQuerySchema = z.object({
  /** APP-{id}, {id}, name or e-mail, case-insensitive. */
  q: z._default(z.optional(z.string().check(z.trim(), z.maxLength(100, 'Search is too long'))), ''),
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
