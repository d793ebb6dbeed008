/** GET /api/colfront/health → {status: 'OK', message} when the database answers; 503 otherwise (spec §4/§7). */
import { Router } from 'express';
import { sql } from 'drizzle-orm';
import type { AppDeps } from '../../app.ts';

export function healthRouter(deps: AppDeps): Router {
  const r = Router();
  r.get('/', async (_req, res) => {
    try {
      await deps.database.db.execute(sql`select 1`);
      res.json({ status: 'OK', message: 'API is available' });
    } catch {
      res.status(503).json({ status: 'UNAVAILABLE', message: 'The database is not reachable' });
    }
  });
  return r;
}
