/**
 * The large body of POST /api/applications and /api/colfront/applications (spec §7 lets it carry its documents as data
 * URLs: 4 slots × 5 MB, base64 = 4/3, so up to 28 MB). Security audit 2026-11-28 (MEDIUM): the 28 MB parser ran for
 * everyone before sessions, so 12 anonymous 27 MB bodies were all read and parsed (16.4 s, server memory 698 → 1 328 MB)
 * only to be answered 401. Now app.ts's 200 kB parser skips this one path (`isLargeSubmitPath`) and the route runs
 * requireUser first, then `largeSubmitBody`: a slot (`largeBodySlot`), express.json 28 MB, and the same
 * jsonDepthLimit / storableJsonText checks the global chain runs. An anonymous caller is answered 401 (and a
 * cross-origin cookie caller 403, app.ts) before a byte of the body is read; Node discards the unread rest.
 */
import express, { type Request, type RequestHandler } from 'express';
import { HttpError } from '../../http/errors.ts';
import { jsonDepthLimit } from '../../http/json-depth.ts';
import { storableJsonText } from '../../http/json-text.ts';

/** Limit (bytes, body-parser syntax) of every other JSON body under /api (app.ts). */
export const SMALL_JSON_LIMIT = '200kb';
/** Limit of the submit body: 4 documents × 5 MB as base64 (4/3) plus the form, rounded up (spec §7). */
export const LARGE_JSON_LIMIT = '28mb';
/** A body larger than this many bytes (or of unknown length, chunked) takes a slot: 200 kB, the ordinary limit. */
export const LARGE_BODY_BYTES = 200 * 1024;
/** Large submit bodies one user may send at once (a second is a double click or a script). */
export const MAX_LARGE_BODIES_PER_USER = 1;
/**
 * Large submit bodies one node reads at once: each costs about 50-100 MB while it is parsed and its documents decoded
 * (audit: 12 bodies → +630 MB), so 4 keep a node under about 400 MB extra. The wizard uploads its documents first
 * (POST /api/uploads, tus) and submits ids, a body of a few kB, which never takes a slot.
 */
export const MAX_LARGE_BODIES = 4;
/** Seconds a refused caller is asked to wait (Retry-After). */
export const LARGE_BODY_RETRY_AFTER_S = 5;

const PATH = /^\/(colfront\/)?applications\/?$/i;

/**
 * True for the submit call whose body the route parses itself: POST to /applications or /colfront/applications
 * (`req.path` as seen under app.use('/api'), matched case-insensitively and with an optional trailing slash, as
 * Express routes it).
 */
export function isLargeSubmitPath(req: Request): boolean {
  return req.method === 'POST' && PATH.test(req.path);
}

/** True when the request announces more than LARGE_BODY_BYTES, or does not say its length (chunked). */
function isLarge(req: Request): boolean {
  const length = req.headers['content-length'];
  if (length === undefined) return req.headers['transfer-encoding'] !== undefined;
  return !(Number(length) <= LARGE_BODY_BYTES);
}

/** What largeBodySlots returns: `take(userId)` and `inFlight()`. */
export interface LargeBodySlots {
  /** Takes a slot for `userId`: a release function (idempotent), or the HttpError (429 or 503) when none is free. */
  take(userId: number): (() => void) | HttpError;
  /** Large bodies in flight on this node. */
  inFlight(): number;
}

/**
 * Slots for large bodies: `take(userId)` returns a release function (idempotent; call it once the answer is sent) when
 * the body may be read, else the HttpError to answer — 429 `too_many_requests` when this user already has MAX_LARGE_BODIES_PER_USER in
 * flight, 503 `busy` when the node has MAX_LARGE_BODIES. In-process: each node counts its own.
 */
export function largeBodySlots(limits: { perUser: number; total: number } = { perUser: MAX_LARGE_BODIES_PER_USER, total: MAX_LARGE_BODIES }): LargeBodySlots {
  const byUser = new Map<number, number>();
  let total = 0;
  return {
    take(userId: number): (() => void) | HttpError {
      const mine = byUser.get(userId) ?? 0;
      if (mine >= limits.perUser) return new HttpError(429, 'too_many_requests', 'Your previous submission with documents is still being received. Please wait for it to finish, then try again.');
      if (total >= limits.total) return new HttpError(503, 'busy', 'The server is busy receiving other applications with documents. Please try again in a few seconds.');
      byUser.set(userId, mine + 1);
      total++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        total--;
        const left = (byUser.get(userId) ?? 1) - 1;
        if (left > 0) byUser.set(userId, left); else byUser.delete(userId);
      };
    },
    inFlight: () => total,
  };
}

/** This process's slots (one node is one process): shared by every app it serves, as memory is. */
export const submitBodySlots: LargeBodySlots = largeBodySlots();

/**
 * Middleware chain for the submit route, after requireUser: a large body takes a slot (held until the answer is sent
 * or the connection closes; refused 429/503 with Retry-After LARGE_BODY_RETRY_AFTER_S before the body is read), then
 * express.json LARGE_JSON_LIMIT (413 payload_too_large over it, 400 invalid_json when malformed), jsonDepthLimit and
 * storableJsonText. A body of LARGE_BODY_BYTES or less takes no slot.
 */
export function largeSubmitBody(slots: LargeBodySlots = submitBodySlots): RequestHandler[] {
  const slot: RequestHandler = (req, res, next) => {
    if (!isLarge(req)) return next();
    const user = req.user as { id: number } | undefined;
    if (!user) return next(new HttpError(401, 'unauthorized', 'Authentication required'));
    const taken = slots.take(user.id);
    if (taken instanceof HttpError) {
      res.setHeader('Retry-After', String(LARGE_BODY_RETRY_AFTER_S));
      return next(taken);
    }
    res.once('close', taken);
    res.once('finish', taken);
    next();
  };
  return [slot, express.json({ limit: LARGE_JSON_LIMIT }), jsonDepthLimit, storableJsonText];
}
