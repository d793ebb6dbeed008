/**
 * Draft routes, mounted at /api/applications/draft (and the colfront twin) before the applications router:
 * GET ?key=… → {draft | null}; PUT ?key=… {step, data} → {draft}; DELETE ?key=… → 204. Own drafts only.
 */
import { Router } from 'express';
import type { AppDeps } from '../../app.ts';
import { validate } from '../../http/validate.ts';
import { currentUser, requireUser } from '../../http/guards.ts';
import { DraftBodySchema, DraftKeySchema } from '#contracts/applications.ts';
import { discardDraft, getDraft, saveDraft } from './drafts.service.ts';

export function draftsRouter(deps: AppDeps): Router {
  const r = Router();
  const db = deps.database.db;
  const key = (req: any) => (req.query as { key: string }).key;
  r.get('/', requireUser, validate(DraftKeySchema, 'query'), async (req, res) => {
    res.json({ draft: await getDraft(db, currentUser(req).id, key(req)) });
  });
  r.put('/', requireUser, validate(DraftKeySchema, 'query'), validate(DraftBodySchema), async (req, res) => {
    res.json({ draft: await saveDraft(db, currentUser(req).id, key(req), req.body.step, req.body.data) });
  });
  r.delete('/', requireUser, validate(DraftKeySchema, 'query'), async (req, res) => {
    await discardDraft(db, currentUser(req).id, key(req));
    res.status(204).end();
  });
  return r;
}
