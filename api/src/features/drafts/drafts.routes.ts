/**
 * Draft routes, mounted at /api/applications/draft (and the colfront twin) before the applications router:
 * GET ?key=… → {draft | null}; PUT ?key=… {step, data, revision?} → {draft} (404 'Course Not Found' for a course key of
 * no course, 409 `draft_limit` past MAX_DRAFTS_PER_USER drafts: saveDraft), or 409 {error: {code: 'conflict',
 * message: DRAFT_CHANGED}, draft: <as stored>} when the stored draft is not at `revision` (nothing stored) and is not
 * this very save already applied (a retry after a lost reply gets 200 with that draft), or 409 {error: {code:
 * 'draft_other_user', message: DRAFT_OTHER_USER}} when the body's `forUserId` is not the session's user (nothing
 * stored: a wizard of one account saving with another account's login on a shared browser);
 * DELETE ?key=…[&forUserId=…] → 204, or the same 409 draft_other_user when `forUserId` is not the session's user
 * (nothing deleted). Own drafts only. `draft` is {key, step, data, updatedAt, revision}. GET names no user: the
 * wizard's first read goes out with the session check, before the page knows whose wizard it is.
 */
import { Router, type Request } from 'express';
import type { AppDeps } from '../../deps.ts';
import { validate } from '../../http/validate.ts';
import { currentUser, requireUser } from '../../http/guards.ts';
import { HttpError } from '../../http/errors.ts';
import { DRAFT_OTHER_USER, DraftBodySchema, DraftDiscardQuerySchema, DraftKeySchema } from '#contracts/applications.ts';
import { discardDraft, getDraft, saveDraft } from './drafts.service.ts';

const keyQuery = validate(DraftKeySchema, 'query');
const body = validate(DraftBodySchema);
const discardQuery = validate(DraftDiscardQuerySchema, 'query');

/**
 * Throws 409 `draft_other_user` (DRAFT_OTHER_USER) when the wizard names an account (`forUserId`) other than the
 * one logged in: the session is the browser's, shared by its tabs; the draft is the wizard's. Absent: an older
 * wizard, as before.
 */
function assertOwnWizard(req: Request, forUserId: number | undefined): void {
  if (forUserId !== undefined && forUserId !== currentUser(req).id) throw new HttpError(409, 'draft_other_user', DRAFT_OTHER_USER);
}

/**
 * Router at /api/applications/draft (and /api/colfront/…): GET, PUT (409 with the stored draft when another tab or
 * device saved since `revision`; 409 draft_other_user when `forUserId` is not the caller), DELETE of the caller's
 * own draft per `key` (issue #16 offline drafts; the same 409 when `forUserId` is not the caller); 401 anonymous.
 */
export function draftsRouter(deps: AppDeps): Router {
  const r = Router();
  const db = deps.database.db;
  r.get('/', requireUser, keyQuery, async (req, res) => {
    res.json({ draft: await getDraft(db, currentUser(req).id, keyQuery.data(req).key) });
  });
  r.put('/', requireUser, keyQuery, body, async (req, res) => {
    const { step, data, revision, forUserId } = body.data(req);
    assertOwnWizard(req, forUserId);
    const result = await saveDraft(db, currentUser(req).id, keyQuery.data(req).key, step, data, revision);
    if ('conflict' in result) {
      res.status(409).json({ error: { code: 'conflict', message: result.conflict.message }, draft: result.conflict.current });
      return;
    }
    res.json({ draft: result.draft });
  });
  r.delete('/', requireUser, discardQuery, async (req, res) => {
    const { key, forUserId } = discardQuery.data(req);
    // "Start over" or a submit in one account's wizard tab must not delete the draft of whoever is logged in now.
    assertOwnWizard(req, forUserId);
    await discardDraft(db, currentUser(req).id, key);
    res.status(204).end();
  });
  return r;
}
