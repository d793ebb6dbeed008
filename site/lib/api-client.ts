/**
 * The one fetch wrapper (spec §7): cookies included, JSON content type, bearer token from
 * localStorage 'authToken' when present. A non-ok response throws ApiError whose message is
 * 'API Error ({status}): {response body}' (spec §8) and which carries the parsed error body.
 */
export const TOKEN_KEY = 'authToken';

export class ApiError extends Error {
  status: number;
  body: { error?: { code?: string; message?: string; fields?: Record<string, string> } } | null;
  constructor(status: number, text: string) {
    super(`API Error (${status}): ${text}`);
    this.status = status;
    try { this.body = JSON.parse(text); } catch { this.body = null; }
  }
  /** The server's human message, e.g. 'Invalid email or password'. */
  get userMessage(): string { return this.body?.error?.message ?? this.message; }
  get fields(): Record<string, string> { return this.body?.error?.fields ?? {}; }
}

/**
 * How long a read the page can do without (session check, dashboard lists, the wizard's course list and draft) may
 * wait before the page goes on with its last-known copy, in ms (issue #16 point 4: a dead connection must not hang).
 */
export const READ_TIMEOUT_MS = 8000;

function token(): string | null {
  try { return localStorage.getItem(TOKEN_KEY); } catch { return null; }
}

/**
 * Fetches `path` (same origin) and parses the JSON answer (null for an empty body). `json` is sent as the
 * JSON body; `timeoutMs` aborts a request that has no answer by then (a DOMException named 'TimeoutError',
 * as for any failure to reach the server no ApiError). Throws ApiError for a non-ok answer, TypeError when the
 * server cannot be reached (offline, DNS, reset).
 */
export async function api<T = unknown>(path: string, init: RequestInit & { json?: unknown; timeoutMs?: number } = {}): Promise<T> {
  const headers = new Headers(init.headers);
  const { json, timeoutMs, ...rest } = init;
  if (timeoutMs !== undefined && !rest.signal) rest.signal = AbortSignal.timeout(timeoutMs);
  if (json !== undefined) headers.set('Content-Type', 'application/json');
  const t = token();
  if (t && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${t}`);
  const res = await fetch(path, { credentials: 'include', ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
  const text = await res.text();
  if (!res.ok) throw new ApiError(res.status, text || res.statusText);
  return (text ? JSON.parse(text) : null) as T;
}

/** GET that answers null on 401 (spec §7: applications and notifications reads); `init` as for `api`. */
export async function apiOrNull<T>(path: string, init: { timeoutMs?: number } = {}): Promise<T | null> {
  try { return await api<T>(path, init); } catch (e) { if (e instanceof ApiError && e.status === 401) return null; throw e; }
}
