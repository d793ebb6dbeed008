/**
 * Deadlines from a course's start date (issue #5: replaces the spec's fixed "30 days left" / "45 days").
 * The start date is free text (spec §3): 'YYYY-MM-DD', 'Month YYYY' (first of that month) or anything
 * Date can parse; otherwise null. Application closes 30 days and documents are due 14 days before the start.
 */
export const APPLICATION_CLOSES_DAYS_BEFORE = 30;
export const DOCUMENTS_DUE_DAYS_BEFORE = 14;

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const DAY = 86_400_000;

/** Start date as a local midnight Date, or null when the text names no date. */
export function parseStartDate(text: string | null | undefined): Date | null {
  const s = (text ?? '').trim();
  if (!s) return null;
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  m = /^([A-Za-z]+)\s+(\d{4})$/.exec(s);
  if (m) {
    const month = MONTHS.findIndex((x) => x.startsWith(m![1].toLowerCase().slice(0, 3)));
    if (month >= 0) return new Date(Number(m[2]), month, 1);
  }
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : new Date(new Date(t).setHours(0, 0, 0, 0));
}

export interface Deadline { label: string; date: Date; daysLeft: number }

/** Whole days from `today` (local midnight) to `date`; negative when past. */
export function daysBetween(today: Date, date: Date): number {
  const a = new Date(today); a.setHours(0, 0, 0, 0);
  return Math.round((date.getTime() - a.getTime()) / DAY);
}

/** The deadlines for a course start date, earliest first; [] when the start date is unknown. */
export function deadlinesFor(startDate: string | null | undefined, today = new Date()): Deadline[] {
  const start = parseStartDate(startDate);
  if (!start) return [];
  const minus = (days: number) => new Date(start.getFullYear(), start.getMonth(), start.getDate() - days);
  return [
    { label: 'Application deadline', date: minus(APPLICATION_CLOSES_DAYS_BEFORE) },
    { label: 'Documents due', date: minus(DOCUMENTS_DUE_DAYS_BEFORE) },
    { label: 'Classes start', date: start },
  ].map((d) => ({ ...d, daysLeft: daysBetween(today, d.date) }));
}

/** '12 days left', '1 day left', 'Today', 'Passed'. */
export function daysLeftText(days: number): string {
  if (days < 0) return 'Passed';
  if (days === 0) return 'Today';
  return `${days} day${days === 1 ? '' : 's'} left`;
}
