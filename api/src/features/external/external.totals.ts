/**
 * Payment totals per currency (spec §2 External payments: totals above the list), shared by the service and the
 * http driver: amounts are summed in cents (BigInt), never in floating point, and ZAR comes first.
 */
import type { CurrencyTotal, ExternalPayment } from '#contracts/external.ts';

/**
 * Amount in currency units → cents: '1500.5' → 150050n, '-5.50' → -550n, '-0.25' → -25n (the sign applies to the
 * whole amount, cents included). Exact for decimal strings with at most two decimals; anything else (a number, more
 * decimals) is rounded to cents first.
 */
export function toCents(amount: string | number): bigint {
  const text = String(amount).trim();
  const negative = text.startsWith('-');
  const exact = /^[+-]?(\d+)(?:\.(\d{0,2}))?$/.exec(text);
  const [whole, frac] = exact
    ? [exact[1], (exact[2] ?? '').padEnd(2, '0')]
    : Math.abs(Number(text)).toFixed(2).split('.');
  const cents = BigInt(whole) * 100n + BigInt(frac);
  return negative ? -cents : cents;
}
/** Cents → amount with two decimals: 9550n → '95.50', -550n → '-5.50', -25n → '-0.25'. */
export function fromCents(cents: bigint): string {
  const abs = cents < 0n ? -cents : cents;
  return `${cents < 0n ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

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
