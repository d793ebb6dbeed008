/**
 * POST /api/eligibility (public, issue #18 point 4): `{subjects:[{subject, percent, name?}], courseId?}` →
 * 200 `{aps, courses:[{id, eligible, reasons}]}` for every active course (or only `courseId`; an unknown or
 * inactive one → 404 'Course Not Found'). Stores nothing about the visitor; 400 with field messages on bad input;
 * 429 after `limit` checks per IP per window, counted in the shared PostgreSQL store (ASVS 2.4.1 anti-automation).
 */
import { Router } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { AppDeps } from '../../deps.ts';
import { validate } from '../../http/validate.ts';
import { HttpError } from '../../http/errors.ts';
import { sharedRateLimit } from '../../http/rate-limit-store.ts';
import { EligibilityRequestSchema } from '#contracts/nsc-schema.ts';
import type { NscResult } from '#contracts/nsc.ts';
import { courseById, publicCourses } from '../courses/courses.service.ts';
import { eligibilityForCourses } from './eligibility.service.ts';

export interface EligibilityLimit { limit?: number; windowMs?: number }

/**
 * Public router for POST /api/eligibility (issue #18 point 4); `limit` checks per IP per `windowMs` (ms) before 429.
 */
export function eligibilityRouter(deps: AppDeps, { limit = 60, windowMs = 10 * 60_000 }: EligibilityLimit = {}): Router {
  const r = Router();
  const db = deps.database.db;
  const limiter = sharedRateLimit(db, 'eligibility:', {
    windowMs, limit, standardHeaders: 'draft-8', legacyHeaders: false,
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? ''),
    handler: (_req, _res, next) => next(new HttpError(429, 'rate_limited', 'Too many checks from this address. Please try again in a few minutes.')),
  });
  r.post('/', limiter, validate(EligibilityRequestSchema), async (req, res) => {
    const { subjects, courseId } = req.body as { subjects: NscResult[]; courseId?: number };
    const courses = courseId ? [await courseById(db, courseId)] : await publicCourses(db);
    res.json(eligibilityForCourses(subjects, courses));
  });
  return r;
}
