/** GET /api/announcements → {announcements}: active ones, newest first (spec §7; public). */
import { Router } from 'express';
import type { AppDeps } from '../../app.ts';
import { listAnnouncements } from './announcements.repo.ts';

export function announcementsReadRouter(deps: AppDeps): Router {
  const r = Router();
  r.get('/', async (_req, res) => {
    res.json({ announcements: await listAnnouncements(deps.database.db) });
  });
  return r;
}
