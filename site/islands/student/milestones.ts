/**
 * The five milestones of the student dashboard's progress bar (spec §2: Submitted, Payment, Documents, Review,
 * Decision) and which of them an application has reached, from its status (spec §4), payment and documents.
 */
export const MILESTONES = ['Submitted', 'Payment', 'Documents', 'Review', 'Decision'] as const;

/** One boolean per milestone, in order. */
export function milestonesReached(a: { status: string; paymentStatus: string; documents?: Record<string, string> | null }): boolean[] {
  const decided = a.status === 'accepted' || a.status === 'rejected';
  const paid = a.paymentStatus === 'completed' && a.status !== 'payment_pending';
  const docs = Boolean(a.documents?.idDocument && a.documents?.transcripts) && a.status !== 'documents_required';
  const reviewed = decided || a.status === 'payment_pending';
  return [true, paid, docs, reviewed, decided];
}
