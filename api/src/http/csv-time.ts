/**
 * Date and time cells of the CSV exports (admin applications, external payments) in South African time, as the
 * screens and reports show them (DESIGN §4 Locale; money and dates audit: the files had UTC ISO 8601, so an
 * application at 00:30 SAST on 1 November read '2026-10-31T22:30:00.000Z').
 */
import { southAfricanDateTime } from '#contracts/sa-calendar.ts';

/** Header suffix of the columns csvDateTime fills: 'Submitted (SAST)'. */
export const SAST_SUFFIX = ' (SAST)';

/**
 * `value` (ISO 8601 text or a Date) as 'YYYY-MM-DD HH:mm' in Africa/Johannesburg (UTC+2 all year, no daylight
 * saving): '2026-10-31T22:30:00.000Z' → '2026-11-01 00:30'. '' for null, undefined or ''; text that is not a date
 * is returned unchanged (a remote system's odd value is still shown, not lost).
 */
export function csvDateTime(value: string | Date | null | undefined): string {
  if (value == null || value === '') return '';
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  if (Number.isNaN(ms)) return String(value);
  return southAfricanDateTime(ms).slice(0, 16).replace('T', ' ');
}
