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

import { createDraftStore, DRAFT_RETRY_MAX_MS, DRAFT_RETRY_MS, retryAfterMs, type SyncState } from './draft-store.ts';

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
    // The old key's device copy stays until the server has the new one.
    expect(Object.keys(store)).toEqual(['apply-draft:7:course-999999', 'apply-draft:7:course-2']);
    answers = [draftAnswer(1), { status: 204 }];
    s.save(0, { city: 'Thohoyandou', courseId: '2' });
    await vi.advanceTimersByTimeAsync(1200);
    expect(calls.slice(1).map((c) => `${c.method} ${c.url}`)).toEqual([
      'PUT /api/applications/draft?key=course-2',
      'DELETE /api/applications/draft?key=course-999999&forUserId=7',
    ]);
    expect(last(states)).toBe('saved');
    expect(JSON.parse(store['apply-draft:7:course-2']!).data.city).toBe('Thohoyandou');
    expect(Object.keys(store)).toEqual(['apply-draft:7:course-2']);
  });
});

describe('draft-store review of 82fe9da (moveTo, dispose, odd answers)', () => {
  const conflictAnswer = (revision: number, city: string): Answer => ({ status: 409, body: { error: { code: 'draft_conflict' }, draft: { step: 0, data: { city, savedAt: '2026-11-27T08:00:00Z' }, updatedAt: '2026-11-27T08:00:00Z', revision } } });

  it("moved onto a course that has a server draft: 'Load the newer version' keeps the old key's copies (no DELETE, device copy stays)", async () => {
    answers = [{ status: 404, body: { error: { message: 'Course Not Found' } } }];
    const conflicts: unknown[] = [];
    const states: SyncState[] = [];
    const s = createDraftStore(7, 'course-999999', (x) => states.push(x), (t) => conflicts.push(t));
    s.save(1, { city: 'Thohoyandou' });
    await vi.advanceTimersByTimeAsync(1200);
    s.moveTo('course-2');
    answers = [conflictAnswer(4, 'Polokwane')];
    s.save(0, { city: 'Thohoyandou', courseId: '2' });
    await vi.advanceTimersByTimeAsync(1200);
    expect(last(states)).toBe('conflict');
    expect(conflicts).toHaveLength(1);
    expect(s.takeTheirs()?.data.city).toBe('Polokwane');
    // The next change under the new key is saved; the old key's copies stay.
    answers = [draftAnswer(5)];
    s.save(0, { city: 'Polokwane', courseId: '2' });
    await vi.advanceTimersByTimeAsync(1200 + 600000);
    expect(calls.slice(1).map((c) => `${c.method} ${c.url}`)).toEqual(['PUT /api/applications/draft?key=course-2', 'PUT /api/applications/draft?key=course-2']);
    expect(JSON.parse(store['apply-draft:7:course-999999'] ?? 'null')?.data.city).toBe('Thohoyandou');
  });

  it('moveTo says whether it moved: not in a conflict, not after discard, not to the same key', async () => {
    answers = [conflictAnswer(4, 'Polokwane')];
    const s = createDraftStore(7, 'course-2', () => {}, () => {});
    expect(s.moveTo('course-2')).toBe(false);
    s.save(0, { city: 'Thohoyandou' });
    await vi.advanceTimersByTimeAsync(1200);
    expect(s.moveTo('course-4')).toBe(false);
    s.takeTheirs();
    expect(s.moveTo('course-4')).toBe(true);
    answers = [{ status: 204 }];
    await s.discard();
    expect(s.moveTo('course-5')).toBe(false);
  });

  it("moveTo keeps the old key's device copy when the new one cannot be written (storage full), and until the server has it", async () => {
    answers = [{ status: 404, body: { error: { message: 'Course Not Found' } } }];
    const { s } = await storeWithOneChange('course-999999');
    const setItem = localStorage.setItem;
    vi.stubGlobal('localStorage', { ...localStorage, setItem: () => { throw new DOMException('full', 'QuotaExceededError'); } });
    s.moveTo('course-2');
    expect(JSON.parse(store['apply-draft:7:course-999999']!).data.city).toBe('Thohoyandou');
    vi.stubGlobal('localStorage', { ...localStorage, setItem });
    answers = [draftAnswer(1), { status: 204 }];
    s.save(0, { city: 'Thohoyandou', courseId: '2' });
    await vi.advanceTimersByTimeAsync(1200);
    expect(Object.keys(store)).toEqual(['apply-draft:7:course-2']);
  });

  it('dispose stops a failed save\'s retries and the online/visibility listeners; the device copy stays', async () => {
    answers = ['down'];
    const { s, states } = await storeWithOneChange();
    expect(last(states)).toBe('retrying');
    s.dispose();
    window.dispatchEvent(new Event('online'));
    document.dispatchEvent(new Event('visibilitychange'));
    window.dispatchEvent(new Event('pagehide'));
    await vi.advanceTimersByTimeAsync(600000);
    expect(puts()).toHaveLength(1);
    expect(JSON.parse(store['apply-draft:7:course-2']!).data.city).toBe('Thohoyandou');
  });

  it('a save under way when disposed: its answer changes nothing (no state, no device write)', async () => {
    let answer!: (r: Response) => void;
    vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => { calls.push({ at: Date.now(), method: init.method ?? 'GET', url }); return new Promise<Response>((r) => { answer = r; }); });
    const states: SyncState[] = [];
    const s = createDraftStore(7, 'course-2', (x) => states.push(x), () => {});
    s.save(1, { city: 'Thohoyandou' });
    await vi.advanceTimersByTimeAsync(1200);
    s.dispose();
    const told = states.length;
    answer(new Response(JSON.stringify({ error: { code: 'draft_other_user' } }), { status: 409 }));
    await vi.advanceTimersByTimeAsync(600000);
    expect(states).toHaveLength(told);
    expect(puts()).toHaveLength(1);
  });

  it("a 2xx that is not the API's (a captive portal's page, or JSON without the draft) is no answer: 'retrying', tried again", async () => {
    vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
      calls.push({ at: Date.now(), method: init.method ?? 'GET', url });
      const n = puts().length;
      if (n === 1) return new Response('<html>Log in to the Wi-Fi</html>', { status: 200, headers: { 'content-type': 'text/html' } });
      if (n === 2) return new Response('{}', { status: 200 });
      return new Response(JSON.stringify({ draft: { step: 1, data: {}, updatedAt: '2026-11-28T09:00:00Z', revision: 1 } }), { status: 200 });
    });
    const { states } = await storeWithOneChange();
    expect(last(states)).toBe('retrying');
    await vi.advanceTimersByTimeAsync(2000 + 5000);
    expect(sinceFirst()).toEqual([0, 2000, 7000]);
    expect(last(states)).toBe('saved');
  });

  it('a Retry-After beyond what setTimeout takes (2^31 ms) is waited for at most DRAFT_RETRY_MAX_MS (1 h), not retried at once', async () => {
    answers = [{ status: 503, headers: { 'Retry-After': '3000000' } }, draftAnswer(1)];
    const { states } = await storeWithOneChange();
    await vi.advanceTimersByTimeAsync(DRAFT_RETRY_MAX_MS - 1);
    expect(puts()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sinceFirst()).toEqual([0, DRAFT_RETRY_MAX_MS]);
    expect(DRAFT_RETRY_MAX_MS).toBe(3_600_000);
    expect(last(states)).toBe('saved');
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
