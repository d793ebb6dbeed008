/**
 * GET /api/settings → {settings: {accreditationNumber, portalAccessUrl}}: the admin-edited values the public
 * site shows (issue #6 /admin/settings). Public and read at build time by site/lib/site-settings.ts; the fee
 * and the office e-mail stay server-side.
 */
import { Router } from 'express';
import type { AppDeps } from '../../app.ts';
import { getSettings } from '../admin/admin.service.ts';

export function publicSettingsRouter(deps: AppDeps): Router {
  const r = Router();
  r.get('/', async (_req, res) => {
    const s = await getSettings(deps.database.db, deps.config);
    res.json({ settings: { accreditationNumber: s.accreditationNumber, portalAccessUrl: s.portalAccessUrl } });
  });
  return r;
}
