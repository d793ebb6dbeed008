/**
 * The idle warning's words (IdleWarning.tsx): the countdown, shown every second, announced at 60, 30 and 10 s only; the
 * sentence, by role, with the limit in words from the Server-Timing `idle-limit` (IDLE_LIMIT_MS, no copy here).
 */
import { describe, expect, it } from 'vitest';
import { announcement, durationWords, idleSentence, timeLeft } from './IdleWarning.tsx';
import { IDLE_LIMIT_MS } from '#contracts/session-idle.ts';

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
  it('says the limit in words: whole hours as hours, otherwise minutes', () => {
    expect(durationWords(IDLE_LIMIT_MS.admin)).toBe('30 minutes');
    expect(durationWords(IDLE_LIMIT_MS.student)).toBe('2 hours');
    expect(durationWords(3_600_000)).toBe('1 hour');
    expect(durationWords(90 * 60_000)).toBe('90 minutes');
    expect(durationWords(60_000)).toBe('1 minute');
  });
  it('admins keep their sentence; students are told their own limit', () => {
    expect(idleSentence('admin', IDLE_LIMIT_MS.admin, '14:05')).toBe('For your security, admins are logged out after 30 minutes without activity. You will be logged out at 14:05 unless you stay logged in.');
    expect(idleSentence('student', IDLE_LIMIT_MS.student, '16:00')).toBe('For your security, you are logged out after 2 hours without activity. You will be logged out at 16:00 unless you stay logged in.');
  });
});
