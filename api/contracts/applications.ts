/**
 * Application contracts: the wizard's step schemas (spec §5 Steps 1–4) and the submit payload.
 * The server ignores status, paymentStatus, paymentAmount and userId from the client (DESIGN §4).
 */
import { z } from 'zod';
import { APPLICATION_STATUSES, COUNTRY_CODES } from './common.ts';

export const YEAR_MIN = 1990;
export const YEAR_MAX = 2023;

const year = (required: string) => z.string({ error: required }).trim().min(1, required)
  .refine((v) => /^\d{4}$/.test(v) && Number(v) >= YEAR_MIN && Number(v) <= YEAR_MAX, `Year must be between ${YEAR_MIN} and ${YEAR_MAX}`);
const optYear = () => z.string().trim().optional().default('')
  .refine((v) => v === '' || (/^\d{4}$/.test(v) && Number(v) >= YEAR_MIN && Number(v) <= YEAR_MAX), `Year must be between ${YEAR_MIN} and ${YEAR_MAX}`);

export const PersonalStepSchema = z.object({
  courseId: z.coerce.number({ error: 'Please select a course' }).int('Please select a course').positive('Please select a course'),
  firstName: z.string().trim().min(2, 'First name must be at least 2 characters'),
  lastName: z.string().trim().min(2, 'Last name must be at least 2 characters'),
  email: z.string().trim().toLowerCase().pipe(z.email({ error: 'Please enter a valid email address' })),
  phone: z.string().trim().min(10, 'Phone number must be at least 10 characters'),
  dateOfBirth: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Please enter a valid date in YYYY-MM-DD format'),
  nationality: z.enum(COUNTRY_CODES, { error: 'Please select a nationality' }),
  addressLine1: z.string().trim().min(5, 'Address must be at least 5 characters'),
  addressLine2: z.string().trim().optional().default(''),
  city: z.string().trim().min(2, 'City must be at least 2 characters'),
  state: z.string().trim().min(2, 'State/Province must be at least 2 characters'),
  postalCode: z.string().trim().min(2, 'Postal code must be at least 2 characters'),
  country: z.enum(COUNTRY_CODES, { error: 'Please select a country' }),
});
export type PersonalStep = z.input<typeof PersonalStepSchema>;

export const HighSchoolSchema = z.object({
  name: z.string({ error: 'High school name is required' }).trim().min(1, 'High school name is required'),
  city: z.string({ error: 'City is required' }).trim().min(1, 'City is required'),
  country: z.string({ error: 'Country is required' }).trim().min(1, 'Country is required'),
  from: year('Start year is required'),
  to: year('End year is required'),
  qualification: z.string({ error: 'Qualification is required' }).trim().min(1, 'Qualification is required'),
  grade: z.string({ error: 'Grade is required' }).trim().min(1, 'Grade is required'),
});
export const CollegeSchema = z.object({
  name: z.string().trim().optional().default(''),
  city: z.string().trim().optional().default(''),
  country: z.string().trim().optional().default(''),
  from: optYear(),
  to: optYear(),
  qualification: z.string().trim().optional().default(''),
  grade: z.string().trim().optional().default(''),
});
export const AcademicStepSchema = z.object({
  academicHistory: z.object({ highSchool: HighSchoolSchema, college: CollegeSchema.optional() }),
});
export type AcademicStep = z.input<typeof AcademicStepSchema>;

/** Document slots, spec §3; values are upload ids (DESIGN §4 Documents). */
export const DOCUMENT_SLOTS = [
  { key: 'idDocument', label: 'ID Document', required: true },
  { key: 'transcripts', label: 'Qualifications Documents', required: true },
  { key: 'englishProficiency', label: 'Matric Statements', required: false },
  { key: 'recommendationLetter', label: 'CV or Resume', required: false },
] as const;
const uploadId = () => z.string().regex(/^[A-Za-z0-9_-]{10,64}$/, 'Invalid document reference');
export const DocumentsStepSchema = z.object({
  documents: z.object({
    idDocument: uploadId().or(z.literal('')).refine((v) => v !== '', 'ID document is required'),
    transcripts: uploadId().or(z.literal('')).refine((v) => v !== '', 'Qualifications documents are required'),
    englishProficiency: uploadId().optional().or(z.literal('')).transform((v) => v || undefined),
    recommendationLetter: uploadId().optional().or(z.literal('')).transform((v) => v || undefined),
  }, { error: 'ID document is required' }),
});
export type DocumentsStep = z.input<typeof DocumentsStepSchema>;

export const PaymentStepSchema = z.object({
  paymentMethod: z.enum(['card', 'paypal']).default('card'),
  cardNumber: z.string().optional().default(''),
  cardExpiry: z.string().optional().default(''),
  cardCvc: z.string().optional().default(''),
  cardName: z.string().optional().default(''),
  paymentTerms: z.literal(true, { error: 'You must agree to the payment terms' }),
});
export type PaymentStep = z.input<typeof PaymentStepSchema>;

export const ReviewStepSchema = z.object({
  certification: z.literal(true, { error: 'You must certify that the information is true' }),
});

/** The submit payload the server validates. Unknown keys (status, userId, paymentAmount…) are stripped. */
export const ApplicationSubmitSchema = PersonalStepSchema
  .extend(AcademicStepSchema.shape)
  .extend(DocumentsStepSchema.shape)
  .extend({ payment: PaymentStepSchema })
  .extend({ certification: z.literal(true, { error: 'You must certify that the information is true' }).optional().default(true) });
export type ApplicationSubmit = z.input<typeof ApplicationSubmitSchema>;

export const StatusUpdateSchema = z.object({
  status: z.enum(APPLICATION_STATUSES, { error: 'Please select a valid status' }),
  notes: z.string().trim().max(2000).optional().default(''),
});
export type StatusUpdate = z.input<typeof StatusUpdateSchema>;
