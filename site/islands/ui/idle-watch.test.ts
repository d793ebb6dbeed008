/**
 * The idle warning's timer logic (idle-watch.ts idleClock, deadlineOf; WCAG 2.2.1 Timing Adjustable) on fake timers:
 * warned WARN_BEFORE_MS before the deadline, expired at it, a later deadline (a request here or in another tab)
 * closes the warning and moves both, a stale one is ignored. The countdown's words (IdleWarning.tsx).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deadlineOf, idleClock, SAFETY_MS, WARN_BEFORE_MS, type IdleDeadline } from './idle-watch.ts';
import { IDLE_LIMIT_MS, idleServerTiming } from '#contracts/session-idle.ts';

const LIMIT = IDLE_LIMIT_MS.admin;
const T0 = Date.UTC(2026, 10, 28, 12, 0, 0);

function handlers() {
  const calls: string[] = [];
  return { calls, h: { warn: (d: IdleDeadline) => calls.push(`warn ${d.at - T0}`), extended: (d: IdleDeadline) => calls.push(`extended ${d.at - T0}`), expire: () => calls.push('expire') } };
}

beforeEach(() => { vi.useFakeTimers(); vi.setSystemTime(T0); });
afterEach(() => { vi.useRealTimers(); });

describe('idleClock', () => {
  it('warns 2 minutes before the deadline, once, and expires at it', () => {
    const { calls, h } = handlers();
    const clock = idleClock(h);
    clock.see({ at: T0 + LIMIT, limit: LIMIT });
    vi.advanceTimersByTime(LIMIT - WARN_BEFORE_MS - 1);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual([`warn ${LIMIT}`]);
    vi.advanceTimersByTime(WARN_BEFORE_MS - 1);
    expect(calls).toEqual([`warn ${LIMIT}`]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual([`warn ${LIMIT}`, 'expire']);
    expect(clock.current()).toBeNull();
    vi.advanceTimersByTime(LIMIT);
    expect(calls).toHaveLength(2);
  });

  it('"Stay logged in" (a deadline a whole limit later) while warned closes the warning and moves both timers', () => {
    const { calls, h } = handlers();
    const clock = idleClock(h);
    clock.see({ at: T0 + LIMIT, limit: LIMIT });
    vi.advanceTimersByTime(LIMIT - 60_000);
    expect(calls).toEqual([`warn ${LIMIT}`]);
    clock.see({ at: Date.now() + LIMIT, limit: LIMIT });
    expect(calls).toEqual([`warn ${LIMIT}`, `extended ${2 * LIMIT - 60_000}`]);
    vi.advanceTimersByTime(60_000 + 1); // past the old deadline: nothing
    expect(calls).toHaveLength(2);
    vi.advanceTimersByTime(LIMIT - WARN_BEFORE_MS - 60_001);
    expect(calls).toEqual([`warn ${LIMIT}`, `extended ${2 * LIMIT - 60_000}`, `warn ${2 * LIMIT - 60_000}`]);
    vi.advanceTimersByTime(WARN_BEFORE_MS);
    expect(calls.slice(-1)).toEqual(['expire']);
  });

  it('activity before the warning (another tab, a save) moves it without any call; an earlier or past deadline is ignored', () => {
    const { calls, h } = handlers();
    const clock = idleClock(h);
    clock.see({ at: T0 - 1, limit: LIMIT }); // an older login's stored deadline
    expect(clock.current()).toBeNull();
    clock.see({ at: T0 + LIMIT, limit: LIMIT });
    vi.advanceTimersByTime(10 * 60_000);
    clock.see({ at: Date.now() + LIMIT, limit: LIMIT });
    clock.see({ at: T0 + LIMIT, limit: LIMIT }); // a late answer of an earlier request
    vi.advanceTimersByTime(LIMIT - WARN_BEFORE_MS - 1);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual([`warn ${LIMIT + 10 * 60_000}`]);
  });

  it('a deadline only a little later while warned (a request that did not touch the session) keeps the warning open', () => {
    const { calls, h } = handlers();
    const clock = idleClock(h);
    clock.see({ at: T0 + LIMIT, limit: LIMIT });
    vi.advanceTimersByTime(LIMIT - 90_000);
    clock.see({ at: T0 + LIMIT + 5, limit: LIMIT });
    expect(calls).toEqual([`warn ${LIMIT}`]);
    vi.advanceTimersByTime(90_005);
    expect(calls).toEqual([`warn ${LIMIT}`, 'expire']);
  });

  it('a timer that fires late (a hidden tab, a sleeping laptop) past the deadline expires without warning first', () => {
    const { calls, h } = handlers();
    const clock = idleClock(h);
    clock.see({ at: T0 + LIMIT, limit: LIMIT });
    vi.setSystemTime(T0 + LIMIT + 5000); // the clock moved on, the timers did not run
    clock.check();
    expect(calls).toEqual(['expire']);
  });
});

describe('deadlineOf', () => {
  const timing = (header: string) => header.split(', ').map((m) => { const [name, dur] = m.split(';dur='); return { name: name!, duration: Number(dur) }; });
  it('reads the Server-Timing the API sends, dated from when the request was sent, less SAFETY_MS', () => {
    const entry = { startTime: 0, duration: 300, serverTiming: timing(idleServerTiming(LIMIT - 1000, LIMIT)) };
    expect(deadlineOf(entry, 300, T0)).toEqual({ at: T0 - 300 + LIMIT - 1000 - SAFETY_MS, limit: LIMIT });
  });
  it('null for an answer without the metrics (anonymous, another origin)', () => {
    expect(deadlineOf({ startTime: 0, duration: 5, serverTiming: [] }, 5, T0)).toBeNull();
    expect(deadlineOf({ startTime: 0, duration: 5 }, 5, T0)).toBeNull();
  });
});
