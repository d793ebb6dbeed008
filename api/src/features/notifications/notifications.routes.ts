/**
 * Notification routes (spec §7), mounted at /api/notifications and /api/colfront/notifications:
 * GET /?before=&limit= → {notifications, unreadCount, hasMore} (own, newest first, one page: NotificationList); PUT /:id/read → {notification} (others' ids → 404);
 * PUT /read-all → {updated}.
 */
import { Router } from 'express';
import type { AppDeps } from '../../deps.ts';
import { validate } from '../../http/validate.ts';
import { currentUser, requireUser } from '../../http/guards.ts';
import { IdParamSchema } from '#contracts/common.ts';
import { NotificationListQuerySchema } from '#contracts/notifications-query.ts';
import { markAllNotificationsRead, markNotificationRead, notificationsFor } from './notifications.service.ts';

const idParam = validate(IdParamSchema, 'params');
const listQuery = validate(NotificationListQuerySchema, 'query');

/**
 * Router at /api/notifications and /api/colfront/notifications (spec §7): the caller's own notifications; 401 anonymous, 404 others' ids.
 */
export function notificationsRouter(deps: AppDeps): Router {
  const r = Router();
  const db = deps.database.db;
  r.get('/', requireUser, listQuery, async (req, res) => {
    res.json(await notificationsFor(db, currentUser(req).id, listQuery.data(req)));
  });
  r.put('/read-all', requireUser, async (req, res) => {
    res.json({ updated: await markAllNotificationsRead(db, currentUser(req).id) });
  });
  r.put('/:id/read', requireUser, idParam, async (req, res) => {
    res.json({ notification: await markNotificationRead(db, currentUser(req).id, idParam.data(req).id) });
  });
  return r;
}
