/**
 * draft-store.ts, "no lost work" QA audit (phone, 2026-11-28): a draft save that fails while the browser is online
 * is tried again by itself (DRAFT_RETRY_MS, never before a Retry-After), says 'retrying' rather than offline, and a
 * 4xx other than 408/429 is not tried again (a 404 is 'no-course'); moveTo puts the draft under another course's key
 * and deletes the old key's server copy once the new one is saved. Fake clock; fetch, window and localStorage stubbed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../stores/session.ts', () => ({ $session: { get: () => ({ user: { id: 7 } }), listen: () => () => {} }, sendBeforeLogout: () => () => {} }));
vi.mock('../../lib/pending-saves-channel.ts', () => ({ answerOtherTabs: () => () => {} }));
vi.mock('../ui/save-api.ts', () => ({ askToSignInAgain: async () => false }));

import { createDraftStore, DRAFT_RETRY_MS, retryAfterMs, type SyncState } from './draft-store.ts';

/** One answer of the stubbed fetch: a status with a JSON body and headers, or 'down' (no connection: fetch rejects). */
type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | 'down';
const draftAnswer = (revision: number): Answer => ({ status: 200, body: { draft: { step: 1, data: {}, updatedAt: '2026-11-28T09:00:00Z', revision } } });

let answers: Answer[];
let calls: { at: number; method: string; url: string }[];
let online: boolean;
let store: Record<string, string>;
const listeners = { window: new EventTarget(), document: Object.assign(new EventTarget(), { hidden: false }) };

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-11-28T09:00:00Z'));
  answers = [];
  calls = [];
  online = true;
  store = {};
  listeners.window = new EventTarget();
  listeners.document = Object.assign(new EventTarget(), { hidden: false });
  vi.stubGlobal('window', listeners.window);
  vi.stubGlobal('document', listeners.document);
  vi.stubGlobal('navigator', { get onLine() { return online; } });
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => store[k] ?? null, setItem: (k: string, v: string) => { store[k] = v; }, removeItem: (k: string) => { delete store[k]; },
  });
  // Object.keys(localStorage) in load(): the stub's own keys are the methods, none a draft's.
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    calls.push({ at: Date.now(), method: init.method ?? 'GET', url });
    const a = answers.shift();
    if (!a) throw new Error(`unexpected ${init.method} ${url}`);
    if (a === 'down') throw new TypeError('Failed to fetch');
    return new Response(a.body === undefined ? null : JSON.stringify(a.body), { status: a.status, headers: { 'content-type': 'application/json', ...a.headers } });
  });
});
afterEach(() => { vi.useRealTimers(); vi.unstubAllGlobals(); });

/** A store of user 7's draft `key` whose states are recorded, after the first change has waited out its pause. */
async function storeWithOneChange(key = 'course-2') {
  const states: SyncState[] = [];
  const s = createDraftStore(7, key, (x) => states.push(x), () => {});
  s.save(1, { city: 'Thohoyandou' });
  await vi.advanceTimersByTimeAsync(1200);
  return { s, states };
}
const last = <T,>(a: T[]): T | undefined => a[a.length - 1];
const puts = () => calls.filter((c) => c.method === 'PUT');
const sinceFirst = () => puts().map((c) => c.at - puts()[0]!.at);

describe('draft-store: a save that fails while online is tried again by itself', () => {
  it('no answer: tried again after 2 s, 5 s, 15 s, 30 s, then every 60 s, saying retrying (not offline); a success ends it', async () => {
    answers = ['down', 'down', 'down', 'down', 'down', 'down', 'down', draftAnswer(1)];
    const { states } = await storeWithOneChange();
    expect(last(states)).toBe('retrying');
    await vi.advanceTimersByTimeAsync(2000 + 5000 + 15000 + 30000 + 60000 + 60000);
    expect(sinceFirst()).toEqual([0, 2000, 7000, 22000, 52000, 112000, 172000]);
    expect(last(states)).toBe('retrying');
    await vi.advanceTimersByTimeAsync(60000);
    expect(puts()).toHaveLength(8);
    expect(last(states)).toBe('saved');
    await vi.advanceTimersByTimeAsync(600000);
    expect(puts()).toHaveLength(8);
    expect(DRAFT_RETRY_MS).toEqual([2000, 5000, 15000, 30000, 60000]);
  });

  it('offline (navigator.onLine false) the state keeps the offline wording, and coming back online sends at once', async () => {
    online = false;
    answers = ['down', draftAnswer(1)];
    const { states } = await storeWithOneChange();
    expect(last(states)).toBe('local-only');
    online = true;
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(sinceFirst()).toEqual([0, 0]);
    expect(last(states)).toBe('saved');
  });

  it('5xx, 408 and 429 are tried again; a Retry-After longer than the back-off is waited for', async () => {
    answers = [{ status: 503, body: { error: { code: 'unavailable' } }, headers: { 'Retry-After': '20' } }, { status: 500 }, { status: 408 }, { status: 429, headers: { 'Retry-After': '1' } }, draftAnswer(1)];
    const { states } = await storeWithOneChange();
    await vi.advanceTimersByTimeAsync(20000 + 5000 + 15000 + 30000);
    expect(sinceFirst()).toEqual([0, 20000, 25000, 40000, 70000]);
    expect(last(states)).toBe('saved');
  });

  it('the tab shown again sends a failed save at once, without waiting for the retry', async () => {
    answers = ['down', draftAnswer(1)];
    const { states } = await storeWithOneChange();
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(0);
    expect(sinceFirst()).toEqual([0, 0]);
    expect(last(states)).toBe('saved');
    await vi.advanceTimersByTimeAsync(120000);
    expect(puts()).toHaveLength(2);
  });

  it("a 404 (the key's course does not exist) is 'no-course' and not tried again, nor when online or shown again; a 400 is 'refused'", async () => {
    answers = [{ status: 404, body: { error: { code: 'not_found', message: 'Course Not Found' } } }];
    const { s, states } = await storeWithOneChange('course-999999');
    expect(last(states)).toBe('no-course');
    window.dispatchEvent(new Event('online'));
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(600000);
    expect(puts()).toHaveLength(1);
    // The next change is sent (after its pause), and a refusal that is not a 404 says so.
    answers = [{ status: 400, body: { error: { code: 'validation' } } }];
    s.save(1, { city: 'Makhado' });
    await vi.advanceTimersByTimeAsync(1200 + 600000);
    expect(puts()).toHaveLength(2);
    expect(last(states)).toBe('refused');
  });
});

describe('draft-store: moveTo', () => {
  it("moves the draft to the chosen course's key: the device's copy at once, the server's with the next save, the old key's copy deleted after", async () => {
    answers = [{ status: 404, body: { error: { message: 'Course Not Found' } } }];
    const { s, states } = await storeWithOneChange('course-999999');
    expect(Object.keys(store)).toEqual(['apply-draft:7:course-999999']);
    s.moveTo('course-2');
    expect(Object.keys(store)).toEqual(['apply-draft:7:course-2']);
    answers = [draftAnswer(1), { status: 204 }];
    s.save(0, { city: 'Thohoyandou', courseId: '2' });
    await vi.advanceTimersByTimeAsync(1200);
    expect(calls.slice(1).map((c) => `${c.method} ${c.url}`)).toEqual([
      'PUT /api/applications/draft?key=course-2',
      'DELETE /api/applications/draft?key=course-999999&forUserId=7',
    ]);
    expect(last(states)).toBe('saved');
    expect(JSON.parse(store['apply-draft:7:course-2']!).data.city).toBe('Thohoyandou');
  });
});

describe('retryAfterMs', () => {
  it('reads delay-seconds and an HTTP date; 0 when absent, past or unreadable', () => {
    const now = Date.parse('2026-11-28T09:00:00Z');
    expect(retryAfterMs('20', now)).toBe(20000);
    expect(retryAfterMs('Sat, 28 Nov 2026 09:00:30 GMT', now)).toBe(30000);
    expect(retryAfterMs(null, now)).toBe(0);
    expect(retryAfterMs('Sat, 28 Nov 2026 08:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBe(0);
  });
});
