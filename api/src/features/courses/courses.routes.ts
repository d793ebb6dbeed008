/**
 * Public course reads (spec §7): GET /api/courses → {courses}, GET /api/courses/:id → {course}.
 * Admins may pass ?all=1 to include inactive courses. Mounted also at /api/colfront/courses.
 */
import { Router } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../../app.ts';
import { validate } from '../../http/validate.ts';
import { IdParamSchema } from '#contracts/common.ts';
import { courseById, publicCourses } from './courses.service.ts';

const ListQuerySchema = z.object({ all: z.enum(['0', '1', 'true', 'false']).optional() });

export function coursesReadRouter(deps: AppDeps): Router {
  const r = Router();
  r.get('/', validate(ListQuerySchema, 'query'), async (req, res) => {
    const isAdmin = (req.user as any)?.role === 'admin';
    const all = ['1', 'true'].includes(String((req.query as any).all));
    res.json({ courses: await publicCourses(deps.database.db, isAdmin, all) });
  });
  r.get('/:id', validate(IdParamSchema, 'params'), async (req, res) => {
    const isAdmin = (req.user as any)?.role === 'admin';
    res.json({ course: await courseById(deps.database.db, (req.params as any).id, isAdmin) });
  });
  return r;
}
