/**
 * Application contracts: the wizard's step schemas (spec §5 Steps 1–4) and the submit payload.
 * The server ignores status, paymentStatus, paymentAmount and userId from the client (DESIGN §4).
 * Written with `zod/mini` (same engine and messages as `zod`, a fraction of the bytes) because the /apply
 * island validates with these schemas in the browser (issue #5: small JS on a cheap phone).
 */
import * as z from 'zod/mini';
import { APPLICATION_STATUSES } from './statuses.ts';
import { COUNTRY_CODES, DOCUMENT_SLOTS, WIZARD_STEPS, YEAR_MAX, YEAR_MIN } from './application-steps.ts';

export { DOCUMENT_SLOTS, WIZARD_STEPS, YEAR_MAX, YEAR_MIN };

const yearOk = (v: string) => /^\d{4}$/.test(v) && Number(v) >= YEAR_MIN && Number(v) <= YEAR_MAX;
const YEAR_MESSAGE = `Year must be between ${YEAR_MIN} and ${YEAR_MAX}`;
const year = (required: string) => z.string({ error: required }).check(z.trim(), z.minLength(1, required), z.refine(yearOk, YEAR_MESSAGE));
const optYear = () => z._default(z.optional(z.string().check(z.trim(), z.refine((v) => v === '' || yearOk(v), YEAR_MESSAGE))), '');
const optText = () => z._default(z.optional(z.string().check(z.trim())), '');
const minText = (n: number, message: string) => z.string({ error: message }).check(z.trim(), z.minLength(n, message));
const required = (message: string) => minText(1, message);

export const PersonalStepSchema = z.object({
  courseId: z.coerce.number({ error: 'Please select a course' }).check(z.refine(Number.isInteger, 'Please select a course'), z.positive('Please select a course'), z.lte(2147483647, 'Please select a course')),
  firstName: minText(2, 'First name must be at least 2 characters'),
  lastName: minText(2, 'Last name must be at least 2 characters'),
  email: z.pipe(z.string({ error: 'Please enter a valid email address' }).check(z.trim(), z.toLowerCase()), z.email({ error: 'Please enter a valid email address' })),
  phone: minText(10, 'Phone number must be at least 10 characters'),
  dateOfBirth: z.string({ error: 'Please enter a valid date in YYYY-MM-DD format' }).check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Please enter a valid date in YYYY-MM-DD format')),
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
});
export const CollegeSchema = z.object({
  name: optText(), city: optText(), country: optText(), from: optYear(), to: optYear(), qualification: optText(), grade: optText(),
});
export const AcademicStepSchema = z.object({
  academicHistory: z.object({ highSchool: HighSchoolSchema, college: z.optional(CollegeSchema) }),
});
export type AcademicStep = z.input<typeof AcademicStepSchema>;

const uploadId = () => z.string().check(z.regex(/^[A-Za-z0-9_-]{10,64}$/, 'Invalid document reference'));
const requiredDoc = (message: string) => z.union([uploadId(), z.literal('')], { error: message }).check(z.refine((v) => v !== '', message));
const optionalDoc = () => z.optional(z.pipe(z.union([uploadId(), z.literal('')]), z.transform((v) => v || undefined)));
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

/** The submit payload the server validates. Unknown keys (status, userId, paymentAmount…) are stripped. */
export const ApplicationSubmitSchema = z.extend(PersonalStepSchema, {
  ...AcademicStepSchema.shape,
  ...DocumentsStepSchema.shape,
  payment: PaymentStepSchema,
  certification: z._default(z.optional(z.literal(true, { error: CERTIFY })), true),
});
export type ApplicationSubmit = z.input<typeof ApplicationSubmitSchema>;

export const StatusUpdateSchema = z.object({
  status: z.enum(APPLICATION_STATUSES, { error: 'Please select a valid status' }),
  notes: z._default(z.optional(z.string().check(z.trim(), z.maxLength(2000, 'Notes must be at most 2000 characters'))), ''),
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
 * PUT /api/applications/draft?key=… body. `data` is the wizard's form state without card number or CVC
 * (the server strips them again); at most 64 KB once serialised.
 */
export const DraftBodySchema = z.object({
  step: z.number().check(z.refine(Number.isInteger, 'Invalid step'), z.gte(0, 'Invalid step'), z.lte(WIZARD_STEPS.length - 1, 'Invalid step')),
  data: z.record(z.string(), z.unknown()).check(z.refine((d) => JSON.stringify(d).length <= 65_536, 'Draft is too large')),
});
export type DraftBody = z.output<typeof DraftBodySchema>;
