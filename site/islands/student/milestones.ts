/**
 * The five milestones of the student dashboard's progress bar (spec §2: Submitted, Payment, Documents, Review,
 * Decision) and which of them an application has reached, from its status (spec §4), payment and documents.
 */
import { DOCUMENT_SLOTS } from '#contracts/application-steps.ts';

export const MILESTONES = ['Submitted', 'Payment', 'Documents', 'Review', 'Decision'] as const;

/**
 * One boolean per milestone, in order. Documents is done only when every required slot (DOCUMENT_SLOTS) holds a file,
 * none of the slots in `rejectedDocuments` (GET /api/applications: current document rejected by staff) is left, and
 * the status is not documents_required.
 */
export function milestonesReached(a: { status: string; paymentStatus: string; documents?: Record<string, string> | null; rejectedDocuments?: readonly string[] | null }): boolean[] {
  const decided = a.status === 'accepted' || a.status === 'rejected';
  const paid = a.paymentStatus === 'completed' && a.status !== 'payment_pending';
  const allRequired = DOCUMENT_SLOTS.every((s) => !s.required || Boolean(a.documents?.[s.key]));
  const docs = allRequired && !(a.rejectedDocuments && a.rejectedDocuments.length) && a.status !== 'documents_required';
  const reviewed = decided || a.status === 'payment_pending';
  return [true, paid, docs, reviewed, decided];
}
