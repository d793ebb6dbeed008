/**
 * Every formatter of the site and its islands, one of each (issue #15 point 5): spec §9 display rules
 * (durations, prices, start dates), dates, money, sizes, references and country names. Nothing else in site/
 * formats a date or a sum of money.
 */
import { format as fecha, type I18nSettingsOptional } from 'fecha';
import { COUNTRY_OPTIONS } from '#contracts/application-steps.ts';
import { southAfricanDateTime, todayInSouthAfrica } from '#contracts/sa-calendar.ts';

/** Which page a spec §9 fallback is for: the home page, a list, or a detail page. */
export type Where = 'home' | 'list' | 'detail';

/** 'N month(s)' (singular for 1); else 'Duration not specified' (home), 'Contact for details' (list), 'Not specified' (detail), spec §9. */
export function formatDuration(months: number | null | undefined, where: Where): string {
  if (months && months > 0) return `${months} month${months === 1 ? '' : 's'}`;
  return where === 'home' ? 'Duration not specified' : where === 'list' ? 'Contact for details' : 'Not specified';
}

/** 'R' plus amount (en-ZA rand, whole amounts without cents: 'R 6 500', 'R 6 500,50'), else tuitionFee, else 'Contact for pricing' (spec §9). */
export function formatPrice(price: string | number | null | undefined, tuitionFee?: string | null): string {
  const n = price == null || price === '' ? NaN : Number(price);
  // Public course price (spec §9 'R' plus amount): whole rand without cents ('R 6 500'), else two decimals.
  if (Number.isFinite(n) && n > 0) return currencyText(n, 'ZAR', Number.isInteger(n) ? 0 : 2);
  if (tuitionFee) return tuitionFee;
  return 'Contact for pricing';
}

/** The start date as entered; else 'Contact for dates' (home, list) or 'Flexible' (detail), spec §9. */
export function formatStartDate(startDate: string | null | undefined, where: Where): string {
  if (startDate && startDate.trim()) return startDate;
  return where === 'detail' ? 'Flexible' : 'Contact for dates';
}

/**
 * Dates, one way (issue #15 point 5). Every date formatter below takes an ISO 8601 string, a Date or nothing,
 * and reads it with `toDate`: null, undefined, '' and an unparseable value all give '' — the caller shows its
 * own fallback ('Recent', 'Not provided'). A bare calendar day ('2026-03-04') is that day in the browser's time
 * zone, not UTC midnight, so it never shows as the day before. Two audiences, two styles:
 * - the public site and the applicant's portal: long en-US (spec §9 "Dates long en-US on the public site"),
 *   `formatDate` 'November 21, 2026' and `formatDateTime` 'November 21, 2026 at 9:30 AM';
 * - staff screens (admin, external system): South African style (DESIGN §4 Locale en-ZA) in South African time
 *   (Africa/Johannesburg) whatever the browser's zone, as the CSV export writes them: `formatStaffDate` '21 Nov 2026'
 *   and `formatStaffDateTime` '21 Nov 2026, 09:30 SAST'.
 */
export function toDate(value: string | Date | null | undefined): Date | null {
  if (!value) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  const d = day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

// CLDR's en-ZA abbreviates September as 'Sept'; the other short month names are fecha's English ones.
const EN_ZA: I18nSettingsOptional = { monthNamesShort: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'] };

// fecha masks with English names of its own, not Intl.DateTimeFormat: a page's first Intl object starts V8's and ICU's
// locale data, 30–90 ms on this project's 2-core machine and 120–180 ms at Lighthouse's 4× CPU slowdown, one long task
// on every applicant page that shows a date (issue #17, total blocking time). The masks give CLDR's en-US long and
// en-ZA short patterns, so the text is the same as Intl gave, on the server and in every browser alike.
const DATE_STYLES: Record<'long' | 'longTime' | 'staff' | 'staffTime', [mask: string, names?: I18nSettingsOptional]> = {
  long: ['MMMM D, YYYY'],
  longTime: ['MMMM D, YYYY [at] h:mm A'],
  staff: ['DD MMM YYYY', EN_ZA],
  staffTime: ['DD MMM YYYY, HH:mm', EN_ZA],
};

function formatIn(style: keyof typeof DATE_STYLES, value: string | Date | null | undefined): string {
  const d = toDate(value);
  return d ? fecha(d, ...DATE_STYLES[style]) : '';
}

/** Long en-US date, 'November 21, 2026' (spec §9, public site and applicant portal); '' for no or a bad date. */
export function formatDate(value: string | Date | null | undefined): string { return formatIn('long', value); }

/**
 * Long en-US date of the day it was in South Africa (Africa/Johannesburg) at that moment, 'November 26, 2026' for
 * '2026-11-25T22:30:00Z', in every time zone (the server's at build time and any browser's): the college's own dates,
 * such as announcements on /about, which the build and a browser refresh must write alike. A bare calendar day
 * ('2026-03-04') is that day. '' for no or a bad date. The day is todayInSouthAfrica of the moment (sa-calendar.ts).
 */
export function formatDateInSouthAfrica(value: string | Date | null | undefined): string {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value.trim())) return formatDate(value);
  const d = toDate(value);
  return d ? formatDate(todayInSouthAfrica(d)) : '';
}

/** Long en-US date and time, 'November 21, 2026 at 9:30 AM' (timelines, notifications); '' for no or a bad date. */
export function formatDateTime(value: string | Date | null | undefined): string { return formatIn('longTime', value); }

/**
 * The moment `value` as a Date whose local fields are South Africa's wall clock (UTC+2 all year), for fecha; a bare
 * calendar day ('2026-03-04') stays that day. null for no or a bad date.
 */
function southAfricanWallClock(value: string | Date | null | undefined): Date | null {
  const d = toDate(value);
  if (!d || (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value.trim()))) return d;
  const [y, mo, day, h, mi] = southAfricanDateTime(d).split(/[-T:]/).map(Number);
  return new Date(y, mo - 1, day, h, mi);
}

/**
 * en-ZA short date for staff screens, '21 Nov 2026' (DESIGN §4 Locale): the day it was in South Africa at that moment,
 * in every browser time zone; '' for no or a bad date.
 */
export function formatStaffDate(value: string | Date | null | undefined): string { return formatIn('staff', southAfricanWallClock(value)); }

/**
 * en-ZA date and 24-hour South African time for staff screens, '21 Nov 2026, 09:30 SAST' (DESIGN §4 Locale; the CSV
 * export's 'Submitted (SAST)' is the same clock), in every browser time zone; '' for no or a bad date.
 */
export function formatStaffDateTime(value: string | Date | null | undefined): string {
  const text = formatIn('staffTime', southAfricanWallClock(value));
  return text && `${text} SAST`;
}

/** An application's reference as people quote it: 42 → 'APP-42' (admin and applicant screens alike). */
export function appRef(id: number): string { return `APP-${id}`; }

/** A file size for people, from bytes: 512 → '512 B', 20_480 → '20 KB', 1_258_291 → '1.2 MB' (1 KB = 1024 B). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** A course level for display, capitalised: 'diploma' → 'Diploma'; none → 'Certificate' (the default level). */
export function levelLabel(level: string | null | undefined): string {
  const l = level || 'certificate';
  return l.charAt(0).toUpperCase() + l.slice(1);
}

// One formatter per currency and precision: building an Intl.NumberFormat costs about 1 ms on a cheap phone,
// and a dashboard formats dozens of sums while it hydrates (issue #17, Lighthouse TBT).
const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * Money, one way per currency (issue #14 point 8): dollars (the application fee, spec §9 '$50.00') as en-US,
 * rand and every other ISO 4217 code as en-ZA (DESIGN §4: 'R 1 500,00'), always with two decimals so whole and
 * part amounts line up in a column (money audit: 'R 1 250' beside 'R 12,50'). `amount` in currency units; a
 * non-number shows as given. Staff and ledger amounts only: public course prices use formatPrice (spec §9).
 */
export function formatMoney(amount: string | number | null | undefined, currency = 'ZAR'): string {
  const n = Number(amount);
  if (amount == null || amount === '' || !Number.isFinite(n)) return amount == null ? '' : String(amount);
  // Always two decimals ('R 6 500,00' beside 'R 12,50' in a column of ledger amounts; dollars '$50.00').
  return currencyText(n, currency.toUpperCase(), 2);
}

/** `n` in currency `code` with at least `cents` (0 or 2) decimals and at most 2: en-US for dollars, en-ZA otherwise. */
function currencyText(n: number, code: string, cents: 0 | 2): string {
  try {
    const key = `${code}:${cents}`;
    let f = moneyFormats.get(key);
    if (!f) { f = new Intl.NumberFormat(code === 'USD' ? 'en-US' : 'en-ZA', { style: 'currency', currency: code, minimumFractionDigits: cents, maximumFractionDigits: 2 }); moneyFormats.set(key, f); }
    return f.format(n);
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
