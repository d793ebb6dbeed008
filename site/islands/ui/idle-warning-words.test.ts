/** The idle warning's countdown words (IdleWarning.tsx): shown every second, announced at 60, 30 and 10 s only. */
import { describe, expect, it } from 'vitest';
import { announcement, timeLeft } from './IdleWarning.tsx';

describe('IdleWarning words', () => {
  it('time left rounds up to the second', () => {
    expect(timeLeft(120_000)).toBe('2 min 00 s');
    expect(timeLeft(64_001)).toBe('1 min 05 s');
    expect(timeLeft(45_000)).toBe('45 s');
    expect(timeLeft(-5)).toBe('0 s');
  });
  it('announces at the minute, 30 s and 10 s, not every second', () => {
    const said = new Set<string>();
    for (let ms = 120_000; ms >= 0; ms -= 1000) said.add(announcement(ms));
    expect([...said]).toEqual(['', '1 minute left.', '30 seconds left.', '10 seconds left.']);
  });
});
