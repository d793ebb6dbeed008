/**
 * The South African calendar rule (UTC+2 all year) at the edge that matters most: New Year, when a server in UTC
 * is still in the old year for two hours (the footer's '© YYYY', the site builder's New Year rebuild).
 */
import { describe, expect, it } from 'vitest';
import { southAfricanDateTime, southAfricanMidnight, todayInSouthAfrica } from './sa-calendar.ts';

describe('South African calendar', () => {
  it('23:59 SAST on 31 December is still the old year; 00:00 SAST on 1 January (22:00 UTC) is the new one', () => {
    const lastMinute = new Date('2026-12-31T21:59:00Z');
    const midnight = new Date('2026-12-31T22:00:00Z');
    expect(southAfricanDateTime(lastMinute)).toBe('2026-12-31T23:59:00.000');
    expect(todayInSouthAfrica(lastMinute)).toBe('2026-12-31');
    expect(southAfricanDateTime(midnight)).toBe('2027-01-01T00:00:00.000');
    expect(todayInSouthAfrica(midnight)).toBe('2027-01-01');
    expect(todayInSouthAfrica(new Date(midnight.getTime() - 1))).toBe('2026-12-31');
  });

  it('southAfricanMidnight is the instant a South African day begins: 22:00 UTC the day before', () => {
    expect(new Date(southAfricanMidnight('2027-01-01')).toISOString()).toBe('2026-12-31T22:00:00.000Z');
    expect(new Date(southAfricanMidnight('2028-02-29')).toISOString()).toBe('2028-02-28T22:00:00.000Z');
    expect(todayInSouthAfrica(new Date(southAfricanMidnight('2027-01-01')))).toBe('2027-01-01');
    expect(todayInSouthAfrica(new Date(southAfricanMidnight('2027-01-01') - 60_000))).toBe('2026-12-31');
  });

  it('southAfricanMidnight refuses a text that is not a real date', () => {
    expect(() => southAfricanMidnight('2027-02-29')).toThrow(RangeError);
    expect(() => southAfricanMidnight('1 January 2027')).toThrow(RangeError);
  });
});
