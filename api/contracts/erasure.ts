/**
 * An admin's decision on an erasure request (POPIA §24; issue #4 "Delete my account" with applications on record):
 * POST /api/admin/erasure-requests/{id} {decision: 'erase' | 'decline', reason?} → {request: ErasureRequestView}.
 * A decline needs a reason (it is stored on the request and e-mailed to the person); at most 2000 characters.
 */
import { z } from 'zod';

export const ERASURE_DECISIONS = ['erase', 'decline'] as const;
const NEED_REASON = 'Please give the reason for declining';

export const ErasureDecisionSchema = z.object({
  decision: z.enum(ERASURE_DECISIONS, { error: 'Please choose erase or decline' }),
  reason: z.string({ error: NEED_REASON }).trim().max(2000, 'Please keep the reason under 2000 characters').optional().default(''),
}).superRefine((v, ctx) => {
  if (v.decision === 'decline' && !v.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: NEED_REASON });
});
export type ErasureDecision = z.input<typeof ErasureDecisionSchema>;

/**
 * An erasure request after the decision: status done | declined, dates ISO 8601, `reason` how the request was made
 * (kept as filed), `decisionReason` the admin's reason for declining (null otherwise).
 */
export interface ErasureRequestView { id: number; userId: number; status: 'open' | 'done' | 'declined'; reason: string | null; decisionReason: string | null; createdAt: string; resolvedAt: string | null }
