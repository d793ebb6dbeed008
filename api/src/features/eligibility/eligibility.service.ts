/**
 * Course eligibility from NSC results (issue #18 points 2–5). The rules are the pure functions of
 * `api/contracts/nsc.ts`; this service applies them to courses and applications:
 * - `eligibilityForCourses(results, courses)` → `{aps, courses:[{id, eligible, reasons}]}` (POST /api/eligibility);
 * - `applicationEligibility(academicHistory, course)` → the `{aps, eligible, eligibilityReasons}` stored on an
 *   application at submit (all null/[] when no NSC results were given);
 * - `refreshCourseEligibility(tx, course)` recomputes the stored eligibility of every application to a course
 *   after an admin changed its requirements, in the caller's transaction.
 */
import type { Db } from '../../db/client.ts';
import { checkEligibility, computeAps, type CourseRequirements, type NscResult } from '#contracts/nsc.ts';
import type { EligibilityResponse } from '#contracts/nsc-schema.ts';
import { applicationsOfCourse, setApplicationEligibility } from './eligibility.repo.ts';

type WithRequirements = CourseRequirements & { id: number };

/** APS of `results` and each course's verdict, in the order of `courses`. */
export function eligibilityForCourses(results: readonly NscResult[], courses: readonly WithRequirements[]): EligibilityResponse {
  return {
    aps: computeAps(results),
    courses: courses.map((c) => ({ id: c.id, ...checkEligibility(results, c) })),
  };
}

/** The NSC results inside a stored or submitted academic history; [] when absent or malformed. */
export function nscResultsOf(academicHistory: unknown): NscResult[] {
  const list = (academicHistory as { nscResults?: unknown } | null)?.nscResults;
  if (!Array.isArray(list)) return [];
  return list.filter((r): r is NscResult => !!r && typeof r.subject === 'string' && typeof r.percent === 'number');
}

export interface StoredEligibility { aps: number | null; eligible: boolean | null; eligibilityReasons: string[] }

/** What an application stores: APS and verdict for its course, or nulls when the applicant gave no NSC results. */
export function applicationEligibility(academicHistory: unknown, course: CourseRequirements): StoredEligibility {
  const results = nscResultsOf(academicHistory);
  if (results.length === 0) return { aps: null, eligible: null, eligibilityReasons: [] };
  const { eligible, reasons } = checkEligibility(results, course);
  return { aps: computeAps(results), eligible, eligibilityReasons: reasons };
}

/** Re-evaluates every application to `course` against its current requirements. Returns how many changed. */
export async function refreshCourseEligibility(tx: Db, course: WithRequirements): Promise<number> {
  let changed = 0;
  for (const app of await applicationsOfCourse(tx, course.id)) {
    const next = applicationEligibility(app.academicHistory, course);
    if (next.eligible === app.eligible && JSON.stringify(next.eligibilityReasons) === JSON.stringify(app.eligibilityReasons ?? [])) continue;
    await setApplicationEligibility(tx, app.id, next);
    changed++;
  }
  return changed;
}
