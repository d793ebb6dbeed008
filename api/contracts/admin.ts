/** Admin portal contracts (issue #6): application list query, bulk decisions, stats, reports, students. */
import type { ApplicationView } from './application-views.ts';
import { z } from 'zod';
import { APPLICATION_STATUSES, pageQuerySchema, type PageInfo, type PageQuery } from './common.ts';

export const APPLICATION_SORTS = ['createdAt', 'id', 'status', 'applicant', 'course', 'aps'] as const;
/** Eligibility filter of the admin list (issue #18): unknown = no NSC results given. */
export const ELIGIBILITY_FILTERS = ['all', 'eligible', 'not_eligible', 'unknown'] as const;
export const PAGE_SIZES = [10, 20, 50, 100] as const;

/** GET /api/admin/applications (and the CSV export): search, filters, sorting, pagination. */
export const AdminApplicationsQuerySchema = z.object({
  ...pageQuerySchema(20).shape,
  q: z.string().trim().max(100).optional().default('').describe('Matches APP-{id}, applicant name/e-mail, course title'),
  status: z.enum([...APPLICATION_STATUSES, 'all']).optional().default('all'),
  courseId: z.union([z.literal(''), z.literal('all'), z.coerce.number().int().positive()]).optional()
    .transform((v) => (typeof v === 'number' ? v : undefined)),
  eligibility: z.enum(ELIGIBILITY_FILTERS).optional().default('all').describe('Meets the course\'s structured requirements (issue #18)'),
  sort: z.enum(APPLICATION_SORTS).optional().default('createdAt'),
  dir: z.enum(['asc', 'desc']).optional().default('desc'),
});
export type AdminApplicationsQuery = z.input<typeof AdminApplicationsQuerySchema>;

/** One row of the admin list. */
export interface AdminApplicationRow {
  id: number; status: string; paymentStatus: string; paymentAmount: string;
  createdAt: string; updatedAt: string;
  /** APS from the NSC results, null when none were given; eligible null likewise (issue #18). */
  aps: number | null; eligible: boolean | null; eligibilityReasons: string[];
  /** emailVerified false: the applicant never proved the address (admins see "e-mail not verified"). */
  applicant: { id: number; name: string; email: string; emailVerified: boolean };
  course: { id: number; title: string; department: string } | null;
}

/** GET /api/admin/applications → one page of rows; `pages` ≥ 1. */
export interface AdminApplicationsPage { applications: AdminApplicationRow[]; total: number; page: number; pageSize: number; pages: number }

/**
 * GET /api/admin/applications/{id}: the application (admin view, notes included), the applicant's contact details,
 * every status change with who made it (`changedBy`: id, display name and e-mail, since two admins may share a name;
 * null once the account is gone; admin-only, the student's timeline names nobody), the payment and the documents per slot (size in bytes, null when the
 * file record is gone). Dates ISO 8601.
 */
export interface AdminApplicationDetail {
  application: ApplicationView;
  applicant: { id: number; email: string; firstName: string; lastName: string; phone: string | null; addressLine1: string | null; city: string | null; country: string | null; createdAt: string; emailVerified?: boolean } | null;
  history: { id: number; fromStatus: string | null; toStatus: string; notes: string | null; createdAt: string; changedBy: { id: number; name: string; email: string } | null }[];
  payment: { method: string; last4: string | null; reference: string; amount: string; currency: string; status: string; createdAt: string } | null;
  documents: { slot: string; label: string; id: string; name: string | null; mime: string | null; size: number | null; url: string }[];
}

/** POST /api/admin/applications/bulk: quick Approve (accepted) / Reject for many; each item on its own. */
export const BulkDecisionSchema = z.object({
  ids: z.array(z.coerce.number().int().positive()).min(1, 'Select at least one application').max(200, 'Select at most 200 applications'),
  status: z.enum(['accepted', 'rejected'], { error: 'Please select a valid status' }),
  notes: z.string().trim().max(2000).optional().default(''),
});
export type BulkDecision = z.input<typeof BulkDecisionSchema>;
export interface BulkResult { id: number; ok: boolean; status?: string; error?: string }

/** GET /api/admin/contact-messages and /api/admin/assessment-bookings: page (1-based) and pageSize (1–100, default 25). */
export const AdminPageQuerySchema = pageQuerySchema(25);
/** A page of an admin list (PageQuery). */
export type AdminPageQuery = PageQuery;
/** The paging part of an admin list answer (PageInfo: `total` rows exist, 1 ≤ `page` ≤ `pages`). */
export type AdminPageInfo = PageInfo;

/** GET /api/admin/students: search (name, e-mail or phone), page (1-based) and pageSize (1–100, default 25). */
export const StudentsQuerySchema = z.object({
  ...pageQuerySchema(25).shape,
  q: z.string().trim().max(100).optional().default(''),
});

/** Dashboard figures (spec §2): rates are percentages 0–100 with one decimal; feesCollected 'NNN.NN'. */
export interface AdminStats {
  totals: { applications: number; students: number; courses: number; activeCourses: number; byStatus: Record<string, number> };
  acceptanceRate: number;
  completionRate: number;
  feesCollected: string;
  recentApplications: AdminApplicationRow[];
  courses: { id: number; title: string; department: string; level: string; isActive: boolean }[];
  departments: { name: string; courses: number }[];
  /** SMS through the outbox (issue #17): sent, failed for good, still queued; people opted out (profile + STOP replies). */
  sms: { sent: number; failed: number; pending: number; optedOut: number };
}
