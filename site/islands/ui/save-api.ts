/**
 * Changes a signed-in person makes (POST, PUT, PATCH, DELETE: an admin's saves, an application's submission, the
 * profile's details) go through `saveApi`: the same call as `api` (lib/api-client.ts; same shapes and errors),
 * except that a 401 — the login ended while they worked (30 minutes idle for admins, 2 hours for students:
 * api/src/auth/session.ts, ASVS 5.0 V7.3.1) — opens "Your session has ended" (SignInAgain.tsx, loaded only then)
 * and, once the person has logged in again as the same account, sends the change once more. Cancelled, it throws
 * the 401's ApiError as `api` would, and the form keeps what was typed (issue #16, no lost work). Reads keep
 * `api`: a page whose read answers 401 goes to the log-in page as before.
 * A change the server refused without acting on it — a stopping node's 503 `unavailable` "The server is restarting"
 * (api/src/server.ts refuse, answered before the body is read) or a node's 503 `busy` with no slot for a large submit
 * body (api/src/features/applications/large-body.ts, also before the body is read) — is sent again after the answer's
 * Retry-After (at most RETRY_AFTER_CAP_MS, at most REFUSAL_RETRIES times), so that through a balancer it reaches a live
 * node; the caller's busy state stays on meanwhile and only a refusal that lasts past the retries is thrown (QA, rolling
 * restart behind HAProxy: a Submit answered 'The server is restarting').
 */
import { api, ApiError } from '../../lib/api-client.ts';
import type { SignInReason } from './SignInAgain.tsx';

/** What `saveApi` takes: `api`'s init (lib/api-client.ts: `json`, `timeoutMs`, RequestInit) with a method. */
export type SaveInit = RequestInit & { json?: unknown; timeoutMs?: number; method: string };

/** Longest wait, ms, before a refused change is sent again, whatever its Retry-After says. */
export const RETRY_AFTER_CAP_MS = 5000;
/** How many times a refused change is sent again before its refusal is thrown. */
export const REFUSAL_RETRIES = 2;
/** The message of a stopping node's refusal (api/src/server.ts refuse); the database-outage 503 says something else. */
export const RESTART_MESSAGE = 'The server is restarting. Please try again shortly.';

/**
 * How long (ms, capped at RETRY_AFTER_CAP_MS) to wait before sending a change again that was answered `status` with
 * the parsed error `body` and the Retry-After header `retryAfter` (delay-seconds or an HTTP date, RFC 9110 §10.2.3,
 * from `now`); null when it must not be sent again. Only refusals the server answers before it reads the request, so
 * that nothing was done: 503 `unavailable` with RESTART_MESSAGE (server.ts refuse) and 503 `busy` (large-body.ts), each
 * with a Retry-After. The other 503 `unavailable`, a database outage (api/src/http/error-handler.ts), can come after the
 * change was written (a commit whose answer was lost), so it is never resent; nor is 429 (the same person's previous
 * submission still being received).
 */
export function refusalRetryMs(status: number, body: ApiError['body'], retryAfter: string | null, now = Date.now()): number | null {
  if (status !== 503 || retryAfter === null) return null;
  const code = body?.error?.code;
  if (!(code === 'busy' || (code === 'unavailable' && body?.error?.message === RESTART_MESSAGE))) return null;
  const value = retryAfter.trim();
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  if (Number.isNaN(ms)) return null;
  return Math.min(RETRY_AFTER_CAP_MS, Math.max(0, ms));
}

/** Waits `ms`; rejects with the signal's reason if `signal` aborts first (the caller cancelled). */
function pause(ms: number, signal: AbortSignal | null | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) { reject(signal.reason); return; }
    const done = () => { signal?.removeEventListener('abort', stop); resolve(); };
    const timer = setTimeout(done, ms);
    const stop = () => { clearTimeout(timer); reject(signal!.reason); };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/**
 * `api(path, init)` (lib/api-client.ts: cookies, JSON body, bearer token, WRITE_TIMEOUT_MS unless `timeoutMs` or a
 * `signal`; ApiError, RequestTimeoutError, NetworkError), sent again while refusalRetryMs allows it from the
 * ApiError's status, body and Retry-After.
 */
async function send<T>(path: string, init: SaveInit): Promise<T> {
  for (let retries = 0; ; retries++) {
    try {
      return await api<T>(path, init);
    } catch (e) {
      const wait = e instanceof ApiError && retries < REFUSAL_RETRIES ? refusalRetryMs(e.status, e.body, e.retryAfter) : null;
      if (wait === null) throw e;
      await pause(wait, init.signal);
    }
  }
}

/**
 * Loads the "Your session has ended" dialog and shows it (SignInAgain.tsx); resolves true once the person has
 * logged in again, false if they cancelled. For callers that send without `api` (the uploads) and must retry on
 * their own after a 401. `reason` replaces the dialog's title and "logged out after a while" text (the wizard's
 * draft when another account is logged in: DRAFT_OTHER_USER_TITLE, DRAFT_OTHER_USER); the dialog is shared, so the
 * caller that opened it decides.
 */
export async function askToSignInAgain(reason?: SignInReason): Promise<boolean> {
  const { signInAgain } = await import('./SignInAgain.tsx');
  return signInAgain(reason);
}

/**
 * `api(path, init)`, with a refusal sent again after its Retry-After (refusalRetryMs) and a log-in-again and one more
 * send on 401 (see the module comment). Throws what `api` throws, the last refusal's ApiError included.
 */
export async function saveApi<T = unknown>(path: string, init: SaveInit): Promise<T> {
  try {
    return await send<T>(path, init);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 401) throw e;
    if (!(await askToSignInAgain())) throw e;
    return send<T>(path, init);
  }
}
