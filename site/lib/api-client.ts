/**
 * The one fetch wrapper (spec §7): cookies included, JSON content type, bearer token from
 * localStorage 'authToken' when present. A non-ok response throws ApiError whose message is
 * 'API Error ({status}): {response body}' (spec §8) and which carries the parsed error body.
 */
import { BACKGROUND_AFTER_MS, BACKGROUND_HEADER } from '#contracts/session-idle.ts';

export const TOKEN_KEY = 'authToken';

/** When the person last touched the page (ms since the epoch; page load counts): see api()'s BACKGROUND_HEADER. */
let lastInput = Date.now();
if (typeof addEventListener === 'function') {
  for (const type of ['keydown', 'pointerdown', 'wheel', 'touchstart', 'scroll']) addEventListener(type, () => { lastInput = Date.now(); }, { capture: true, passive: true });
}

export class ApiError extends Error {
  status: number;
  body: { error?: { code?: string; message?: string; fields?: Record<string, string> } } | null;
  /** The answer's Retry-After header (RFC 9110 §10.2.3), or null: save-api.ts resends a refusal after it. */
  retryAfter: string | null;
  constructor(status: number, text: string, retryAfter: string | null = null) {
    super(`API Error (${status}): ${text}`);
    this.status = status;
    this.retryAfter = retryAfter;
    try { this.body = JSON.parse(text); } catch { this.body = null; }
  }
  /**
   * The server's human message, e.g. 'Invalid email or password'. An answer without one (a balancer's or proxy's
   * page) is never shown raw ('API Error (502): <html>…', QA audit 2026-11-28): 502, 503 and 504 are NETWORK_MESSAGE
   * (no working server answered), anything else 'Something went wrong (error N). Please try again.'.
   */
  get userMessage(): string {
    return this.body?.error?.message ?? (this.status >= 502 && this.status <= 504 ? NETWORK_MESSAGE : `Something went wrong (error ${this.status}). Please try again.`);
  }
  get fields(): Record<string, string> { return this.body?.error?.fields ?? {}; }
}

/**
 * How long a read the page can do without (session check, dashboard lists, the wizard's course list and draft) may
 * wait before the page goes on with its last-known copy, in ms (issue #16 point 4: a dead connection must not hang).
 */
export const READ_TIMEOUT_MS = 8000;

/**
 * How long a change (POST, PUT, PATCH, DELETE: log in, register, submit an application, an admin's save) waits for an
 * answer unless the caller gives its own `timeoutMs` or `signal`, in ms. On a stalled connection the button would
 * otherwise say "Logging in..." for ever (device audit, cheap phones); after this the form says TIMEOUT_MESSAGE.
 */
export const WRITE_TIMEOUT_MS = 30_000;

/** What a person is told when a request had no answer in time (RequestTimeoutError's message). */
export const TIMEOUT_MESSAGE = 'This is taking too long. Check your connection and try again.';
/** What a person is told when the server could not be reached (NetworkError's message, instead of 'Failed to fetch'). */
export const NETWORK_MESSAGE = 'Could not reach the server. Check your connection and try again.';

/**
 * The server could not be reached: fetch itself failed (offline, DNS, reset, 'Failed to fetch' in Chrome, 'Load
 * failed' in Safari). A TypeError, as fetch's own failure is, so `instanceof TypeError` checks keep working; the
 * message is NETWORK_MESSAGE in plain words and the browser's error is the `cause`.
 */
export class NetworkError extends TypeError {
  constructor(cause: unknown) {
    super(NETWORK_MESSAGE);
    this.name = 'NetworkError';
    this.cause = cause;
  }
}

/** No answer within the request's time-out (`timeoutMs`, or WRITE_TIMEOUT_MS for a change); message TIMEOUT_MESSAGE. */
export class RequestTimeoutError extends Error {
  constructor() {
    super(TIMEOUT_MESSAGE);
    this.name = 'TimeoutError';
  }
}

/**
 * An AbortSignal that aborts after `ms` milliseconds with a DOMException named 'TimeoutError': the browser's own
 * AbortSignal.timeout where there is one, else an AbortController and setTimeout. AbortSignal.timeout is missing
 * from iOS/Safari < 16, Chrome and Android WebView < 103 and Samsung Internet < 20, where calling it threw a TypeError
 * that took the whole portal down (device audit). `timeout-signal` (npm) was not used: it never takes the native
 * path and aborts with a plain AbortError, which cannot be told apart from a caller's own cancel.
 */
export function timeoutSignal(ms: number): AbortSignal {
  if (typeof AbortSignal.timeout === 'function') return AbortSignal.timeout(ms);
  const controller = new AbortController();
  setTimeout(() => controller.abort(new DOMException('signal timed out', 'TimeoutError')), ms);
  return controller.signal;
}

/** The bearer token this browser stored at log-in (TOKEN_KEY), or null (none, or storage unavailable). */
export function storedToken(): string | null {
  try { return localStorage.getItem(TOKEN_KEY); } catch { return null; }
}

const isChange = (method: string | undefined): boolean => !!method && !/^(GET|HEAD)$/i.test(method);

/**
 * Fetches `path` (same origin) and parses the JSON answer (null for an empty body). A request made when nobody has
 * touched the page for BACKGROUND_AFTER_MS (a poll of an unattended tab) says so in BACKGROUND_HEADER, so it does not
 * keep the login from its idle limit (api/contracts/session-idle.ts). `json` is sent as the
 * JSON body; `timeoutMs` gives up on a request that has no answer by then (default: none for a read,
 * WRITE_TIMEOUT_MS for a change; a caller's own `signal` replaces the default). Throws ApiError for a non-ok answer,
 * RequestTimeoutError when the time ran out, NetworkError (a TypeError) when the server cannot be reached (offline,
 * DNS, reset), and a caller's own abort as fetch gives it (DOMException 'AbortError').
 */
export async function api<T = unknown>(path: string, init: RequestInit & { json?: unknown; timeoutMs?: number } = {}): Promise<T> {
  const headers = new Headers(init.headers);
  const { json, timeoutMs, ...rest } = init;
  const limit = timeoutMs ?? (isChange(rest.method) ? WRITE_TIMEOUT_MS : undefined);
  const timer = limit !== undefined && !rest.signal ? timeoutSignal(limit) : undefined;
  if (timer) rest.signal = timer;
  if (json !== undefined) headers.set('Content-Type', 'application/json');
  const t = storedToken();
  if (t && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${t}`);
  if (Date.now() - lastInput > BACKGROUND_AFTER_MS) headers.set(BACKGROUND_HEADER, '1');
  let res: Response;
  let text: string;
  try {
    res = await fetch(path, { credentials: 'include', ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
    text = await res.text();
  } catch (e) {
    if (timer?.aborted) throw new RequestTimeoutError();
    throw e instanceof TypeError ? new NetworkError(e) : e;
  }
  if (!res.ok) throw new ApiError(res.status, text || res.statusText, res.headers.get('Retry-After'));
  return (text ? JSON.parse(text) : null) as T;
}

/** GET that answers null on 401 (spec §7: applications and notifications reads); `init` as for `api`. */
export async function apiOrNull<T>(path: string, init: { timeoutMs?: number } = {}): Promise<T | null> {
  try { return await api<T>(path, init); } catch (e) { if (e instanceof ApiError && e.status === 401) return null; throw e; }
}
