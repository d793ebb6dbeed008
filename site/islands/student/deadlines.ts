/**
 * Deadlines from a course's start date (issue #5: replaces the spec's fixed "30 days left" / "45 days").
 * The start date is free text (spec §3). Only unambiguous shapes name a day: 'YYYY-MM-DD', 'D Month YYYY',
 * 'Month YYYY' (the first of that month) and 'DD/MM/YYYY' read the South African way (day first: '02/03/2027' is
 * 2 March). Anything else ('2027', 'Contact for dates', '03-02-2027') names no day, and no deadlines are shown.
 * Application closes 30 days and documents are due 14 days before the start. Days are calendar days 'YYYY-MM-DD'
 * computed in UTC arithmetic, never in the browser's time zone, and days left count from today in South Africa
 * (todayInSouthAfrica), so a browser in New York shows what one in Johannesburg does.
 */
import { isRealDate, todayInSouthAfrica } from '#contracts/sa-calendar.ts';

export const APPLICATION_CLOSES_DAYS_BEFORE = 30;
export const DOCUMENTS_DUE_DAYS_BEFORE = 14;

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const DAY = 86_400_000;

/** Month 1..12 for a full English month name or its three-letter abbreviation ('Sept' too), any case; else 0. */
function monthNumber(word: string): number {
  const w = word.toLowerCase();
  const i = MONTHS.findIndex((m) => m === w || m.slice(0, 3) === w || (w === 'sept' && m === 'september'));
  return i + 1;
}

/** 'YYYY-MM-DD' for year, month 1..12 and day when that is a real calendar day, else null. */
function isoDay(year: number, month: number, day: number): string | null {
  const iso = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return isRealDate(iso) ? iso : null;
}

/**
 * The course start date as a calendar day 'YYYY-MM-DD', or null when the text names no single day. Accepts
 * 'YYYY-MM-DD', 'D Month YYYY' ('2 March 2027', 'Mar' and 'Sept' too), 'Month YYYY' (→ the 1st) and 'DD/MM/YYYY'
 * (South African day-first order, one or two digits), each only as a real calendar day; no Date.parse, no time zone.
 */
export function parseStartDate(text: string | null | undefined): string | null {
  const s = (text ?? '').trim().replace(/\s+/g, ' ');
  if (!s) return null;
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) return isoDay(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  if (m) return isoDay(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /^(\d{1,2}) ([A-Za-z]+),? (\d{4})$/.exec(s);
  if (m) return monthNumber(m[2]) ? isoDay(Number(m[3]), monthNumber(m[2]), Number(m[1])) : null;
  m = /^([A-Za-z]+),? (\d{4})$/.exec(s);
  if (m) return monthNumber(m[1]) ? isoDay(Number(m[2]), monthNumber(m[1]), 1) : null;
  return null;
}

/** A deadline: its label, its calendar day 'YYYY-MM-DD' (show it with formatDate) and whole days left (negative when past). */
export interface Deadline { label: string; date: string; daysLeft: number }

const utc = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

/** Whole calendar days from day `from` to day `to` (both 'YYYY-MM-DD'); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((utc(to) - utc(from)) / DAY);
}

/** The day 'YYYY-MM-DD' that is `days` calendar days before `iso` ('YYYY-MM-DD'). */
function daysBefore(iso: string, days: number): string {
  return new Date(utc(iso) - days * DAY).toISOString().slice(0, 10);
}

/**
 * The deadlines for a course start date (parseStartDate), earliest first, with days left from today in South
 * Africa at `now` (todayInSouthAfrica; the browser's zone plays no part); [] when the start date names no day.
 */
export function deadlinesFor(startDate: string | null | undefined, now: Date = new Date()): Deadline[] {
  const start = parseStartDate(startDate);
  if (!start) return [];
  const today = todayInSouthAfrica(now);
  return [
    { label: 'Application deadline', date: daysBefore(start, APPLICATION_CLOSES_DAYS_BEFORE) },
    { label: 'Documents due', date: daysBefore(start, DOCUMENTS_DUE_DAYS_BEFORE) },
    { label: 'Classes start', date: start },
  ].map((d) => ({ ...d, daysLeft: daysBetween(today, d.date) }));
}

/** '12 days left', '1 day left', 'Today', 'Passed'. */
export function daysLeftText(days: number): string {
  if (days < 0) return 'Passed';
  if (days === 0) return 'Today';
  return `${days} day${days === 1 ? '' : 's'} left`;
}
