/**
 * /api/admin/erasure-requests (POPIA §24), admin only (401 anonymous, 403 student; same-origin check for every /api
 * write, app.ts): POST /:id {decision: 'erase' | 'decline', reason?} → 200 {request: ErasureRequestView};
 * 400 bad body (decline without reason: {reason: 'Please give the reason for declining'}), 404 unknown request,
 * 409 'This request was already done.' / 'This request was already declined.'.
 */
import { Router } from 'express';
import type { AppDeps } from '../../deps.ts';
import { currentUser, requireAdmin } from '../../http/guards.ts';
import { validate } from '../../http/validate.ts';
import { IdParamSchema } from '#contracts/common.ts';
import { ErasureDecisionSchema } from '#contracts/erasure.ts';
import { declineRequest, eraseRequest } from './erasure.service.ts';
import { siteOrigin } from '../../mail/links.ts';

/** Router for /api/admin/erasure-requests: the route above, behind requireAdmin. */
export function adminErasureRouter(deps: AppDeps): Router {
  const r = Router();
  const idParam = validate(IdParamSchema, 'params');
  const body = validate(ErasureDecisionSchema);
  r.post('/:id', requireAdmin, idParam, body, async (req, res) => {
    const { id } = idParam.data(req);
    const { decision, reason } = body.data(req);
    const adminId = currentUser(req).id;
    const request = decision === 'erase'
      ? await eraseRequest(deps.database.db, deps.config, deps.store, id, adminId)
      : await declineRequest(deps.database.db, id, adminId, reason, siteOrigin(deps.config));
    res.json({ request });
  });
  return r;
}
