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

/** GET /api/notifications → newest first. */
export interface NotificationList { notifications: Notification[] }

/** Polling interval of the notifications list in ms (spec §9: 15 s). */
export const NOTIFICATIONS_POLL_MS = 15_000;
/** Polling interval of the applications list in ms (spec §9: 30 s). */
export const APPLICATIONS_POLL_MS = 30_000;
