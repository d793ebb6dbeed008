import { afterEach, describe, expect, it } from 'vitest';
import { deadlinesFor, daysLeftText, parseStartDate } from './deadlines.ts';
import { formatDate } from '../../lib/format.ts';

const TZ = process.env.TZ;
afterEach(() => { if (TZ === undefined) delete process.env.TZ; else process.env.TZ = TZ; });

/** What the dashboard shows for a start date: each deadline's label, formatted day and days-left text. */
const shown = (startDate: string, now: Date) => deadlinesFor(startDate, now).map((d) => [d.label, formatDate(d.date), daysLeftText(d.daysLeft)]);

describe('student dashboard deadlines', () => {
  it('parses the start dates courses actually use', () => {
    expect(parseStartDate('February 2027')).toBe('2027-02-01');
    expect(parseStartDate('2027-03-15')).toBe('2027-03-15');
    expect(parseStartDate('Contact for dates')).toBeNull();
    expect(parseStartDate(null)).toBeNull();
  });

  it('computes days left from the course start date instead of fixed 30/45 days', () => {
    const now = new Date('2026-12-01T08:00:00+02:00');
    expect(deadlinesFor('February 2027', now).map((x) => [x.label, formatDate(x.date), x.daysLeft])).toEqual([
      ['Application deadline', 'January 2, 2027', 32],
      ['Documents due', 'January 18, 2027', 48],
      ['Classes start', 'February 1, 2027', 62],
    ]);
    expect(deadlinesFor('', now)).toEqual([]);
    expect([daysLeftText(-1), daysLeftText(0), daysLeftText(1), daysLeftText(5)]).toEqual(['Passed', 'Today', '1 day left', '5 days left']);
  });

  it("reads DD/MM/YYYY the South African way: '02/03/2027' is 2 March, '15/02/2027' is 15 February", () => {
    expect(formatDate(parseStartDate('02/03/2027'))).toBe('March 2, 2027');
    expect(formatDate(parseStartDate('15/02/2027'))).toBe('February 15, 2027');
    expect(formatDate(parseStartDate('2 March 2027'))).toBe('March 2, 2027');
    expect(formatDate(parseStartDate('15 Feb 2027'))).toBe('February 15, 2027');
    expect(shown('15/02/2027', new Date('2026-12-01T08:00:00+02:00'))).toEqual([
      ['Application deadline', 'January 16, 2027', '46 days left'],
      ['Documents due', 'February 1, 2027', '62 days left'],
      ['Classes start', 'February 15, 2027', '76 days left'],
    ]);
  });

  it('shows no deadlines for a start date that names no single day', () => {
    process.env.TZ = 'America/New_York';
    for (const text of ['2027', '31/02/2027', '2027-02-30', '02-03-2027', 'Feb 3', 'Marchy 2027', 'Early 2027', 'TBC']) {
      expect(parseStartDate(text), text).toBeNull();
      expect(deadlinesFor(text, new Date('2026-12-01T08:00:00+02:00')), text).toEqual([]);
    }
  });

  it('a browser in New York counts days left as Johannesburg does (today in South Africa)', () => {
    // 23:30 on 30 November in New York is 06:30 on 1 December in Johannesburg.
    const now = new Date('2026-11-30T23:30:00-05:00');
    const inJohannesburg = (process.env.TZ = 'Africa/Johannesburg', shown('February 2027', now));
    process.env.TZ = 'America/New_York';
    expect(shown('February 2027', now)).toEqual(inJohannesburg);
    expect(inJohannesburg).toEqual([
      ['Application deadline', 'January 2, 2027', '32 days left'],
      ['Documents due', 'January 18, 2027', '48 days left'],
      ['Classes start', 'February 1, 2027', '62 days left'],
    ]);
    process.env.TZ = 'Pacific/Auckland';
    expect(shown('2027-01-18', new Date('2026-12-31T23:30:00+02:00'))).toEqual([
      ['Application deadline', 'December 19, 2026', 'Passed'],
      ['Documents due', 'January 4, 2027', '4 days left'],
      ['Classes start', 'January 18, 2027', '18 days left'],
    ]);
  });
});
