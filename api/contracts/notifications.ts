/**
 * Notification contracts (spec §3 Notification; §7 GET /api/notifications, PUT /api/notifications/{id}/read)
 * and the polling intervals of spec §9. Types only, so the islands that import it ship no schema code.
 */

/** One notification as the API returns it. `createdAt` ISO 8601; `read` false until marked read (spec §4). */
export interface Notification {
  id: number;
  userId: number;
  message: string;
  read: boolean;
  /** The application it is about, if any. */
  applicationId: number | null;
  createdAt: string;
}

/**
 * GET /api/notifications → one page, newest first (created_at, then id, descending): the newest NOTIFICATIONS_PAGE
 * without `before`, else the ones older than notification `before` (the last id of the page shown: "Show older
 * notifications"). `unreadCount` counts every unread notification of the user, not only this page's (the tab's badge
 * and "Mark all as read"); `hasMore` is true when older notifications remain after this page.
 */
export interface NotificationList { notifications: Notification[]; unreadCount: number; hasMore: boolean }

/** Notifications a page holds by default (GET /api/notifications without `limit`). */
export const NOTIFICATIONS_PAGE = 50;
/** The most notifications one page may hold (`limit` above this is refused with 400). */
export const MAX_NOTIFICATIONS_PAGE = 100;

/** Polling interval of the notifications list in ms (spec §9: 15 s). */
export const NOTIFICATIONS_POLL_MS = 15_000;
/** Polling interval of the applications list in ms (spec §9: 30 s). */
export const APPLICATIONS_POLL_MS = 30_000;
