/**
 * Payment totals per currency (spec §2 External payments: totals above the list), shared by the service and the
 * http driver: amounts are summed in cents (BigInt), never in floating point, and ZAR comes first.
 */
import type { CurrencyTotal, ExternalPayment } from '#contracts/external.ts';

/** '1500.5' → 150050n (cents), exact for amounts with at most two decimals. */
function toCents(amount: string): bigint {
  const [whole, frac = ''] = Number(amount).toFixed(2).split('.');
  return BigInt(whole) * 100n + BigInt(frac.padEnd(2, '0'));
}
const fromCents = (c: bigint) => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;

/** `totals` sorted with ZAR first, then by currency code. */
export function sortTotals(totals: CurrencyTotal[]): CurrencyTotal[] {
  return [...totals].sort(({ currency: a }, { currency: b }) => (a === 'ZAR' ? -1 : b === 'ZAR' ? 1 : a.localeCompare(b)));
}

/** Totals per currency of `payments` (amount with two decimals, payment count), currencies sorted with ZAR first. */
export function totalsByCurrency(payments: ExternalPayment[]): CurrencyTotal[] {
  const sums = new Map<string, { cents: bigint; count: number }>();
  for (const p of payments) {
    const s = sums.get(p.currency) ?? { cents: 0n, count: 0 };
    s.cents += toCents(p.amount); s.count += 1;
    sums.set(p.currency, s);
  }
  return sortTotals([...sums.entries()].map(([currency, s]) => ({ currency, amount: fromCents(s.cents), count: s.count })));
}
