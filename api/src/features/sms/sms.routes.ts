/**
 * /api/sms (issue #17):
 * - GET /preference → SmsPreference; PUT /preference {optOut} → SmsPreference (signed-in applicant, own record);
 *   409 when SMS are asked for on a number that replied STOP (only a START reply from that phone lifts it).
 * - POST /inbound: the gateway's webhook for replies (BulkSMS "received messages" webhook: a JSON array of
 *   `{type, from, body}`). Authenticated by the shared secret SMS_WEBHOOK_SECRET, sent as `?secret=` in the
 *   webhook URL configured at the gateway or as an `X-Webhook-Secret` header; compared in constant time.
 *   404 when no secret is configured (webhook off), 401 for a wrong one. STOP-like replies opt the number out.
 *   Answers `{received, optedOut, optedIn}`.
 */
import crypto from 'node:crypto';
import { Router, type Request } from 'express';
import type { AppDeps } from '../../deps.ts';
import { requireUser, currentUser } from '../../http/guards.ts';
import { validate } from '../../http/validate.ts';
import { conflict, notFound, unauthorized } from '../../http/errors.ts';
import { SMS_STOPPED_BY_REPLY, SmsInboundSchema, SmsPreferenceUpdateSchema, type SmsInbound } from '#contracts/sms.ts';
import { handleInbound, setSmsOptOut, smsPreference } from '../../sms/sms-outbox.ts';

function secretMatches(req: Request, secret: string): boolean {
  const given = String(req.get('x-webhook-secret') ?? (typeof req.query.secret === 'string' ? req.query.secret : ''));
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(secret).digest();
  return given.length > 0 && crypto.timingSafeEqual(a, b);
}

/**
 * Router at /api/sms (issue #17): the preference routes (signed in) and the inbound webhook (404 while SMS_WEBHOOK_SECRET is unset, 403 on a wrong secret).
 */
export function smsRouter(deps: AppDeps): Router {
  const r = Router();
  const db = deps.database.db;

  r.post('/inbound', (req, _res, next) => {
    const secret = deps.config.SMS_WEBHOOK_SECRET;
    if (!secret) return next(notFound('Not found'));
    if (!secretMatches(req, secret)) {
      console.warn('[sms] inbound webhook refused: wrong or missing secret');
      return next(unauthorized('Invalid webhook secret'));
    }
    next();
  }, validate(SmsInboundSchema), async (req, res) => {
    const body = req.body as SmsInbound;
    const list = Array.isArray(body) ? body : [body];
    let optedOut = 0, optedIn = 0;
    for (const m of list) {
      if (m.type && m.type.toUpperCase() !== 'RECEIVED') continue;
      const outcome = await handleInbound(db, m.from, m.body);
      if (outcome === 'opted_out') optedOut++;
      if (outcome === 'opted_in') optedIn++;
    }
    if (optedOut || optedIn) console.info(`[sms] inbound: ${optedOut} opted out, ${optedIn} opted back in`);
    res.json({ received: list.length, optedOut, optedIn });
  });

  r.get('/preference', requireUser, async (req, res) => { res.json(await smsPreference(db, currentUser(req).id)); });
  r.put('/preference', requireUser, validate(SmsPreferenceUpdateSchema), async (req, res, next) => {
    const id = currentUser(req).id;
    if (await setSmsOptOut(db, id, req.body.optOut) === 'stopped_by_reply') return next(conflict(SMS_STOPPED_BY_REPLY));
    res.json(await smsPreference(db, id));
  });
  return r;
}
