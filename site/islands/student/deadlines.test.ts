import { describe, expect, it } from 'vitest';
import { deadlinesFor, daysLeftText, parseStartDate } from './deadlines.ts';

describe('student dashboard deadlines', () => {
  it('parses the start dates courses actually use', () => {
    expect(parseStartDate('February 2027')).toEqual(new Date(2027, 1, 1));
    expect(parseStartDate('2027-03-15')).toEqual(new Date(2027, 2, 15));
    expect(parseStartDate('Contact for dates')).toBeNull();
    expect(parseStartDate(null)).toBeNull();
  });

  it('computes days left from the course start date instead of fixed 30/45 days', () => {
    const today = new Date(2026, 11, 1);
    const d = deadlinesFor('February 2027', today);
    expect(d.map((x) => [x.label, x.date.toDateString(), x.daysLeft])).toEqual([
      ['Application deadline', new Date(2027, 0, 2).toDateString(), 32],
      ['Documents due', new Date(2027, 0, 18).toDateString(), 48],
      ['Classes start', new Date(2027, 1, 1).toDateString(), 62],
    ]);
    expect(deadlinesFor('', today)).toEqual([]);
    expect([daysLeftText(-1), daysLeftText(0), daysLeftText(1), daysLeftText(5)]).toEqual(['Passed', 'Today', '1 day left', '5 days left']);
  });
});
