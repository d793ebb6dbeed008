/**
 * South African calendar days (Africa/Johannesburg, UTC+2 all year, no daylight saving), zod-free so that islands
 * and page scripts that need only a date do not load a validator (issue #17 data budget). Moved here unchanged from
 * assessment.ts, which re-exports them, as do the other contracts that use them.
 */

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** South Africa's offset from UTC in ms (UTC+2 all year, no daylight saving). */
const SA_OFFSET_MS = 2 * 3600_000;

/** `at` as South African wall-clock time, 'YYYY-MM-DDTHH:mm:ss.sss' (an ISO 8601 text without a zone). */
export function southAfricanDateTime(at: Date | number = Date.now()): string {
  return new Date((typeof at === 'number' ? at : at.getTime()) + SA_OFFSET_MS).toISOString().slice(0, 23);
}

/** Today's date 'YYYY-MM-DD' in South Africa (Africa/Johannesburg, UTC+2 all year). */
export function todayInSouthAfrica(now: Date = new Date()): string {
  return southAfricanDateTime(now).slice(0, 10);
}

/**
 * The instant South African day `day` ('YYYY-MM-DD') begins, 00:00 SAST, in ms since the epoch: 22:00 UTC the day
 * before (UTC+2 all year). The inverse of todayInSouthAfrica at midnight; the site builder's New Year rebuild uses
 * it. Throws RangeError when `day` is not a real date (isRealDate).
 */
export function southAfricanMidnight(day: string): number {
  if (!isRealDate(day)) throw new RangeError(`Not a date 'YYYY-MM-DD': ${day}`);
  return Date.parse(`${day}T00:00:00Z`) - SA_OFFSET_MS;
}

/** True when 'YYYY-MM-DD' is a real calendar date. */
export function isRealDate(v: string): boolean {
  if (!ISO_DATE.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}
