import { COUNTRY_OPTIONS } from '#contracts/application-steps.ts';

/** Display rules of spec §9: durations, prices, start dates and dates. */
export type Where = 'home' | 'list' | 'detail';

export function formatDuration(months: number | null | undefined, where: Where): string {
  if (months && months > 0) return `${months} month${months === 1 ? '' : 's'}`;
  return where === 'home' ? 'Duration not specified' : where === 'list' ? 'Contact for details' : 'Not specified';
}

/** 'R' plus amount (rand as formatMoney shows it, 'R 6 500'), else tuitionFee, else 'Contact for pricing' (spec §9). */
export function formatPrice(price: string | number | null | undefined, tuitionFee?: string | null): string {
  const n = price == null || price === '' ? NaN : Number(price);
  if (Number.isFinite(n) && n > 0) return formatMoney(n, 'ZAR');
  if (tuitionFee) return tuitionFee;
  return 'Contact for pricing';
}

export function formatStartDate(startDate: string | null | undefined, where: Where): string {
  if (startDate && startDate.trim()) return startDate;
  return where === 'detail' ? 'Flexible' : 'Contact for dates';
}

/** Long en-US date ('November 21, 2026'), spec §9. */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}


export const levelLabel = (level: string | null | undefined) => {
  const l = level || 'certificate';
  return l.charAt(0).toUpperCase() + l.slice(1);
};

/**
 * Money, one way per currency (issue #14 point 8): dollars (the application fee, spec §9 '$50.00') as en-US,
 * rand and every other ISO 4217 code as en-ZA (DESIGN §4: 'R 1 500,00'). `amount` in currency units; a
 * non-number shows as given.
 */
export function formatMoney(amount: string | number | null | undefined, currency = 'ZAR'): string {
  const n = Number(amount);
  if (amount == null || amount === '' || !Number.isFinite(n)) return amount == null ? '' : String(amount);
  const code = currency.toUpperCase();
  // Whole amounts without cents ('R 6 500'), others with two decimals ('R 6 500,50'); dollars always '$50.00'.
  const cents = code === 'USD' || !Number.isInteger(n) ? 2 : 0;
  try {
    return new Intl.NumberFormat(code === 'USD' ? 'en-US' : 'en-ZA', { style: 'currency', currency: code, minimumFractionDigits: cents, maximumFractionDigits: 2 }).format(n);
  } catch {
    return `${code} ${n.toFixed(2)}`;
  }
}

/**
 * A country's name for a code of the spec §3 option set ('za' → 'South Africa', 'uk' → 'United Kingdom'),
 * else the English region name of an ISO 3166 code (Intl.DisplayNames), else the value as given.
 */
export function countryName(code: string | null | undefined): string {
  if (!code) return '';
  const option = COUNTRY_OPTIONS.find((o) => o.value === code.toLowerCase());
  if (option) return option.label;
  if (/^[A-Za-z]{2}$/.test(code)) {
    try { return new Intl.DisplayNames(['en'], { type: 'region' }).of(code.toUpperCase()) ?? code; } catch { /* unknown region */ }
  }
  return code;
}
