/**
 * Last-known personal data for pages that must open offline (issue #16 point 4: the student's dashboard shows
 * its last-known data, marked as such). Kept in this browser's localStorage under `college.offline.<key>`,
 * tagged with the user id so another user never sees it, and erased by `forgetSnapshots()` at log-out. The
 * service worker itself never caches an /api/ response.
 */
import { NetworkError, RequestTimeoutError } from './api-client.ts';

const PREFIX = 'college.offline.';

/** A remembered value and when it was fetched (ISO 8601). */
export interface Snapshot<T> { data: T; savedAt: string }

/**
 * True for a failure to reach the server at all — offline, DNS, reset (api()'s NetworkError, made from fetch's own
 * TypeError) or no answer in time (api()'s RequestTimeoutError, or a fetch aborted or timed out by its own signal,
 * DOMException 'TimeoutError'/'AbortError') — as opposed to an HTTP error answer. Any other TypeError is a fault in
 * the page (on an old browser, a missing API such as AbortSignal.timeout) and is not "offline": counted so, it sent
 * signed-in people on iOS 15 to "You are offline, and this device has not kept your sign-in" (device audit).
 */
export const isNetworkError = (e: unknown): boolean => e instanceof NetworkError || e instanceof RequestTimeoutError
  || (e instanceof DOMException && (e.name === 'TimeoutError' || e.name === 'AbortError'))
  || (typeof navigator !== 'undefined' && navigator.onLine === false);

/** Stores `data` as the last-known `key` of user `userId`, stamped now. Never throws (full or private storage). */
export function remember<T>(key: string, userId: number, data: T): void {
  try { localStorage.setItem(PREFIX + key, JSON.stringify({ userId, savedAt: new Date().toISOString(), data })); } catch { /* full or private mode */ }
}

/** The snapshot of `key` for `userId`, or null (none, or someone else's). */
export function recall<T>(key: string, userId: number): Snapshot<T> | null {
  try {
    const v = JSON.parse(localStorage.getItem(PREFIX + key) ?? 'null');
    return v && v.userId === userId ? { data: v.data as T, savedAt: v.savedAt } : null;
  } catch { return null; }
}

/** Erases every snapshot (log-out, or another user signing in on this device). */
export function forgetSnapshots(): void { forgetKeysStartingWith(PREFIX); }

function forgetKeysStartingWith(prefix: string): void {
  try { for (const k of Object.keys(localStorage)) if (k.startsWith(prefix)) localStorage.removeItem(k); } catch { /* ignore */ }
}

/** localStorage key prefix of the wizard's local draft copies, `apply-draft:<userId>:<key>` (draft-store.ts). */
export const DRAFT_PREFIX = 'apply-draft:';

/**
 * Erases this device's copies of application drafts (name, ID number, address, school results). Called at log-out
 * (stores/session.ts logout) once the wizard's waiting changes have reached the server, so the server copy resumes
 * them on any device, or once the person, told that some could not be sent, chose to log out and erase them rather
 * than stay; and after "log out everywhere" or an account deletion. Shared computers: issue #16 point 4, POPIA s19.
 */
export function forgetLocalDrafts(): void { forgetKeysStartingWith(DRAFT_PREFIX); }

/**
 * True when this device holds a draft copy of user `userId` (`apply-draft:<userId>:…`, any tab's) marked `dirty`:
 * changes the server has not acknowledged (draft-store.ts writes the flag). False when storage cannot be read.
 */
export function hasUnsentDrafts(userId: number): boolean {
  const prefix = `${DRAFT_PREFIX}${userId}:`;
  try {
    return Object.keys(localStorage).some((k) => k.startsWith(prefix) && (JSON.parse(localStorage.getItem(k) ?? 'null') as { dirty?: boolean } | null)?.dirty === true);
  } catch { return false; }
}
