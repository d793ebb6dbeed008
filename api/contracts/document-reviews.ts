/**
 * Per-document checklist contracts (issue #16 point 3): an admin's review of one document slot, the applicant's
 * replacement of a rejected document, and the checklist both see. Written with `zod/mini` (islands import it).
 */
import * as z from 'zod/mini';
import { DOCUMENT_SLOTS } from './application-steps.ts';

export const DOCUMENT_SLOT_KEYS = DOCUMENT_SLOTS.map((s) => s.key) as [typeof DOCUMENT_SLOTS[number]['key'], ...typeof DOCUMENT_SLOTS[number]['key'][]];
export type DocumentSlotKey = typeof DOCUMENT_SLOT_KEYS[number];

const REASON_REQUIRED = 'Please give a reason for rejecting this document';

/** Path of PUT /api/admin/applications/{id}/documents/{slot} and PUT /api/applications/{id}/documents/{slot}. */
export const DocumentSlotParamSchema = z.object({
  id: z.coerce.number().check(z.refine(Number.isInteger, 'Not found'), z.positive('Not found'), z.lte(2147483647, 'Not found')),
  slot: z.enum(DOCUMENT_SLOT_KEYS, { error: 'Unknown document slot' }),
});

/** The 409 of a review whose `uploadId` is no longer the document in the slot (the applicant replaced it). */
export const DOCUMENT_REPLACED = 'The applicant replaced this document since you opened it. Reload to see the new file.';

/** The 409 of a review whose `expectedState` is no longer the document's state: who decided, and what. */
export const documentAlreadyReviewed = (state: 'Verified' | 'Rejected', reviewer: string | null): string =>
  `This document was already marked ${state} by ${reviewer ?? 'another admin'} — reload to see it.`;

/**
 * Admin review body: `reason` (≤ 500 characters) is required when rejecting and shown to the applicant. `uploadId`
 * names the file the admin looked at (the checklist item's `upload.id`); when it is no longer the one in the slot
 * the review is refused (409 DOCUMENT_REPLACED). `expectedState` is the state the admin's screen showed for that file;
 * when another admin has changed it since, the review is refused (409 documentAlreadyReviewed) unless it is the same
 * decision again. Both are optional only so older API callers (scripts, the SMS tests) keep working unchanged; the
 * admin portal always sends both.
 */
export const DocumentReviewSchema = z.object({
  status: z.enum(['verified', 'rejected'], { error: 'Please choose verified or rejected' }),
  uploadId: z.optional(z.string({ error: 'Reload to see the document' }).check(z.regex(/^[A-Za-z0-9_-]{10,64}$/, 'Reload to see the document'))),
  expectedState: z.optional(z.enum(['received', 'verified', 'rejected'], { error: 'Reload to see the document' })),
  reason: z._default(z.optional(z.string().check(z.trim(), z.maxLength(500, 'Reason must be at most 500 characters'))), ''),
}).check(z.superRefine((v, ctx) => {
  if (v.status === 'rejected' && !v.reason) ctx.issues.push({ code: 'custom', message: REASON_REQUIRED, path: ['reason'], input: v.reason });
}));
export type DocumentReview = z.input<typeof DocumentReviewSchema>;

/** Applicant's replacement of one rejected document: the id of an upload they made. */
export const DocumentReplaceSchema = z.object({
  uploadId: z.string({ error: 'Please upload a new document' }).check(z.regex(/^[A-Za-z0-9_-]{10,64}$/, 'Please upload a new document')),
});

/** State of one document slot: missing (never given), received, verified or rejected (with the admin's reason). */
export type DocumentState = 'missing' | 'received' | 'verified' | 'rejected';

/** One slot of the checklist. `size` in bytes; `sha256` hex (the applicant's receipt); dates ISO 8601. */
export interface ChecklistItem {
  slot: DocumentSlotKey;
  label: string;
  required: boolean;
  state: DocumentState;
  upload: { id: string; name: string; size: number; sha256: string | null; createdAt: string } | null;
  reason: string | null;
  reviewedAt: string | null;
}

/** One review in the history, oldest first. `reviewer` (display name) and `reviewerEmail` are sent to admins only. */
export interface ReviewEntry {
  slot: DocumentSlotKey;
  uploadId: string;
  status: 'verified' | 'rejected';
  reason: string | null;
  createdAt: string;
  reviewer?: string | null;
  reviewerEmail?: string | null;
}

/** GET /api/applications/{id}/checklist → this. */
export interface Checklist { items: ChecklistItem[]; history: ReviewEntry[] }

/**
 * PUT /api/admin/applications/{id}/documents/{slot} → the checklist after the review, and `decided`: whether the
 * application was accepted or rejected (spec §4) when the review was recorded, read under the row lock. A rejection
 * of a decided application tells the applicant nothing (reviewDocument), so the admin's toast says so from this
 * answer, not from the status their panel loaded earlier (another admin may have decided meanwhile).
 */
export interface ReviewResult extends Checklist { decided: boolean }
