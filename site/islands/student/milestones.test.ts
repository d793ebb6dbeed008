import { describe, expect, it } from 'vitest';
import { MILESTONES, milestonesReached } from './milestones.ts';

const docs = { idDocument: 'aaaaaaaaaaaa', transcripts: 'bbbbbbbbbbbb' };
const reached = (status: string, paymentStatus = 'completed', documents: Record<string, string> = docs) =>
  MILESTONES.filter((_, i) => milestonesReached({ status, paymentStatus, documents })[i]);

describe('student dashboard milestones', () => {
  it('follow the application from submission to decision', () => {
    expect(reached('pending')).toEqual(['Submitted', 'Payment', 'Documents']);
    expect(reached('under_review')).toEqual(['Submitted', 'Payment', 'Documents']);
    expect(reached('accepted')).toEqual(['Submitted', 'Payment', 'Documents', 'Review', 'Decision']);
    expect(reached('rejected')).toEqual(['Submitted', 'Payment', 'Documents', 'Review', 'Decision']);
  });

  it('show what is missing: documents asked for, payment outstanding', () => {
    expect(reached('documents_required')).toEqual(['Submitted', 'Payment']);
    expect(reached('payment_pending')).toEqual(['Submitted', 'Documents', 'Review']);
    expect(reached('pending', 'pending', {})).toEqual(['Submitted']);
  });

  it('leave Documents to do while a document is rejected or a required one is missing', () => {
    const rejectedId = { status: 'under_review', paymentStatus: 'completed', documents: docs, rejectedDocuments: ['idDocument'] };
    expect(MILESTONES.filter((_, i) => milestonesReached(rejectedId)[i])).toEqual(['Submitted', 'Payment']);
    expect(reached('under_review', 'completed', { idDocument: 'aaaaaaaaaaaa' })).toEqual(['Submitted', 'Payment']);
    const replaced = { ...rejectedId, rejectedDocuments: [] };
    expect(MILESTONES.filter((_, i) => milestonesReached(replaced)[i])).toEqual(['Submitted', 'Payment', 'Documents']);
  });
});
