/**
 * GET /api/colfront/health (spec §4/§7), the balancer's check (README "Running several nodes"):
 * - 200 `{status: 'OK', message, site?}` when this node can serve everything it serves;
 * - 503 `{status: 'UNAVAILABLE', …}` when the database does not answer;
 * - 503 `{status: 'STARTING', …, site}` while this node serves the static site (SITE_BUILD auto or always, no build
 *   hook) but has no live build yet, so that page traffic is not sent to a node that could only answer its 503
 *   "starting" page; the API is up meanwhile (the body says so);
 * - 503 `{status: 'STOPPING', …}` once a graceful stop began (server.ts), during its grace period.
 * `site` is the static site's state (`building` | `ready` | `failed` | `disabled`, failures in a row, ms to the next
 * retry) when this process serves one (issue #11).
 * `outbox` (200 and STARTING bodies) is the mail and SMS backlog, `{mail, sms}` each `{pending, oldestPendingSeconds,
 * failed}` (outboxBacklog, api/src/db/outbox.ts), read at most every OUTBOX_BACKLOG_CACHE_MS. It never turns the status
 * red: a relay that is down does not make this node unable to serve, and taking every node out of the balancer would
 * not bring the mail through (operations audit); monitoring alerts on it instead.
 * `documents` (200 and STARTING bodies, once the start-up check has run) is `{checked, missing}`: how many of the
 * newest upload rows were looked up in the document store at start-up and how many had no document (a database
 * restored without its documents; backup and restore audit). It never turns the status red either: the node still
 * serves everything else, and every node of a shared store would be taken out together; the start-up log says
 * "N of M documents checked are missing from …", and `npm run check:documents` lists them all.
 * `site`, `outbox` and `documents` go only to an admin or to a direct call from this machine (`seesDetails`); anyone
 * else gets `{status, message}` with the same status code (security audit 2026-11-28: they told anonymous callers the
 * mail backlog, missing documents and build state). A balancer reads only the status code.
 */
import { Router, type Request } from 'express';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';
import { outboxBacklog, type OutboxBacklog } from '../../db/outbox.ts';

/** How long (ms) the health body reuses the outbox backlog it read (a balancer calls health every second). */
export const OUTBOX_BACKLOG_CACHE_MS = 10_000;

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * True when `req` may see the health details: the signed-in user is an admin, or the call reached this node straight
 * from the loopback address without any proxy header (X-Forwarded-For, Forwarded, X-Real-IP): an operator's curl or
 * a check on the host. A proxy on the same host that adds none of these headers would pass its callers' requests as
 * direct ones; README's HAProxy configuration adds X-Forwarded-For (`option forwardfor`).
 */
export function seesDetails(req: Request): boolean {
  if ((req.user as { role?: string } | undefined)?.role === 'admin') return true;
  const h = req.headers;
  return LOOPBACK.has(req.socket.remoteAddress ?? '') && !h['x-forwarded-for'] && !h.forwarded && !h['x-real-ip'];
}

/**
 * Router for GET /api/colfront/health (see the module comment): 200 when the database answers a `select 1` and, if
 * this node serves the site, a build is live; 503 with `status` 'UNAVAILABLE', 'STARTING' or 'STOPPING' otherwise;
 * `site`, `outbox`, `documents` only when `seesDetails(req)`.
 */
export function healthRouter(deps: AppDeps): Router {
  const r = Router();
  // The site is this node's to serve unless SITE_BUILD=never (API only) or a build hook publishes it elsewhere (a CDN).
  const servesSite = deps.config.SITE_BUILD !== 'never' && !deps.config.SITE_BUILD_HOOK_URL;
  let backlog: { at: number; value: { mail: OutboxBacklog; sms: OutboxBacklog } | null } | null = null;
  const outbox = async () => {
    if (!backlog || Date.now() - backlog.at >= OUTBOX_BACKLOG_CACHE_MS) {
      backlog = { at: Date.now(), value: await outboxBacklog(deps.database.db).catch(() => null) };
    }
    return backlog.value ? { outbox: backlog.value } : {};
  };
  const documents = () => { const d = deps.documents?.(); return d ? { documents: d } : {}; };
  r.get('/', async (req, res) => {
    const details = seesDetails(req);
    if (deps.stopping?.()) {
      res.status(503).json({ status: 'STOPPING', message: 'This node is shutting down' });
      return;
    }
    try {
      await deps.database.db.execute(sql`select 1`);
    } catch {
      res.status(503).json({ status: 'UNAVAILABLE', message: 'The database is not reachable' });
      return;
    }
    const site = deps.site?.status?.();
    if (deps.site && servesSite && !deps.site.dir()) {
      const body = { status: 'STARTING', message: 'API is available; the site is not ready yet' };
      res.status(503).json(details ? { ...body, site: site ?? { state: 'building', failures: 0, retryInMs: null }, ...(await outbox()), ...documents() } : body);
      return;
    }
    const body = { status: 'OK', message: 'API is available' };
    res.json(details ? { ...body, ...(site ? { site } : {}), ...(await outbox()), ...documents() } : body);
  });
  return r;
}
