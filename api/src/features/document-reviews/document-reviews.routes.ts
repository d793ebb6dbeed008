/**
 * Document checklist routes (issue #16 point 3):
 * GET /api/applications/:id/checklist → {items, history} (owner or admin, else 404);
 * PUT /api/applications/:id/documents/:slot {uploadId} → {items, history} (owner; only a rejected document, else 409);
 * PUT /api/admin/applications/:id/documents/:slot {status: 'verified'|'rejected', reason} → {items, history} (admin).
 */
import { Router } from 'express';
import type { AppDeps } from '../../deps.ts';
import { validate } from '../../http/validate.ts';
import { currentUser, requireAdmin, requireUser } from '../../http/guards.ts';
import { IdParamSchema } from '#contracts/common.ts';
import { DocumentReplaceSchema, DocumentReviewSchema, DocumentSlotParamSchema } from '#contracts/document-reviews.ts';
import { linkOrigin } from '../../mail/links.ts';
import { documentChecklist, replaceDocument, reviewDocument } from './document-reviews.service.ts';

const idParam = validate(IdParamSchema, 'params');
const slotParam = validate(DocumentSlotParamSchema, 'params');

/**
 * Router at /api/applications for the applicant's checklist routes above (issue #16 point 3): 401 anonymous, 404 others' applications, 409 replacing a document that is not rejected.
 */
export function documentChecklistRouter(deps: AppDeps): Router {
  const r = Router();
  r.get('/:id/checklist', requireUser, idParam, async (req, res) => {
    res.json(await documentChecklist(deps.database.db, currentUser(req), idParam.data(req).id));
  });
  r.put('/:id/documents/:slot', requireUser, slotParam, validate(DocumentReplaceSchema), async (req, res) => {
    const p = slotParam.data(req);
    res.json(await replaceDocument(deps.database.db, currentUser(req).id, p.id, p.slot, req.body.uploadId, linkOrigin(deps.config, req)));
  });
  return r;
}

/**
 * Admin router at /api/admin/applications: PUT /:id/documents/:slot verifies or rejects one document (issue #16 point 3; 400 rejection without reason).
 */
export function adminDocumentReviewsRouter(deps: AppDeps): Router {
  const r = Router();
  r.put('/:id/documents/:slot', requireAdmin, slotParam, validate(DocumentReviewSchema), async (req, res) => {
    const p = slotParam.data(req);
    res.json(await reviewDocument(deps.database.db, currentUser(req).id, p.id, p.slot, req.body, linkOrigin(deps.config, req)));
  });
  return r;
}
