/**
 * The applicant's polled data as @nanostores/query stores (issue #15 point 5; setup in stores/fetcher.ts):
 * applications every 30 s and notifications every 15 s while the tab is visible, and at once when the tab comes
 * back (spec §9). A store stays idle until its user is known (the key holds the user id atom). The dashboard's
 * stores remember what loaded and, without a connection, answer the last-known copy of this user with the time
 * it was fetched (issue #16 point 4, lib/offline-snapshot.ts).
 */
import { computed } from 'nanostores';
import { APPLICATIONS_POLL_MS, NOTIFICATIONS_POLL_MS, type NotificationList } from '#contracts/notifications.ts';
import type { ApplicationListItem } from '#contracts/application-views.ts';
import { apiOrNull, READ_TIMEOUT_MS } from '../../lib/api-client.ts';
import { isNetworkError, recall, remember } from '../../lib/offline-snapshot.ts';
import { createFetcherStore } from '../../stores/fetcher.ts';
import { $session } from '../../stores/session.ts';
import { startRead, takeRead } from '../../lib/early-reads.ts';

/** Fresh data (`offlineSince` null), or the last-known copy and when it was fetched (ISO 8601) while offline. */
export interface LastKnown<T> { items: T; offlineSince: string | null }

const $userId = computed($session, (s) => s.user?.id ?? null);
const $studentId = computed($session, (s) => (s.user?.role === 'student' ? s.user.id : null));

const APPLICATIONS_PATH = '/api/colfront/applications';
const NOTIFICATIONS_PATH = '/api/colfront/notifications';
const MY_APPLICATIONS_PATH = '/api/colfront/applications?mine=1';
/** How each store reads its path; a read with no answer within READ_TIMEOUT_MS counts as offline (last-known copy). */
const READS: Record<string, () => Promise<unknown>> = {
  [APPLICATIONS_PATH]: () => apiOrNull(APPLICATIONS_PATH, { timeoutMs: READ_TIMEOUT_MS }),
  [NOTIFICATIONS_PATH]: () => apiOrNull(NOTIFICATIONS_PATH, { timeoutMs: READ_TIMEOUT_MS }),
  [MY_APPLICATIONS_PATH]: () => apiOrNull(MY_APPLICATIONS_PATH),
};
/** The read of `path`: the one an island started at mount (startStudentReads), else a new one. */
const read = <T,>(path: string): Promise<T> => takeRead(path, READS[path] as () => Promise<T>);

/**
 * Starts the first reads of the dashboard ('dashboard': applications and notifications) or of My Applications
 * while the session check is pending (lib/early-reads.ts, issue #17); the stores' first fetch takes them.
 */
export function startStudentReads(page: 'dashboard' | 'my-applications'): void {
  for (const path of page === 'dashboard' ? [APPLICATIONS_PATH, NOTIFICATIONS_PATH] : [MY_APPLICATIONS_PATH]) startRead(path, READS[path]!);
}

/** A fetcher for keys [path, '#', userId] that remembers its answer under `snapshot` and falls back to it offline. */
function lastKnown<T>(snapshot: string, pick: (body: Record<string, T> | null) => T) {
  return async (...parts: unknown[]): Promise<LastKnown<T>> => {
    const [path, , userId] = parts as [string, string, number];
    try {
      const items = pick(await read<Record<string, T> | null>(path));
      remember(snapshot, userId, items);
      return { items, offlineSince: null };
    } catch (e) {
      const snap = isNetworkError(e) ? recall<T>(snapshot, userId) : null;
      if (!snap) throw e;
      return { items: snap.data, offlineSince: snap.savedAt };
    }
  };
}

const polled = (ms: number) => ({ revalidateInterval: ms, revalidateOnFocus: true, revalidateOnReconnect: true });

/** The student dashboard's applications (GET /api/colfront/applications), polled every 30 s. */
export const $dashboardApplications = createFetcherStore<LastKnown<ApplicationListItem[]>>([APPLICATIONS_PATH, '#', $studentId], {
  ...polled(APPLICATIONS_POLL_MS), fetcher: lastKnown<ApplicationListItem[]>('applications', (r) => r?.applications ?? []),
});

/**
 * The student dashboard's notifications (GET /api/colfront/notifications), polled every 15 s: the newest page, the
 * user's unread count over all notifications, and whether older ones exist (NotificationList). Remembered offline
 * under 'notification-page' (the older 'notifications' snapshot held a bare list).
 */
export const $notifications = createFetcherStore<LastKnown<NotificationList>>([NOTIFICATIONS_PATH, '#', $studentId], {
  ...polled(NOTIFICATIONS_POLL_MS),
  fetcher: lastKnown<NotificationList>('notification-page', (r) => {
    const body = r as unknown as Partial<NotificationList> | null;
    const notifications = body?.notifications ?? [];
    return { notifications, unreadCount: body?.unreadCount ?? notifications.filter((n) => !n.read).length, hasMore: body?.hasMore ?? false };
  }),
});

/** My Applications (GET /api/colfront/applications?mine=1), polled every 30 s; null when the session is gone (401). */
export const $myApplications = createFetcherStore<ApplicationListItem[] | null>([MY_APPLICATIONS_PATH, '#', $userId], {
  ...polled(APPLICATIONS_POLL_MS),
  fetcher: async (...parts: unknown[]) => (await read<{ applications: ApplicationListItem[] } | null>(String(parts[0])))?.applications ?? null,
});
