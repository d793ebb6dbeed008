/**
 * Settings (issue #6 /admin/settings):
 * - GET /api/settings → {settings: {accreditationNumber, portalAccessUrl}}: the admin-edited values the public site
 *   shows; public and read at build time by site/lib/site-settings.ts. The office e-mail stays server-side.
 * - GET /api/settings/application-fee → {applicationFee: '50.00'}: the fee charged now (public, anonymous), read by
 *   the wizard's Payment and Review steps and the walk-in desk form, which send it back as `expectedFee`.
 * - GET /api/admin/settings → {settings}; PUT /api/admin/settings {applicationFee, officeEmail, accreditationNumber,
 *   portalAccessUrl} → {settings} (admin only; 400 with the contract's field messages). A save rebuilds the site.
 */
import { Router } from 'express';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin } from '../../http/guards.ts';
import { validate } from '../../http/validate.ts';
import { SettingsSchema, type ApplicationFeeView } from '#contracts/settings.ts';
import { applicationFee, getSettings, saveSettings } from './settings.service.ts';

/**
 * Public router for GET /api/settings → {settings: {accreditationNumber, portalAccessUrl}} (issue #6), read by the site
 * build, and GET /api/settings/application-fee → {applicationFee} (the fee charged now, two decimals).
 */
export function publicSettingsRouter(deps: AppDeps): Router {
  const r = Router();
  r.get('/', async (_req, res) => {
    const s = await getSettings(deps.database.db, deps.config);
    res.json({ settings: { accreditationNumber: s.accreditationNumber, portalAccessUrl: s.portalAccessUrl } });
  });
  // Read fresh on every call (one small row set) and marked `no-cache`: a fee cached anywhere would be shown after an
  // admin changed it — the very mismatch expectedFee guards against. The callers are signed in, which the public
  // cache skips anyway.
  r.get('/application-fee', async (_req, res) => {
    const view: ApplicationFeeView = { applicationFee: await applicationFee(deps.database.db, deps.config) };
    res.setHeader('Cache-Control', 'no-cache');
    res.json(view);
  });
  return r;
}

/**
 * Admin router at /api/admin/settings (issue #6): GET and PUT as above; a saved change bumps the content version (site rebuild).
 */
export function adminSettingsRouter(deps: AppDeps): Router {
  const r = Router();
  const db = deps.database.db;
  const body = validate(SettingsSchema);
  r.get('/', requireAdmin, async (_req, res) => { res.json({ settings: await getSettings(db, deps.config) }); });
  r.put('/', requireAdmin, body, async (req, res) => {
    const settings = await saveSettings(db, deps.config, body.data(req));
    deps.onContentChanged?.('settings updated');
    res.json({ settings });
  });
  return r;
}
