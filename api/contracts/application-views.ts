/**
 * Response contracts of the applicant side (spec §4 application and status, §7 endpoints): an application as the
 * API returns it, its course, payment, timeline and uploads, and the bodies of GET /api/applications,
 * GET /api/applications/{id} and GET/POST /api/uploads. Dates are ISO 8601 strings, amounts decimal strings
 * ('50.00'), sizes bytes. Islands import the types only (`import type`), so no schema code ships with them;
 * the API tests parse real responses with the schemas (applications/responses.test.ts).
 * Written with `zod/mini` like the request contracts.
 */
import * as z from 'zod/mini';

const isoOrNull = () => z.nullable(z.string());

/** The course an application is for (name = title, kept for the spec's payload). */
export const CourseSummarySchema = z.object({
  id: z.number(), title: z.string(), name: z.string(), department: z.string(), duration: z.nullable(z.number()), startDate: z.nullable(z.string()),
});
export type CourseSummary = z.output<typeof CourseSummarySchema>;

/** The recorded simulated payment: never a card number or CVC, only the last four digits (DESIGN §4 Payment). */
export const PaymentViewSchema = z.object({
  applicationId: z.number(), method: z.string(), last4: z.nullable(z.string()), reference: z.string(),
  amount: z.string(), currency: z.string(), status: z.string(), createdAt: isoOrNull(),
});
export type PaymentView = z.output<typeof PaymentViewSchema>;

/** One status change on the timeline; `notes` only for admins. */
export const TimelineEntrySchema = z.object({
  fromStatus: z.nullable(z.string()), toStatus: z.string(), createdAt: isoOrNull(), notes: z.optional(z.nullable(z.string())),
});
export type TimelineEntry = z.output<typeof TimelineEntrySchema>;

/** What clients see of an upload: `size` in bytes, `sha256` hex of the stored bytes (null for old rows). */
export const UploadViewSchema = z.object({
  id: z.string(), name: z.string(), mime: z.string(), size: z.number(), createdAt: z.string(), sha256: z.nullable(z.string()),
});
export type UploadView = z.output<typeof UploadViewSchema>;

const institution = () => z.optional(z.record(z.string(), z.string()));
/** NSC results as entered (issue #18): subject code, percent 0–100, optional display name. */
const nscResults = () => z.optional(z.array(z.object({ subject: z.string(), percent: z.number(), name: z.optional(z.string()) })));

/**
 * An application (spec §4). `progress` 0–100 per status; `notes`, `eligible` and `eligibilityReasons` only for
 * admins; `enteredBy` set when college staff entered it for the applicant.
 */
export const ApplicationViewSchema = z.object({
  id: z.number(), userId: z.number(), courseId: z.number(), status: z.string(), progress: z.number(),
  personal: z.record(z.string(), z.string()),
  academicHistory: z.looseObject({ highSchool: institution(), college: institution(), nscResults: nscResults() }),
  documents: z.record(z.string(), z.string()),
  paymentStatus: z.string(), paymentAmount: z.string(),
  submittedAt: isoOrNull(), updatedAt: isoOrNull(), createdAt: isoOrNull(),
  notes: z.optional(z.nullable(z.string())),
  aps: z.nullable(z.number()),
  eligible: z.optional(z.nullable(z.boolean())), eligibilityReasons: z.optional(z.array(z.string())),
  enteredBy: z.nullable(z.object({ name: z.string(), campus: z.nullable(z.string()) })),
  course: z.nullable(CourseSummarySchema),
});
export type ApplicationView = z.output<typeof ApplicationViewSchema>;

/**
 * One item of GET /api/applications: the application with its payment and `rejectedDocuments`, the slot keys whose
 * current document's latest review rejected it ([] when none).
 */
export const ApplicationListItemSchema = z.extend(ApplicationViewSchema, { payment: z.nullable(PaymentViewSchema), rejectedDocuments: z.array(z.string()) });
export type ApplicationListItem = z.output<typeof ApplicationListItemSchema>;

/** GET /api/applications → {applications}, newest first. */
export const ApplicationListSchema = z.object({ applications: z.array(ApplicationListItemSchema) });

/** GET /api/applications/{id}: documents per slot (null when the file record is gone). */
export const ApplicationDetailSchema = z.object({
  application: ApplicationViewSchema,
  timeline: z.array(TimelineEntrySchema),
  documents: z.record(z.string(), z.nullable(UploadViewSchema)),
  payment: z.nullable(PaymentViewSchema),
});
export type ApplicationDetail = z.output<typeof ApplicationDetailSchema>;
