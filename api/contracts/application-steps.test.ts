/** The last school year (application-steps.ts currentYear): the year in South Africa, whatever the machine's zone. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentYear, yearProblem } from './application-steps.ts';

afterEach(() => { vi.useRealTimers(); });

describe('currentYear', () => {
  it('is the new year at 00:30 SAST on 1 January (22:30 UTC on 31 December)', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-31T22:30:00.000Z') });
    expect(currentYear()).toBe(2027);
    expect(yearProblem('2027')).toBeNull();
  });
  it('is still the old year at 23:30 SAST on 31 December (21:30 UTC)', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-31T21:30:00.000Z') });
    expect(currentYear()).toBe(2026);
    expect(yearProblem('2027')).toBe('Year must be between 1990 and 2026');
  });
});
