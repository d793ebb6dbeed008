import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, NETWORK_MESSAGE, NetworkError, RequestTimeoutError, timeoutSignal, WRITE_TIMEOUT_MS } from './api-client.ts';
import { isNetworkError } from './offline-snapshot.ts';

// fetch as the page sees it: answers `answer`, or (null) waits for the request's signal and rejects with its reason.
function stubFetch(answer: (() => Promise<Response>) | null) {
  vi.stubGlobal('fetch', (_path: string, init: RequestInit) => answer ? answer() : new Promise((_, reject) => {
    init.signal?.addEventListener('abort', () => reject(init.signal!.reason));
  }));
}

describe('api() on old browsers and bad connections (device audit: iOS 15, Chrome < 103)', () => {
  const native = AbortSignal.timeout;
  beforeEach(() => { delete (AbortSignal as { timeout?: unknown }).timeout; });
  afterEach(() => { AbortSignal.timeout = native; vi.unstubAllGlobals(); vi.useRealTimers(); });

  it('a read with a time-out works without AbortSignal.timeout and gives up with a TimeoutError that counts as offline', async () => {
    stubFetch(async () => new Response('{"ok":true}', { status: 200 }));
    await expect(api('/api/auth/me', { timeoutMs: 8000 })).resolves.toEqual({ ok: true });

    vi.useFakeTimers();
    stubFetch(null);
    const read = api('/api/auth/me', { timeoutMs: 8000 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(8000);
    const e = await read;
    expect(e).toMatchObject({ name: 'TimeoutError' });
    expect(isNetworkError(e)).toBe(true);
  });

  it('timeoutSignal aborts after the given time with a TimeoutError', async () => {
    vi.useFakeTimers();
    const s = timeoutSignal(50);
    expect(s.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(50);
    expect(s.reason).toMatchObject({ name: 'TimeoutError' });
  });

  it("only fetch's own failure is offline, in plain words; a fault in the page is not", async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const e = await api('/api/courses').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(NetworkError);
    expect(e).toBeInstanceOf(TypeError);
    expect((e as Error).message).toBe('Could not reach the server. Check your connection and try again.');
    expect(isNetworkError(e)).toBe(true);
    expect(isNetworkError(new TypeError('AbortSignal.timeout is not a function'))).toBe(false);
  });

  it('a change (log in, register, submit) with no answer gives up after 30 s in plain words; a read without a time-out waits', async () => {
    vi.useFakeTimers();
    stubFetch(null);
    let readSettled = false;
    void api('/api/courses').finally(() => { readSettled = true; }).catch(() => {});
    const write = api('/api/colfront/auth/login', { method: 'POST', json: {} }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(WRITE_TIMEOUT_MS);
    const e = await write;
    expect(WRITE_TIMEOUT_MS).toBe(30_000);
    expect(e).toBeInstanceOf(RequestTimeoutError);
    expect((e as Error).message).toBe('This is taking too long. Check your connection and try again.');
    expect(isNetworkError(e)).toBe(true);
    expect(readSettled).toBe(false);
  });
});

describe('ApiError.userMessage (QA audit 2026-11-28: a balancer\'s page was shown as "API Error (502): <html>…")', () => {
  it('is the API\'s own message when the answer has one', () => {
    expect(new ApiError(409, JSON.stringify({ error: { code: 'conflict', message: 'This application is now Accepted.' } })).userMessage).toBe('This application is now Accepted.');
  });
  it('a 502, 503 or 504 page from a balancer says the server could not be reached; another answer without a message says so in plain words', () => {
    for (const status of [502, 503, 504]) expect(new ApiError(status, '<html><body>Bad Gateway</body></html>').userMessage).toBe(NETWORK_MESSAGE);
    expect(new ApiError(413, '<html>Request Entity Too Large</html>').userMessage).toBe('Something went wrong (error 413). Please try again.');
    expect(new ApiError(500, '').userMessage).not.toContain('API Error');
  });
});

describe('api() marks the polls of an unattended tab (BACKGROUND_HEADER, api/contracts/session-idle.ts)', () => {
  afterEach(() => { vi.unstubAllGlobals(); vi.useRealTimers(); vi.resetModules(); });

  it('no header while the page is used; the header once nobody has touched it for a minute; input clears it again', async () => {
    vi.useFakeTimers();
    const listeners: Record<string, () => void> = {};
    vi.stubGlobal('addEventListener', (type: string, fn: () => void) => { listeners[type] = fn; });
    const sent: (string | null)[] = [];
    vi.stubGlobal('fetch', async (_path: string, init: RequestInit) => { sent.push(new Headers(init.headers).get('X-Background-Request')); return new Response('{}', { status: 200 }); });
    vi.resetModules();
    const { api: fresh } = await import('./api-client.ts');
    await fresh('/api/admin/site-build');
    vi.advanceTimersByTime(61_000);
    await fresh('/api/admin/site-build');
    listeners.keydown!();
    await fresh('/api/admin/site-build');
    vi.advanceTimersByTime(30_000);
    listeners.scroll!();
    vi.advanceTimersByTime(59_000);
    await fresh('/api/admin/site-build');
    expect(sent).toEqual([null, '1', null, null]);
  });
});
