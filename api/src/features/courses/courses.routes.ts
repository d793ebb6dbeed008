/**
 * Course writes (admin, spec §7): POST /api/courses, PUT /api/courses/:id {course fields} → {course};
 * POST /api/courses/:id/activate | /deactivate → {course}. Each write asks for a site rebuild.
 *
 * Public course reads (spec §7): GET /api/courses → {courses}, GET /api/courses/:id → {course}.
 * Admins may pass ?all=1 to include inactive courses. Mounted also at /api/colfront/courses.
 */
import { Router } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../../app.ts';
import { validate } from '../../http/validate.ts';
import { IdParamSchema } from '#contracts/common.ts';
import { requireAdmin } from '../../http/guards.ts';
import { CourseInputSchema } from '#contracts/courses.ts';
import { courseById, createCourse, editCourse, publicCourses, setCourseActive } from './courses.service.ts';

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

/** Admin course writes, mounted at /api/courses beside the read router. */
export function coursesAdminRouter(deps: AppDeps): Router {
  const r = Router();
  const changed = (what: string) => deps.onContentChanged?.(what);
  r.post('/', requireAdmin, validate(CourseInputSchema), async (req, res) => {
    const course = await createCourse(deps.database.db, req.body);
    changed(`course ${course.id} created`);
    res.status(201).json({ course });
  });
  r.put('/:id', requireAdmin, validate(IdParamSchema, 'params'), validate(CourseInputSchema), async (req, res) => {
    const course = await editCourse(deps.database.db, (req.params as any).id, req.body);
    changed(`course ${course.id} updated`);
    res.json({ course });
  });
  for (const [action, isActive] of [['activate', true], ['deactivate', false]] as const) {
    r.post(`/:id/${action}`, requireAdmin, validate(IdParamSchema, 'params'), async (req, res) => {
      const course = await setCourseActive(deps.database.db, (req.params as any).id, isActive);
      changed(`course ${course.id} ${action}d`);
      res.json({ course });
    });
  }
  return r;
}
