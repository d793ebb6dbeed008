/**
 * Notification routes (spec §7), mounted at /api/notifications and /api/colfront/notifications:
 * GET / → {notifications} (own, newest first); PUT /:id/read → {notification} (others' ids → 404);
 * PUT /read-all → {updated}.
 */
import { Router } from 'express';
import type { AppDeps } from '../../deps.ts';
import { validate } from '../../http/validate.ts';
import { currentUser, requireUser } from '../../http/guards.ts';
import { IdParamSchema } from '#contracts/common.ts';
import { markAllNotificationsRead, markNotificationRead, notificationsFor } from './notifications.service.ts';

const idParam = validate(IdParamSchema, 'params');

/**
 * Router at /api/notifications and /api/colfront/notifications (spec §7): the caller's own notifications; 401 anonymous, 404 others' ids.
 */
export function notificationsRouter(deps: AppDeps): Router {
  const r = Router();
  const db = deps.database.db;
  r.get('/', requireUser, async (req, res) => {
    res.json({ notifications: await notificationsFor(db, currentUser(req).id) });
  });
  r.put('/read-all', requireUser, async (req, res) => {
    res.json({ updated: await markAllNotificationsRead(db, currentUser(req).id) });
  });
  r.put('/:id/read', requireUser, idParam, async (req, res) => {
    res.json({ notification: await markNotificationRead(db, currentUser(req).id, idParam.data(req).id) });
  });
  return r;
}
