/**
 * The failure toast of an admin's course or announcement save (CourseForm, CoursesManager, AnnouncementForm,
 * AnnouncementsManager; QA audit 2026-11-28 item 1). A save that did not reach a working server says so with the
 * applications panel's sentence (NOT_REACHED) and stays until closed (`persist`, audit C
 * item 5), as an application's status change does; a refusal with the server's own message (400 with field messages,
 * 403, 404) keeps that message and the usual 5000 ms toast. The title is always the caller's spec §8 title.
 */
import { ApiError, NetworkError, RequestTimeoutError } from '../../lib/api-client.ts';
import type { Toast } from '../../stores/toasts.ts';

/**
 * What a failed save says when the server was never reached, here and in the applications panel (ApplicationReview.tsx
 * imports it; audit C item 5). Defined here, not there: importing ApplicationReview put its chunk and its imports into
 * /admin/courses and /admin/announcements (the pages' static JavaScript 125 536 → 327 799 bytes, measured on the e2e build).
 */
export const NOT_REACHED = 'Not saved — the server could not be reached. Check your connection and try again.';

/**
 * Whether failed save `e` never reached a working server: no answer (NetworkError: offline, reset, DNS;
 * RequestTimeoutError: no answer within WRITE_TIMEOUT_MS), a 502, 503 or 504 (a balancer with no live node, a node
 * stopping or without its database), or any other 5xx without the API's JSON error message (a proxy's page).
 */
export function notReached(e: unknown): boolean {
  if (e instanceof NetworkError || e instanceof RequestTimeoutError) return true;
  if (!(e instanceof ApiError) || e.status < 500) return false;
  return e.status === 502 || e.status === 503 || e.status === 504 || !e.body?.error?.message;
}

/**
 * The toast for save `e` that failed, titled `title` (spec §8, e.g. 'Failed to update course'):
 * - notReached(e): description NOT_REACHED ('Not saved — the server could not be reached. Check your connection
 *   and try again.'), persist;
 * - another 5xx (500, 507 out of space): the server's message, persist (the save failed on the server's side);
 * - any other ApiError (400, 403, 404 …): the server's message, gone after 5000 ms, as before;
 * - anything else (not an answer from the API): `otherwise` (spec §8: 'An error occurred' for courses,
 *   'An unexpected error occurred' for announcements), gone after 5000 ms.
 * Variant 'destructive' throughout.
 */
export function saveFailureToast(title: string, e: unknown, otherwise: string): Omit<Toast, 'id'> {
  if (notReached(e)) return { title, description: NOT_REACHED, variant: 'destructive', persist: true };
  if (e instanceof ApiError) return { title, description: e.userMessage, variant: 'destructive', ...(e.status >= 500 ? { persist: true } : {}) };
  return { title, description: otherwise, variant: 'destructive' };
}
