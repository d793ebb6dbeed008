/** Payment totals in cents (external.totals.ts): negative amounts (refunds from the remote system) keep their sign. */
import { describe, expect, it } from 'vitest';
import type { ExternalPayment } from '#contracts/external.ts';
import { fromCents, toCents, totalsByCurrency } from './external.totals.ts';

const pay = (amount: string, currency = 'ZAR'): ExternalPayment => ({
  id: amount, reference: 'R', studentName: 'S', studentId: '1', amount, currency, method: 'card',
  date: '2026-11-01T10:00:00.000Z', status: 'completed', branchName: null, description: null,
});

describe('external totals', () => {
  it('toCents and fromCents keep the sign of negative amounts', () => {
    expect(toCents('-5.50')).toBe(-550n);
    expect(toCents('-0.25')).toBe(-25n);
    expect(toCents('1500.5')).toBe(150050n);
    expect(toCents('12')).toBe(1200n);
    expect(fromCents(-550n)).toBe('-5.50');
    expect(fromCents(-25n)).toBe('-0.25');
    expect(fromCents(0n)).toBe('0.00');
    expect(fromCents(9550n)).toBe('95.50');
  });
  it('totalsByCurrency sums a refund as a negative amount', () => {
    expect(totalsByCurrency([pay('-5.50')])).toEqual([{ currency: 'ZAR', amount: '-5.50', count: 1 }]);
    expect(totalsByCurrency([pay('100.00'), pay('-5.50')])).toEqual([{ currency: 'ZAR', amount: '94.50', count: 2 }]);
    expect(totalsByCurrency([pay('-0.25', 'USD')])).toEqual([{ currency: 'USD', amount: '-0.25', count: 1 }]);
    expect(totalsByCurrency([pay('0.10'), pay('0.20')])).toEqual([{ currency: 'ZAR', amount: '0.30', count: 2 }]);
  });
});
