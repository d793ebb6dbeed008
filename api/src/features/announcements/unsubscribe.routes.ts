/**
 * /api/mail/unsubscribe?token=… (RFC 8058 one-click unsubscribe; POPIA s69):
 * - GET: a small page naming what stops and what does not (without a token: how to unsubscribe), with a button that POSTs the same link. It changes
 *   nothing: link scanners and previews fetch links in mail.
 * - POST (any body; mail providers send `List-Unsubscribe=One-Click`, without cookies, from their own servers):
 *   sets users.announcement_mail_opt_out_at and answers 200 with a confirmation page. It is exempt from the
 *   same-origin check (the token authenticates the request and it can only turn mail off).
 * A malformed or forged token answers 400 'This unsubscribe link is not valid.' (a page for a browser, the API's JSON
 * error otherwise). Rate limited per IP
 * (UNSUBSCRIBE_LIMIT per 10 minutes: generous, since one provider's servers post for many recipients).
 */
import { Router, type NextFunction, type Request, type Response } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { AppDeps } from '../../deps.ts';
import { sharedRateLimit } from '../../http/rate-limit-store.ts';
import { badRequest, HttpError } from '../../http/errors.ts';
import { SITE_CONTENT } from '../../site-content.ts';
import { optOutOfAnnouncements, userIdFromToken } from './unsubscribe.ts';

/** Requests per IP per 10 minutes before 429. */
export const UNSUBSCRIBE_LIMIT = 600;
/** What the GET page and the POST answer tell the student (audit decision). */
export const UNSUBSCRIBE_TEXT = `You will no longer receive announcement e-mails from ${SITE_CONTENT.name}. You will still receive e-mails about your own applications.`;
/** The answer to a malformed or forged token. */
export const UNSUBSCRIBE_INVALID = 'This unsubscribe link is not valid.';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(res: Response, status: number, title: string, body: string): void {
  res.status(status).type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`
    + `<meta name="robots" content="noindex"><title>${esc(title)} - ${esc(SITE_CONTENT.name)}</title></head><body><main><h1>${esc(title)}</h1>${body}</main></body></html>`);
}

/** Router at /api/mail/unsubscribe (UNSUBSCRIBE_PATH): GET confirmation page, POST one-click opt-out. */
export function unsubscribeRouter(deps: AppDeps): Router {
  const r = Router();
  const db = deps.database.db;
  const limiter = sharedRateLimit(db, 'unsubscribe:', {
    windowMs: 10 * 60_000, limit: UNSUBSCRIBE_LIMIT, standardHeaders: 'draft-8', legacyHeaders: false,
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? ''),
    handler: (_req, _res, next) => next(new HttpError(429, 'rate_limited', 'Too many requests from this address. Please try again in a few minutes.')),
  });
  const tokenOf = (q: unknown) => (typeof q === 'string' ? q : '');
  // A browser (Accept: text/html) is shown a page; any other client gets the API's JSON error.
  const invalid = (req: Request, res: Response, next: NextFunction) => (req.accepts(['json', 'html']) === 'html'
    ? page(res, 400, 'Unsubscribe', `<p>${esc(UNSUBSCRIBE_INVALID)}</p>`) : next(badRequest(UNSUBSCRIBE_INVALID)));

  r.get('/', limiter, (req, res, next) => {
    const token = tokenOf(req.query.token);
    if (!token) return page(res, 200, 'Unsubscribe', '<p>To stop announcement e-mails, open the unsubscribe link at the end of one of them, or sign in and untick "E-mail me college announcements" on your profile.</p>');
    if (userIdFromToken(deps.config.sessionSecret, token) === null) return invalid(req, res, next);
    page(res, 200, 'Stop announcement e-mails?', `<p>${esc(UNSUBSCRIBE_TEXT)}</p>`
      + `<form method="post" action="?token=${encodeURIComponent(token)}"><input type="hidden" name="List-Unsubscribe" value="One-Click">`
      + `<button type="submit">Unsubscribe from announcements</button></form>`
      + '<p>You can turn announcement e-mails back on from your profile.</p>');
  });

  r.post('/', limiter, async (req, res, next) => {
    const id = userIdFromToken(deps.config.sessionSecret, tokenOf(req.query.token));
    if (id === null) return invalid(req, res, next);
    await optOutOfAnnouncements(db, id);
    page(res, 200, 'Unsubscribed', `<p>${esc(UNSUBSCRIBE_TEXT)}</p><p>You can turn announcement e-mails back on from your profile.</p>`);
  });
  return r;
}
