/**
 * GET /api/notifications query (zod; kept apart from notifications.ts, which islands import and which stays free of
 * schema code): `before` a notification id (positive integer) — the page then holds only notifications older than
 * that one, in the list's order (created_at, id descending); `limit` 1–MAX_NOTIFICATIONS_PAGE (default NOTIFICATIONS_PAGE).
 * Anything else is a 400 with the messages below.
 */
import { z } from 'zod';
import { MAX_NOTIFICATIONS_PAGE, NOTIFICATIONS_PAGE } from './notifications.ts';

export const NotificationListQuerySchema = z.object({
  before: z.coerce.number({ error: 'before must be a notification id' }).int('before must be a notification id').positive('before must be a notification id').max(2_147_483_647, 'before must be a notification id').optional(),
  limit: z.coerce.number({ error: `limit must be a whole number from 1 to ${MAX_NOTIFICATIONS_PAGE}` }).int(`limit must be a whole number from 1 to ${MAX_NOTIFICATIONS_PAGE}`)
    .min(1, `limit must be a whole number from 1 to ${MAX_NOTIFICATIONS_PAGE}`).max(MAX_NOTIFICATIONS_PAGE, `limit must be a whole number from 1 to ${MAX_NOTIFICATIONS_PAGE}`).default(NOTIFICATIONS_PAGE),
});
export type NotificationListQuery = z.output<typeof NotificationListQuerySchema>;
