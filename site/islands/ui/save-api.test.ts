import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import { saveApi } from './save-api.ts';

vi.mock('./SignInAgain.tsx', () => ({ signInAgain: async () => true }));

const RESTARTING = { error: { code: 'unavailable', message: 'The server is restarting. Please try again shortly.' } };
const DB_DOWN = { error: { code: 'unavailable', message: 'Service temporarily unavailable. Please try again shortly.' } };
const BUSY = { error: { code: 'busy', message: 'The server is busy receiving other applications with documents. Please try again in a few seconds.' } };

/** A JSON answer `status` with `headers`. */
const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** fetch as the page sees it: the given answers in turn; each call's time (fake clock) and body are kept. */
function stubFetch(...answers: (() => Response)[]) {
  const calls: { at: number; body: unknown; method?: string }[] = [];
  vi.stubGlobal('fetch', async (_path: string, init: RequestInit) => {
    calls.push({ at: Date.now(), body: init.body, method: init.method });
    const next = answers.shift();
    if (!next) throw new Error('unexpected fetch');
    return next();
  });
  return calls;
}

/** Runs `work` to its end on the fake clock; its value, or what it threw. */
async function settle<T>(work: Promise<T>): Promise<T | unknown> {
  const caught = work.catch((e: unknown) => e);
  await vi.runAllTimersAsync();
  return caught;
}

describe('saveApi: a change the server refused before reading it is sent again (rolling restart behind a balancer)', () => {
  beforeEach(() => { vi.useFakeTimers(); vi.setSystemTime(new Date('2026-11-28T09:00:00Z')); });
  afterEach(() => { vi.useRealTimers(); vi.unstubAllGlobals(); });

  it("a stopping node's 503 'The server is restarting' is sent again after its Retry-After, and the second node's answer is the result", async () => {
    const calls = stubFetch(answer(503, RESTARTING, { 'Retry-After': '1' }), answer(201, { application: { id: 7 } }));
    const result = await settle(saveApi('/api/applications', { method: 'POST', json: { courseId: 3 } }));
    expect(result).toEqual({ application: { id: 7 } });
    expect(calls.map((c) => c.at - calls[0]!.at)).toEqual([0, 1000]);
    expect(calls[1]!.body).toBe(calls[0]!.body);
    expect(calls[1]!.body).toBe('{"courseId":3}');
  });

  it('a long Retry-After is capped at 5 s; an HTTP date is honoured', async () => {
    let calls = stubFetch(answer(503, RESTARTING, { 'Retry-After': '120' }), answer(200, { ok: true }));
    await settle(saveApi('/api/profile', { method: 'PUT', json: {} }));
    expect(calls.map((c) => c.at - calls[0]!.at)).toEqual([0, 5000]);
    calls = stubFetch(answer(503, RESTARTING, { 'Retry-After': new Date(Date.now() + 2000).toUTCString() }), answer(200, { ok: true }));
    await settle(saveApi('/api/profile', { method: 'PUT', json: {} }));
    expect(calls.map((c) => c.at - calls[0]!.at)).toEqual([0, 2000]);
  });

  it('at most two retries: a refusal that lasts is thrown as the ApiError api() throws', async () => {
    const calls = stubFetch(...[1, 2, 3].map(() => answer(503, RESTARTING, { 'Retry-After': '1' })));
    const e = await settle(saveApi('/api/applications', { method: 'POST', json: {} }));
    expect(calls).toHaveLength(3);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(503);
    expect((e as ApiError).userMessage).toBe('The server is restarting. Please try again shortly.');
    expect((e as ApiError).message).toBe(`API Error (503): ${JSON.stringify(RESTARTING)}`);
  });

  it("a node with no slot for a large submit body (503 busy, refused before the body is read) is asked again", async () => {
    const calls = stubFetch(answer(503, BUSY, { 'Retry-After': '5' }), answer(201, { application: { id: 8 } }));
    expect(await settle(saveApi('/api/applications', { method: 'POST', json: {} }))).toEqual({ application: { id: 8 } });
    expect(calls).toHaveLength(2);
  });

  it('never resent: a database outage (it may have been written), a refusal without Retry-After, 429, 500', async () => {
    for (const only of [answer(503, DB_DOWN, { 'Retry-After': '5' }), answer(503, RESTARTING), answer(429, { error: { code: 'too_many_requests', message: 'wait' } }, { 'Retry-After': '5' }), answer(500, { error: { code: 'internal_error', message: 'x' } })]) {
      const calls = stubFetch(only);
      const e = await settle(saveApi('/api/applications', { method: 'POST', json: {} }));
      expect(e).toBeInstanceOf(ApiError);
      expect(calls).toHaveLength(1);
    }
  });

  it('cancelled by the caller while waiting: rejects with its abort and sends nothing more', async () => {
    const calls = stubFetch(answer(503, RESTARTING, { 'Retry-After': '2' }));
    const controller = new AbortController();
    const work = saveApi('/api/applications', { method: 'POST', json: {}, signal: controller.signal }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1000);
    controller.abort();
    expect(await settle(work)).toMatchObject({ name: 'AbortError' });
    expect(calls).toHaveLength(1);
  });

  it('a 401 still asks to log in again and sends once more; a refusal then is retried too', async () => {
    const calls = stubFetch(answer(401, { error: { code: 'unauthorized', message: 'Authentication required' } }), answer(503, RESTARTING, { 'Retry-After': '1' }), answer(200, { saved: true }));
    expect(await settle(saveApi('/api/courses/1', { method: 'PUT', json: {} }))).toEqual({ saved: true });
    expect(calls).toHaveLength(3);
  });
});
