/**
 * Application contracts: the wizard's step schemas (spec §5 Steps 1–4) and the submit payload.
 * The server ignores status, paymentStatus, paymentAmount and userId from the client (DESIGN §4).
 * Written with `zod/mini` (same engine and messages as `zod`, a fraction of the bytes) because the /apply
 * island validates with these schemas in the browser (issue #5: small JS on a cheap phone).
 */
import * as z from 'zod/mini';
import { APPLICATION_STATUSES } from './statuses.ts';
import { isReservedEmail, RESERVED_EMAIL_MESSAGE } from './mailbox.ts';
import { COUNTRY_CODES, DOCUMENT_SLOTS, DRAFT_CHANGED, DRAFT_OTHER_USER, WIZARD_STEPS, YEAR_MAX, YEAR_MIN, yearProblem } from './application-steps.ts';
import { yearsInOrder } from './cross-field.ts';
import { NscResultsSchema } from './nsc-schema.ts';
import { typedBirthDateProblem } from './auth-rules.ts';
import { personName } from './person-name.ts';
import { phone } from './phone.ts';
import { PHONE_MIN_MESSAGE } from './phone-text.ts';

export { DOCUMENT_SLOTS, DRAFT_CHANGED, DRAFT_OTHER_USER, WIZARD_STEPS, YEAR_MAX, YEAR_MIN };

/** Application step 1's date-of-birth message when the value is not 'YYYY-MM-DD' (spec §5 step 1). */
const DOB_FORMAT_MESSAGE = 'Please enter a valid date in YYYY-MM-DD format';

/** A year 1990..current year (DESIGN §6), checked when non-empty. */
const yearCheck = () => z.superRefine<string>((v, ctx) => { const p = v ? yearProblem(v) : null; if (p) ctx.addIssue({ code: 'custom', message: p, input: v }); });
const year = (required: string) => z.string({ error: required }).check(z.trim(), z.minLength(1, required), yearCheck());
const optYear = () => z._default(z.optional(z.string().check(z.trim(), yearCheck())), '');
const optText = () => z._default(z.optional(z.string().check(z.trim())), '');
/** Trimmed, NFC-normalised text of at least `n` UTF-16 units: a name typed decomposed (ṱ as t + U+032D) and composed is one name. */
const minText = (n: number, message: string) => z.string({ error: message }).check(z.trim(), z.normalize('NFC'), z.minLength(n, message));
const required = (message: string) => minText(1, message);

export const PersonalStepSchema = z.object({
  courseId: z.coerce.number({ error: 'Please select a course' }).check(z.refine(Number.isInteger, 'Please select a course'), z.positive('Please select a course'), z.lte(2147483647, 'Please select a course')),
  firstName: personName('First name'),
  lastName: personName('Last name'),
  email: z.pipe(z.string({ error: 'Please enter a valid email address' }).check(z.trim(), z.toLowerCase()), z.email({ error: 'Please enter a valid email address' }).check(z.refine((v) => !isReservedEmail(v), RESERVED_EMAIL_MESSAGE))),
  /** Spec §5 step 1: at least 10 characters, no upper bound; letters refused (phone.ts). */
  phone: phone(PHONE_MIN_MESSAGE, null),
  /**
   * 'YYYY-MM-DD' (spec §5 step 1: 'Please enter a valid date in YYYY-MM-DD format' when the shape is wrong), then the
   * shared typed date-of-birth rule of registration, profile and assessment (typedBirthDateProblem, auth-rules.ts): a real
   * calendar date, from 1900-01-01 and before today in South Africa.
   */
  dateOfBirth: z.string({ error: DOB_FORMAT_MESSAGE }).check(z.superRefine((v, ctx) => {
    const p = /^\d{4}-\d{2}-\d{2}$/.test(v) ? typedBirthDateProblem(v) : DOB_FORMAT_MESSAGE;
    if (p) ctx.addIssue({ code: 'custom', message: p, input: v });
  })),
  nationality: z.enum(COUNTRY_CODES, { error: 'Please select a nationality' }),
  addressLine1: minText(5, 'Address must be at least 5 characters'),
  addressLine2: optText(),
  city: minText(2, 'City must be at least 2 characters'),
  state: minText(2, 'State/Province must be at least 2 characters'),
  postalCode: minText(2, 'Postal code must be at least 2 characters'),
  country: z.enum(COUNTRY_CODES, { error: 'Please select a country' }),
});
export type PersonalStep = z.input<typeof PersonalStepSchema>;

export const HighSchoolSchema = z.object({
  name: required('High school name is required'),
  city: required('City is required'),
  country: required('Country is required'),
  from: year('Start year is required'),
  to: year('End year is required'),
  qualification: required('Qualification is required'),
  grade: required('Grade is required'),
}).check(yearsInOrder());
export const CollegeSchema = z.object({
  name: optText(), city: optText(), country: optText(), from: optYear(), to: optYear(), qualification: optText(), grade: optText(),
}).check(yearsInOrder());
export const AcademicStepSchema = z.object({
  /** nscResults: optional NSC subjects and percentages (issue #18), for the APS and course eligibility. */
  academicHistory: z.object({ highSchool: HighSchoolSchema, college: z.optional(CollegeSchema), nscResults: z.optional(NscResultsSchema) }),
});
export type AcademicStep = z.input<typeof AcademicStepSchema>;

/** An upload id (POST /api/uploads). */
export const UPLOAD_ID_PATTERN = /^[A-Za-z0-9_-]{10,64}$/;
/**
 * A base64 data URL, as spec §3 lets a client send a document ('data:application/pdf;base64,JVBER…'). The API
 * decodes it, applies the 5 MB and magic-byte rules and stores it as an upload (issue #14 point 2).
 */
export const DATA_URL_PATTERN = /^data:[a-z]+\/[a-z0-9.+-]+(;[a-z0-9-]+=[^;,]*)*;base64,[A-Za-z0-9+/]*={0,2}$/i;
export const UPLOAD_THE_DOCUMENT = 'Please upload the document';
const isDocumentRef = (v: string) => UPLOAD_ID_PATTERN.test(v) || DATA_URL_PATTERN.test(v);
const uploadId = () => z.string({ error: UPLOAD_THE_DOCUMENT }).check(z.refine(isDocumentRef, UPLOAD_THE_DOCUMENT));
const requiredDoc = (message: string) => z.union([z.literal(''), uploadId()], { error: message }).check(z.refine((v) => v !== '', message));
const optionalDoc = () => z.optional(z.pipe(z.union([z.literal(''), uploadId()], { error: UPLOAD_THE_DOCUMENT }), z.transform((v) => v || undefined)));
export const DocumentsStepSchema = z.object({
  documents: z.object({
    idDocument: requiredDoc('ID document is required'),
    transcripts: requiredDoc('Qualifications documents are required'),
    englishProficiency: optionalDoc(),
    recommendationLetter: optionalDoc(),
  }, { error: 'ID document is required' }),
});
export type DocumentsStep = z.input<typeof DocumentsStepSchema>;

export const PaymentStepSchema = z.object({
  paymentMethod: z._default(z.enum(['card', 'paypal']), 'card'),
  cardNumber: z._default(z.optional(z.string()), ''),
  cardExpiry: z._default(z.optional(z.string()), ''),
  cardCvc: z._default(z.optional(z.string()), ''),
  cardName: z._default(z.optional(z.string()), ''),
  paymentTerms: z.literal(true, { error: 'You must agree to the payment terms' }),
});
export type PaymentStep = z.input<typeof PaymentStepSchema>;

const CERTIFY = 'You must certify that the information is true';
export const ReviewStepSchema = z.object({ certification: z.literal(true, { error: CERTIFY }) });

/**
 * POST /api/applications body. It accepts the spec §7 body as written — userId, courseId, academicHistory,
 * documents, status, paymentStatus, paymentAmount — and the wizard's fuller one (DESIGN §6):
 * - personal details (step 1 fields) may be absent; the server takes them from the applicant's profile and then
 *   checks the merged set with PersonalStepSchema (400 naming what the profile lacks);
 * - documents are upload ids or base64 data URLs;
 * - payment (step 4) may be absent: the simulated payment is then recorded as card without card details;
 * - userId, status, paymentStatus and paymentAmount are stripped: the server decides them (DESIGN §4).
 */
export const ApplicationSubmitSchema = z.extend(z.partial(z.omit(PersonalStepSchema, { courseId: true })), {
  courseId: PersonalStepSchema.shape.courseId,
  ...AcademicStepSchema.shape,
  ...DocumentsStepSchema.shape,
  payment: z._default(z.optional(PaymentStepSchema), () => ({ paymentMethod: 'card' as const, cardNumber: '', cardExpiry: '', cardCvc: '', cardName: '', paymentTerms: true as const })),
  certification: z._default(z.optional(z.literal(true, { error: CERTIFY })), true),
});
export type ApplicationSubmit = z.input<typeof ApplicationSubmitSchema>;
/** Step 1 field names the profile can supply. */
export const PERSONAL_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'dateOfBirth', 'nationality', 'addressLine1', 'addressLine2', 'city', 'state', 'postalCode', 'country'] as const;

/**
 * PUT /api/admin/applications/:id/status body. `expectedStatus` is the status the admin's screen showed: when the
 * application has another one by then (a colleague or another tab decided meanwhile), the change is refused with 409
 * instead of overwriting that decision. Optional so older API callers keep working; the admin portal always sends it.
 */
export const StatusUpdateSchema = z.object({
  status: z.enum(APPLICATION_STATUSES, { error: 'Please select a valid status' }),
  notes: z._default(z.optional(z.string().check(z.trim(), z.maxLength(2000, 'Notes must be at most 2000 characters'))), ''),
  expectedStatus: z.optional(z.enum(APPLICATION_STATUSES, { error: 'Please reload the application and try again' })),
});
export type StatusUpdate = z.input<typeof StatusUpdateSchema>;

const optUpload = () => z.optional(uploadId());
/** PUT /api/applications/:id/documents (owner, only while documents_required): slots to add or replace. */
export const DocumentsUpdateSchema = z.object({
  documents: z.object({
    idDocument: optUpload(), transcripts: optUpload(), englishProficiency: optUpload(), recommendationLetter: optUpload(),
  }).check(z.refine((d) => Object.values(d).some(Boolean), 'Please upload at least one document')),
});
export type DocumentsUpdate = z.input<typeof DocumentsUpdateSchema>;

/** Draft key: 'course-<id>' or 'general' (an application started without a course in the URL). */
export const DraftKeySchema = z.object({ key: z.string({ error: 'Invalid draft key' }).check(z.regex(/^(general|course-\d{1,9})$/, 'Invalid draft key')) });

/**
 * DELETE /api/applications/draft query: the draft `key` and, optionally, `forUserId` — the id (decimal, 1..2^31-1)
 * of the account the wizard's draft belongs to. When it is not the session's user (another person logged in in
 * another tab of a shared browser) the delete is refused with 409 `draft_other_user` (DRAFT_OTHER_USER) and nothing
 * is deleted. Omitted (a wizard from before it existed, during a rolling deploy), the session's own draft is deleted.
 */
export const DraftDiscardQuerySchema = z.extend(DraftKeySchema, {
  forUserId: z.optional(z.pipe(
    z.string({ error: 'Invalid user' }).check(z.regex(/^[1-9]\d{0,9}$/, 'Invalid user')),
    z.pipe(z.transform(Number), z.number().check(z.lte(2147483647, 'Invalid user'))),
  )),
});

/**
 * PUT /api/applications/draft?key=… body. `data` is the wizard's form state without card number or CVC
 * (the server strips them again); at most 64 KB once serialised. `revision` is the stored draft's revision the
 * client's copy descends from (GET and PUT answer it); omitted, the client has seen no stored draft. The save is
 * refused with 409 DRAFT_CHANGED and the stored draft when a draft exists under another revision (lost update).
 * `forUserId` is the id of the account the wizard's draft belongs to: when it is not the session's user (another
 * person logged in in another tab of a shared browser), the save is refused with 409 `draft_other_user`
 * (DRAFT_OTHER_USER) and nothing is stored. Omitted (a wizard from before it existed), the session's user is assumed.
 */
export const DraftBodySchema = z.object({
  step: z.number().check(z.refine(Number.isInteger, 'Invalid step'), z.gte(0, 'Invalid step'), z.lte(WIZARD_STEPS.length - 1, 'Invalid step')),
  data: z.record(z.string(), z.unknown()).check(z.refine((d) => JSON.stringify(d).length <= 65_536, 'Draft is too large')),
  revision: z.optional(z.number().check(z.refine(Number.isInteger, 'Invalid draft revision'), z.gte(1, 'Invalid draft revision'), z.lte(2147483647, 'Invalid draft revision'))),
  forUserId: z.optional(z.number().check(z.refine(Number.isInteger, 'Invalid user'), z.gte(1, 'Invalid user'), z.lte(2147483647, 'Invalid user'))),
});
export type DraftBody = z.output<typeof DraftBodySchema>;
