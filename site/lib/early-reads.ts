/**
 * Reads an account page needs as soon as it knows who is signed in (the wizard's course, applications, NSC results
 * and draft; the dashboard's applications and notifications; My Applications), started as the island mounts
 * instead of after the session check has answered (issue #17: on a slow network the data shows one round trip
 * sooner). Each needs only the session cookie, so a read starts only while the check is still pending in a browser
 * that may be signed in (`sessionCheckPending()` of stores/session.ts): a visitor makes none, and a page whose
 * session is already known reads the normal way, once. A started read is taken once, by the
 * code that would otherwise have made it, and keeps its own outcome: its errors reach that code as if it had made
 * the request itself.
 */

import { sessionCheckPending } from '../stores/session.ts';

const started = new Map<string, Promise<unknown>>();

/**
 * Starts `read()` under `key` (a request path) while the session check is pending, unless a read is already waiting
 * there. The promise is marked handled here, so a read nobody takes (the visitor is sent to log in) reports no
 * unhandled rejection.
 */
export function startRead(key: string, read: () => Promise<unknown>): void {
  if (started.has(key) || !sessionCheckPending()) return;
  const p = read();
  p.catch(() => { /* its taker sees the error */ });
  started.set(key, p);
}

/** The read started under `key`, taken out so a later call (a retry) reads anew; else `read()` now. */
export function takeRead<T>(key: string, read: () => Promise<T>): Promise<T> {
  const p = started.get(key);
  started.delete(key);
  return (p as Promise<T> | undefined) ?? read();
}
