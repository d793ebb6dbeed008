import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as format from './format.ts';
import {
  appRef, countryName, formatBytes, formatDate, formatDateInSouthAfrica, formatDateTime, formatDuration, formatMoney, formatPrice, formatStaffDate,
  formatStaffDateTime, formatStartDate, toDate,
} from './format.ts';
import { defaultCourseImage } from './course-image.ts';
import { preferredDateProblem } from '#contracts/assessment.ts';

describe('spec §9 display rules', () => {
  it('durations: N month(s), else a fallback that depends on the page', () => {
    expect(formatDuration(1, 'list')).toBe('1 month');
    expect(formatDuration(18, 'home')).toBe('18 months');
    expect(formatDuration(null, 'home')).toBe('Duration not specified');
    expect(formatDuration(0, 'list')).toBe('Contact for details');
    expect(formatDuration(undefined, 'detail')).toBe('Not specified');
  });
  it("prices: 'R' + amount, else tuitionFee, else 'Contact for pricing'", () => {
    expect(formatPrice('6500.00', 'R6 500 per year')).toBe('R\u00a06\u00a0500');
    expect(formatPrice(null, 'R6 500 per year')).toBe('R6 500 per year');
    expect(formatPrice('', '')).toBe('Contact for pricing');
  });
  it("start dates fall back to 'Contact for dates' (home, list) and 'Flexible' (detail); dates are long en-US", () => {
    expect(formatStartDate('February 2027', 'list')).toBe('February 2027');
    expect(formatStartDate(null, 'home')).toBe('Contact for dates');
    expect(formatStartDate('  ', 'detail')).toBe('Flexible');
    expect(formatDate('2026-11-21T10:00:00Z')).toBe('November 21, 2026');
    expect(formatDate('not a date')).toBe('');
  });
  it('default hero image is one of 4, by course id modulo 4', () => {
    expect(defaultCourseImage(5)).toBe(defaultCourseImage(1));
    expect(new Set([0, 1, 2, 3].map(defaultCourseImage)).size).toBe(4);
  });
  it('each default picture is a view of the one sprite file, and the sprite defines that view (issue #17)', () => {
    const sprite = fs.readFileSync(new URL('../assets/courses/heroes.svg', import.meta.url), 'utf8');
    const srcs = [0, 1, 2, 3].map((id) => defaultCourseImage(id).src);
    expect(new Set(srcs.map((s) => s.split('#')[0])).size).toBe(1);
    for (const src of srcs) {
      const view = src.split('#')[1];
      expect(sprite).toContain(`<view id="${view}" `);
    }
    expect(new Set(srcs).size).toBe(4);
  });
});

describe('assessment preferred date (issue #3)', () => {
  const today = '2026-11-18'; // a Wednesday
  it('accepts today and later weekdays; refuses the past, weekends, impossible dates and dates over a year ahead', () => {
    expect(preferredDateProblem('2026-11-18', today)).toBeNull();
    expect(preferredDateProblem('2026-11-23', today)).toBeNull();
    expect(preferredDateProblem('2026-11-17', today)).toBe('Preferred date cannot be in the past');
    expect(preferredDateProblem('2026-11-21', today)).toMatch(/closed on weekends/);
    expect(preferredDateProblem('2026-11-22', today)).toMatch(/closed on weekends/);
    expect(preferredDateProblem('2026-02-30', today)).toBe('Please select a preferred date');
    expect(preferredDateProblem('2027-12-01', today)).toBe('Please choose a date within the next 12 months');
  });
});

describe('admin views speak people\'s language (issue #14 point 8)', () => {
  it('formatMoney › one way per currency: rand en-ZA, the application fee in dollars as spec §9 shows it', () => {
    expect(formatMoney('1500', 'ZAR')).toBe('R\u00a01\u00a0500,00');
    expect(formatMoney(1500.5, 'zar')).toBe('R\u00a01\u00a0500,50');
    expect(formatMoney('50.00', 'USD')).toBe('$50.00');
    expect(formatMoney('12', 'XYZ1')).toBe('XYZ1 12.00');
  });
  it('countryName › names, not codes: option-set labels, then Intl region names', () => {
    expect(countryName('za')).toBe('South Africa');
    expect(countryName('uk')).toBe('United Kingdom');
    expect(countryName('NA')).toBe('Namibia');
    expect(countryName('other')).toBe('Other');
    expect(countryName('Lesotho')).toBe('Lesotho');
    expect(countryName(null)).toBe('');
  });
});

describe('one date helper, one way of saying "no date" (issue #15 point 5)', () => {
  const formatters = { formatDate, formatDateTime, formatStaffDate, formatStaffDateTime };
  it.each(Object.entries(formatters))('%s › null, undefined, empty and unparseable all show nothing', (_name, f) => {
    for (const missing of [null, undefined, '', 'not a date', new Date(Number.NaN)]) expect(f(missing)).toBe('');
    expect(toDate(null)).toBeNull();
  });
  it('staff screens show South African dates (en-ZA) in South African time marked SAST, whatever the browser zone', () => {
    expect(formatStaffDateTime('2026-11-26T21:18:00Z')).toBe('26 Nov 2026, 23:18 SAST');
    expect(formatStaffDateTime('2026-11-26T22:30:00Z')).toBe('27 Nov 2026, 00:30 SAST');
    expect(formatStaffDate('2026-11-26T22:30:00Z')).toBe('27 Nov 2026');
    expect(formatStaffDate('2026-03-04')).toBe('04 Mar 2026');
  });
  it('staff screens show South African dates (en-ZA), the public site long en-US (spec §9)', () => {
    const at = new Date(2026, 10, 21, 9, 30); // 21 November 2026, 09:30 local time
    const sa = new Date(Date.UTC(2026, 10, 21, 7, 30)); // 09:30 in South Africa
    expect(formatStaffDate(sa)).toBe('21 Nov 2026');
    expect(formatStaffDateTime(sa)).toBe('21 Nov 2026, 09:30 SAST');
    expect(formatDate(at)).toBe('November 21, 2026');
    expect(formatDateTime(at)).toBe('November 21, 2026 at 9:30 AM');
    expect(formatDateTime(new Date(2026, 0, 1, 0, 5))).toBe('January 1, 2026 at 12:05 AM');
    expect(formatStaffDateTime(new Date(Date.UTC(2026, 0, 1, 11, 45)))).toBe('01 Jan 2026, 13:45 SAST');
  });
  it('the dates read as CLDR (Intl.DateTimeFormat) writes them, without starting Intl in the browser', () => {
    const day = { year: 'numeric', month: 'long', day: 'numeric' } as const;
    const staffDay = { day: 'numeric', month: 'short', year: 'numeric' } as const;
    const cldr: [(v: Date) => string, Intl.DateTimeFormat][] = [
      [formatDate, new Intl.DateTimeFormat('en-US', day)],
      [formatDateTime, new Intl.DateTimeFormat('en-US', { ...day, hour: 'numeric', minute: '2-digit' })],
      [formatStaffDate, new Intl.DateTimeFormat('en-ZA', { ...staffDay, timeZone: 'Africa/Johannesburg' })],
      [(v) => formatStaffDateTime(v).replace(/ SAST$/, ''), new Intl.DateTimeFormat('en-ZA', { ...staffDay, hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'Africa/Johannesburg' })],
    ];
    const spaces = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ');
    for (let month = 0; month < 12; month++) {
      for (const [date, hour] of [[1, 0], [9, 11], [15, 12], [28, 23]] as const) {
        const at = new Date(2026, month, date, hour, 7);
        for (const [ours, intl] of cldr) expect(ours(at)).toBe(spaces(intl.format(at)));
      }
    }
  });
  it('a bare calendar day is that day wherever the browser is, not UTC midnight', () => {
    expect(formatStaffDate('2026-03-04')).toBe('04 Mar 2026'); // en-ZA (CLDR) writes the day with two digits
    expect(formatDate('2026-03-04')).toBe('March 4, 2026');
  });
  it('rand always with two comma decimals, whole or not; references and sizes as people read them', () => {
    expect(formatMoney(6500, 'ZAR')).toBe('R\u00a06\u00a0500,00');
    expect(formatMoney('1250', 'ZAR')).toBe('R\u00a01\u00a0250,00');
    expect(formatMoney('12.50', 'ZAR')).toBe('R\u00a012,50');
    expect(formatMoney('0', 'BWP')).toMatch(/0,00$/);
    expect(formatMoney('99.9', 'ZAR')).toBe('R\u00a099,90');
    expect(formatMoney(null)).toBe('');
    expect(appRef(42)).toBe('APP-42');
    expect([formatBytes(512), formatBytes(20_480), formatBytes(1_258_291)]).toEqual(['512 B', '20 KB', '1.2 MB']);
  });
});

describe('announcement dates are South African days (AnnouncementList.astro: build and browser refresh)', () => {
  const ZONES = ['America/New_York', 'UTC', 'Africa/Johannesburg', 'Pacific/Auckland', 'America/Los_Angeles'];
  const tz = process.env.TZ;
  const inZones = (f: () => void) => {
    try { for (const zone of ZONES) { process.env.TZ = zone; f(); } } finally { if (tz === undefined) delete process.env.TZ; else process.env.TZ = tz; }
  };

  it("formatDateInSouthAfrica › 2026-11-25T22:30Z is 'November 26, 2026' (00:30 SAST) whatever the time zone", () => {
    inZones(() => {
      expect(formatDateInSouthAfrica('2026-11-25T22:30:00Z'), process.env.TZ).toBe('November 26, 2026');
      expect(formatDateInSouthAfrica(new Date('2026-11-25T22:30:00Z')), process.env.TZ).toBe('November 26, 2026');
      expect(formatDateInSouthAfrica('2026-11-25T21:59:00Z'), process.env.TZ).toBe('November 25, 2026'); // 23:59 SAST
      expect(formatDateInSouthAfrica('2026-11-26T21:30:00.000Z'), process.env.TZ).toBe('November 26, 2026'); // 23:30 SAST
      expect(formatDateInSouthAfrica('2026-03-04'), process.env.TZ).toBe('March 4, 2026');
      for (const missing of [null, undefined, '', 'not a date', new Date(Number.NaN)]) expect(formatDateInSouthAfrica(missing)).toBe('');
    });
  });

  it('the home page (index.astro) dates its announcements with the same South African day as /about', () => {
    const markup = fs.readFileSync(new URL('../pages/index.astro', import.meta.url), 'utf8');
    const call = /\{\s*(?:a\.data\.createdAt \? )?(\w+)\(a\.data\.createdAt\)/.exec(markup);
    expect(call, 'the announcement date expression in index.astro').not.toBeNull();
    const dateOf = (format as unknown as Record<string, (v: string) => string>)[call![1]];
    inZones(() => expect(dateOf('2026-11-25T22:30:00Z'), process.env.TZ).toBe('November 26, 2026'));
  });
});


describe('seed course fees (plain-language audit 7)', () => {
  it('every rand amount in a tuitionFee text is written as formatPrice writes prices (R 900, R 10 000)', async () => {
    const { readFileSync } = await import('node:fs');
    const courses: { tuitionFee?: string }[] = JSON.parse(readFileSync(new URL('../../content/seed/courses.json', import.meta.url), 'utf8'));
    const amounts = courses.flatMap((c) => (c.tuitionFee ?? '').match(/R[\s\u00a0]?\d[\d,\u00a0]*/g) ?? []);
    expect(amounts.length).toBeGreaterThan(10);
    for (const a of amounts) expect(a).toBe(formatPrice(Number(a.replace(/[^\d]/g, ''))));
  });
});
