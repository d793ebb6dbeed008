/**
 * Catalogue reads (spec §2 catalogue/detail). Inactive courses are invisible to the public
 * (issue #6: "Inactive courses leave the public site") but visible to admins.
 */
import type { Db } from '../../db/client.ts';
import { notFound } from '../../http/errors.ts';
import type { Course } from '#contracts/courses.ts';
import { findCourse, listCourses } from './courses.repo.ts';

export function publicCourses(db: Db, isAdmin = false, all = false): Promise<Course[]> {
  return listCourses(db, { includeInactive: isAdmin && all });
}

/** A course by id; inactive ones only for admins. Throws 404 'Course Not Found'. */
export async function courseById(db: Db, id: number, isAdmin = false): Promise<Course> {
  const course = await findCourse(db, id);
  if (!course || (!course.isActive && !isAdmin)) throw notFound('Course Not Found');
  return course;
}

/** The course an applicant may apply to: exists and is active. Throws 404 otherwise. */
export async function applicableCourse(db: Db, id: number): Promise<Course> {
  return courseById(db, id, false);
}
