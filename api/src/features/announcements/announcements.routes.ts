/**
 * Announcements (spec §7):
 * - GET /api/announcements?limit= → {announcements}: active ones, newest first (public); `limit` 1–50 keeps only the
 *   newest that many (the home and About pages show 3), 400 otherwise. The public cache keys by the whole URL.
 * - admin (announcementsAdminRouter at /api/announcements): POST / {title, content, imageUrl, active, sendEmail,
 *   sendNotification} → 201 {announcement, emailed, notified}, or 409 'This announcement was just published.' when the
 *   same admin created the same title and content in the last 60 s; PUT /:id (same body, plus expectedUpdatedAt?) → 200 {…}
 *   or 409 {error: {code: 'conflict', message}, announcement: <as it is now>} when it changed since that version; DELETE /:id → 204;
 *   POST /:id/notify (empty body) → {sent}. 400 with §5 messages, 404 unknown id.
 * - GET /api/admin/announcements → {announcements} including inactive; GET /api/admin/announcements/recipients →
 *   {students}: how many students an e-mail would reach (the form's confirmation) (announcementsAdminListRouter).
 * - sendEmail on an inactive announcement (create, edit, notify) → 400, field sendEmail INACTIVE_EMAIL_MESSAGE, nothing saved.
 * Every write asks for a site rebuild (the home and About pages show announcements).
 */
import { Router } from 'express';
import type { AppDeps } from '../../deps.ts';
import { validate } from '../../http/validate.ts';
import { currentUser, requireAdmin } from '../../http/guards.ts';
import { IdParamSchema } from '#contracts/common.ts';
import { AnnouncementInputSchema, AnnouncementListQuerySchema, AnnouncementUpdateSchema } from '#contracts/announcements.ts';
import { listAnnouncements } from './announcements.repo.ts';
import { siteOrigin } from '../../mail/links.ts';
import { allAnnouncements, announcementRecipients, createAnnouncement, editAnnouncement, emailAnnouncement, removeAnnouncement } from './announcements.service.ts';

/**
 * Public router for GET /api/announcements (spec §7): active announcements, newest first, optionally only the newest
 * `limit` (1–50); anonymous answers go through the public cache (one entry and ETag per URL, so per `limit`).
 */
export function announcementsReadRouter(deps: AppDeps): Router {
  const r = Router();
  const listQuery = validate(AnnouncementListQuerySchema, 'query');
  r.get('/', listQuery, async (req, res) => {
    res.json({ announcements: await listAnnouncements(deps.database.db, { limit: listQuery.data(req).limit }) });
  });
  return r;
}

/**
 * Admin router at /api/announcements (spec §7): POST, PUT /:id (409 with the current announcement when it changed since `expectedUpdatedAt`), DELETE /:id, POST /:id/notify as above; each write asks for a site rebuild.
 */
export function announcementsAdminRouter(deps: AppDeps): Router {
  const r = Router();
  const db = deps.database.db;
  const changed = (what: string) => deps.onContentChanged?.(what);
  const idParam = validate(IdParamSchema, 'params');
  // Read per request: startServer resolves the stored session secret after the routes are built.
  const mailLinks = () => ({ origin: siteOrigin(deps.config), secret: deps.config.sessionSecret });
  r.post('/', requireAdmin, validate(AnnouncementInputSchema), async (req, res) => {
    const result = await createAnnouncement(db, currentUser(req).id, req.body, mailLinks());
    changed(`announcement ${result.announcement.id} created`);
    res.status(201).json(result);
  });
  const update = validate(AnnouncementUpdateSchema);
  r.put('/:id', requireAdmin, idParam, update, async (req, res) => {
    const result = await editAnnouncement(db, idParam.data(req).id, update.data(req), mailLinks());
    if ('conflict' in result) {
      res.status(409).json({ error: { code: 'conflict', message: result.conflict.message }, announcement: result.conflict.current });
      return;
    }
    changed(`announcement ${result.announcement.id} updated`);
    res.json(result);
  });
  r.delete('/:id', requireAdmin, idParam, async (req, res) => {
    const id = idParam.data(req).id;
    await removeAnnouncement(db, id);
    changed(`announcement ${id} deleted`);
    res.status(204).end();
  });
  r.post('/:id/notify', requireAdmin, idParam, async (req, res) => {
    res.json({ sent: await emailAnnouncement(db, idParam.data(req).id, mailLinks()) });
  });
  return r;
}

/**
 * Admin router for GET /api/admin/announcements → {announcements}: every announcement, inactive included, newest first
 * (issue #6), and GET /recipients → {students} (AnnouncementRecipients), the count the e-mail confirmation shows.
 */
export function announcementsAdminListRouter(deps: AppDeps): Router {
  const r = Router();
  r.get('/', requireAdmin, async (_req, res) => {
    res.json({ announcements: await allAnnouncements(deps.database.db) });
  });
  r.get('/recipients', requireAdmin, async (_req, res) => {
    res.json({ students: await announcementRecipients(deps.database.db) });
  });
  return r;
}
