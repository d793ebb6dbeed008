/**
 * The large body of POST /api/applications and /api/colfront/applications (spec §7 lets it carry its documents as data
 * URLs: 4 slots × 5 MB, base64 = 4/3, so up to 28 MB). Security audit 2026-11-28 (MEDIUM): the 28 MB parser ran for
 * everyone before sessions, so 12 anonymous 27 MB bodies were all read and parsed (16.4 s, server memory 698 → 1 328 MB)
 * only to be answered 401. Now app.ts's 200 kB parser skips this one path (`isLargeSubmitPath`) and the route runs
 * requireUser first, then `largeSubmitBody`: a slot (`largeBodySlot`), express.json 28 MB, and the same
 * jsonDepthLimit / storableJsonText checks the global chain runs. An anonymous caller is answered 401 (and a
 * cross-origin cookie caller 403, app.ts) before a byte of the body is read; Node discards the unread rest.
 * Security audit 2026-11-28 (LOW): four accounts announcing 20 MB and trickling 4 bytes every 2 s held all 4 slots
 * until Node's requestTimeout (300 s), and every other data-URL submitter got 503 `busy`. A body holding a slot must
 * now keep a minimum pace (`BodyPace`, `submitBodyPace`): one that falls behind is answered 408 and loses its slot.
 */
import express, { type Request, type RequestHandler, type Response } from 'express';
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
/**
 * Milliseconds after a large body takes its slot during which no pace is asked (10 s): room for a phone's radio to
 * wake, TCP slow start and a stall at the start; the bytes received meanwhile count as a head start.
 */
export const LARGE_BODY_GRACE_MS = 10_000;
/**
 * Bytes per second a large body must average from the end of the grace on: 16 KB/s = 128 kbit/s, a fraction of any
 * 3G/4G uplink and about what a 2G EDGE uplink gives (28 MB then takes about 29 min). Only API clients meet it: the
 * wizard uploads its documents first (tus, no such rule) and submits ids. A trickle (audit: 4 bytes every 2 s) falls
 * behind at the first check after the grace; holding all 4 slots now costs 64 KB/s of steady upload, not 8 bytes/s.
 */
export const LARGE_BODY_MIN_BYTES_PER_S = 16 * 1024;
/** Milliseconds between two checks of a large body's pace (2 s): a trickle loses its slot at most this long after the grace. */
export const LARGE_BODY_CHECK_MS = 2_000;

/**
 * How fast a large body must arrive while it holds a slot. Checked every `checkEveryMs` ms until the body is complete:
 * at `elapsed` ms ≥ `graceMs` since the slot was taken, the bytes received on the connection since then must be at
 * least `minBytesPerSecond` × (`elapsed` − `graceMs`) / 1000, else the caller gets 408 `request_timeout`.
 */
export interface BodyPace {
  /** Milliseconds from taking the slot during which no pace is asked (LARGE_BODY_GRACE_MS). */
  graceMs: number;
  /** Bytes per second the body must average after the grace (LARGE_BODY_MIN_BYTES_PER_S). */
  minBytesPerSecond: number;
  /** Milliseconds between checks (LARGE_BODY_CHECK_MS). */
  checkEveryMs: number;
}

/**
 * The pace the submit route asks (largeSubmitBody's default): LARGE_BODY_GRACE_MS, LARGE_BODY_MIN_BYTES_PER_S,
 * LARGE_BODY_CHECK_MS. Read at each request, so a test of the whole app can lower it for a while (and restore it).
 */
export const submitBodyPace: BodyPace = { graceMs: LARGE_BODY_GRACE_MS, minBytesPerSecond: LARGE_BODY_MIN_BYTES_PER_S, checkEveryMs: LARGE_BODY_CHECK_MS };

/** The 408 a large body that fell behind its pace gets (message in the words of the 429 and 503 above). */
export const TOO_SLOW_MESSAGE = 'Your documents were arriving too slowly. Please try again on a better connection, or upload them one at a time.';

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
  /** True when every slot of the node is taken (the next large body would get 503 `busy`). */
  full(): boolean;
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
    full: () => total >= limits.total,
  };
}

/** This process's slots (one node is one process): shared by every app it serves, as memory is. */
export const submitBodySlots: LargeBodySlots = largeBodySlots();

/**
 * Middleware chain for the submit route, after requireUser: a large body takes a slot (held until the answer is sent
 * or the connection closes; refused 429/503 with Retry-After LARGE_BODY_RETRY_AFTER_S before the body is read), then
 * express.json LARGE_JSON_LIMIT (413 payload_too_large over it, 400 invalid_json when malformed), jsonDepthLimit and
 * storableJsonText. A body of LARGE_BODY_BYTES or less takes no slot.
 * While a large body holds its slot and the node's slots are all taken (others would be refused 503), it must keep
 * `pace` (BodyPace; default submitBodyPace, read per request; fields left out take it from there): a slow phone
 * (spec §7: /colfront/applications carries browser-made data URLs) is never cut off while a slot is free for the
 * next body (code review 2026-11-28). One that falls behind then is answered 408 `request_timeout` TOO_SLOW_MESSAGE with
 * Connection: close, so Node closes the connection once the answer is written and reads no more of it, and the slot
 * is released at once. The body parser still waiting for the rest is dropped with the connection: the route's handler
 * never runs (the body was never complete), so nothing is stored and no error is logged.
 */
export function largeSubmitBody(slots: LargeBodySlots = submitBodySlots, pace: Partial<BodyPace> = submitBodyPace): RequestHandler[] {
  const slot: RequestHandler = (req, res, next) => {
    if (!isLarge(req)) return next();
    const user = req.user as { id: number } | undefined;
    if (!user) return next(new HttpError(401, 'unauthorized', 'Authentication required'));
    const taken = slots.take(user.id);
    if (taken instanceof HttpError) {
      res.setHeader('Retry-After', String(LARGE_BODY_RETRY_AFTER_S));
      return next(taken);
    }
    const stopWatching = watchPace(req, res, { ...submitBodyPace, ...pace }, () => slots.full(), taken);
    const done = () => { stopWatching(); taken(); };
    res.once('close', done);
    res.once('finish', done);
    next();
  };
  return [slot, express.json({ limit: LARGE_JSON_LIMIT }), jsonDepthLimit, storableJsonText];
}

/**
 * Checks every `pace.checkEveryMs` ms that `req`'s body keeps `pace` (bytes counted on its socket since now, framing
 * included), until the body is complete or the answer is on its way; when it falls behind while `contended()` (the
 * node's slots are all taken), answers 408 with Connection: close and calls `release`. Returns the function that
 * stops the checks (idempotent).
 */
function watchPace(req: Request, res: Response, pace: BodyPace, contended: () => boolean, release: () => void): () => void {
  const started = performance.now();
  const socket = req.socket;
  const startBytes = socket.bytesRead;
  const timer = setInterval(() => {
    if (req.complete || res.headersSent || res.writableEnded) { clearInterval(timer); return; }
    const elapsedMs = performance.now() - started;
    if (elapsedMs < pace.graceMs || !contended()) return;
    const received = socket.bytesRead - startBytes;
    if (received >= (pace.minBytesPerSecond * (elapsedMs - pace.graceMs)) / 1000) return;
    clearInterval(timer);
    release();
    res.status(408).set('Connection', 'close').json({ error: { code: 'request_timeout', message: TOO_SLOW_MESSAGE } });
  }, pace.checkEveryMs);
  timer.unref();
  return () => clearInterval(timer);
}
