/**
 * CSV exports (admin applications, external payments): cells a spreadsheet would run as a formula are neutralised
 * (OWASP "CSV Injection").
 */

/**
 * `v` as a safe CSV cell: a value starting with = + - @, tab or carriage return gets a leading ' so that spreadsheets
 * show it as text instead of running it; null and undefined become ''. Other values are returned unchanged.
 */
export function safeCell(v: string | null | undefined): string {
  const s = v ?? '';
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}
