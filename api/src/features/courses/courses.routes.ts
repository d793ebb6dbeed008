/**
 * Course writes (admin, spec §7): POST /api/courses, PUT /api/courses/:id {course fields, expectedUpdatedAt?} → {course}
 * or 409 {error: {code: 'conflict', message}, course: <as it is now>} when the course changed since the
 * `updatedAt` the editor sent back;
 * POST /api/courses/:id/activate | /deactivate → {course}. Each write asks for a site rebuild.
 *
 * Public course reads (spec §7): GET /api/courses → {courses}, GET /api/courses/:id → {course}.
 * Admins may pass ?all=1 to include inactive courses. Mounted also at /api/colfront/courses.
 */
import { Router } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { validate } from '../../http/validate.ts';
import { IdParamSchema } from '#contracts/common.ts';
import { requireAdmin, type AuthedUser } from '../../http/guards.ts';
import { CourseInputSchema, CourseUpdateSchema } from '#contracts/courses.ts';
import { courseById, createCourse, editCourse, publicCourses, setCourseActive } from './courses.service.ts';

const listQuery = validate(z.object({ all: z.enum(['0', '1', 'true', 'false']).optional() }), 'query');
const idParam = validate(IdParamSchema, 'params');

/**
 * Public router at /api/courses and /api/colfront/courses (spec §7): GET / and GET /:id (404 'Course Not Found'); admins with ?all=1 see inactive ones.
 */
export function coursesReadRouter(deps: AppDeps): Router {
  const r = Router();
  r.get('/', listQuery, async (req, res) => {
    const isAdmin = (req.user as AuthedUser | undefined)?.role === 'admin';
    const all = ['1', 'true'].includes(String(listQuery.data(req).all));
    res.json({ courses: await publicCourses(deps.database.db, isAdmin, all) });
  });
  r.get('/:id', idParam, async (req, res) => {
    const isAdmin = (req.user as AuthedUser | undefined)?.role === 'admin';
    res.json({ course: await courseById(deps.database.db, idParam.data(req).id, isAdmin) });
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
  const update = validate(CourseUpdateSchema);
  r.put('/:id', requireAdmin, idParam, update, async (req, res) => {
    const result = await editCourse(deps.database.db, idParam.data(req).id, update.data(req));
    if ('conflict' in result) {
      res.status(409).json({ error: { code: 'conflict', message: result.conflict.message }, course: result.conflict.current });
      return;
    }
    changed(`course ${result.course.id} updated`);
    res.json({ course: result.course });
  });
  for (const [action, isActive] of [['activate', true], ['deactivate', false]] as const) {
    r.post(`/:id/${action}`, requireAdmin, idParam, async (req, res) => {
      const course = await setCourseActive(deps.database.db, idParam.data(req).id, isActive);
      changed(`course ${course.id} ${action}d`);
      res.json({ course });
    });
  }
  return r;
}
