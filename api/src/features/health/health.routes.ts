/**
 * GET /api/colfront/health → `{status: 'OK', message, site?}` when the database answers; 503 otherwise (spec §4/§7).
 * `site` is the static site's state (`building` | `ready` | `failed` | `disabled`, failures in a row, ms to the
 * next retry) when this process serves one (issue #11); the HTTP status speaks only for the API, and is 503
 * `{status: 'STOPPING'}` once a graceful stop began (server.ts), so that a balancer takes the node out first.
 */
import { Router } from 'express';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps.ts';

/**
 * Router for GET /api/colfront/health (spec §4/§7): 200 {status: 'OK', message, site?} when the database answers a `select 1`, else 503;
 * 503 {status: 'STOPPING'} while the node is stopping (`deps.stopping`).
 */
export function healthRouter(deps: AppDeps): Router {
  const r = Router();
  r.get('/', async (_req, res) => {
    if (deps.stopping?.()) {
      res.status(503).json({ status: 'STOPPING', message: 'This node is shutting down' });
      return;
    }
    try {
      await deps.database.db.execute(sql`select 1`);
      const site = deps.site?.status?.();
      res.json({ status: 'OK', message: 'API is available', ...(site ? { site } : {}) });
    } catch {
      res.status(503).json({ status: 'UNAVAILABLE', message: 'The database is not reachable' });
    }
  });
  return r;
}
