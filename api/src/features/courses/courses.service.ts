/**
 * Catalogue reads (spec §2 catalogue/detail). Inactive courses are invisible to the public
 * (issue #6: "Inactive courses leave the public site") but visible to admins.
 */
import type { Db } from '../../db/client.ts';
import { notFound } from '../../http/errors.ts';
import type { Course } from '#contracts/courses.ts';
import { findCourse, insertCourse, listCourses, updateCourse } from './courses.repo.ts';
import type { z } from 'zod';
import { COURSE_EDIT_CONFLICT, type CourseInputSchema, type CourseUpdateSchema } from '#contracts/courses.ts';
import { refreshCourseEligibility } from '../eligibility/eligibility.service.ts';

type CourseData = z.output<typeof CourseInputSchema>;
type CourseEdit = z.output<typeof CourseUpdateSchema>;

/** What an edit did: saved the course, or refused because it changed since the form opened (`current`: as it is now). */
export type CourseEditResult = { course: Course } | { conflict: { message: string; current: Course } };

/** Active courses by id (spec §2 catalogue); an admin asking for `all` gets inactive ones too (issue #6). */
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

/**
 * A course by id whatever its state (the submit tells "closed" from "unknown"), or undefined. Not for public reads:
 * those go through courseById, which hides inactive courses (issue #6).
 */
export function anyCourse(db: Db, id: number): Promise<Course | undefined> {
  return findCourse(db, id);
}

/** Admin create (spec §5 Course form; input already validated by CourseInputSchema). */
export function createCourse(db: Db, input: CourseData): Promise<Course> {
  return insertCourse(db, input);
}

/**
 * Admin edit: replaces every form field and, in the same transaction, re-evaluates the stored eligibility of
 * the course's applications against the new structured requirements (issue #18). With `expectedUpdatedAt` (the
 * `updatedAt` the form was opened on) a course changed since is left as it is and the answer is
 * `{conflict: {message: COURSE_EDIT_CONFLICT, current}}` (lost update, audit finding). Throws 404 'Course Not Found'.
 */
export async function editCourse(db: Db, id: number, input: CourseEdit): Promise<CourseEditResult> {
  const { expectedUpdatedAt, ...fields } = input;
  return db.transaction(async (tx): Promise<CourseEditResult> => {
    const course = await updateCourse(tx, id, fields, expectedUpdatedAt);
    if (!course) {
      const current = await findCourse(tx, id);
      if (!current) throw notFound('Course Not Found');
      return { conflict: { message: COURSE_EDIT_CONFLICT, current } };
    }
    await refreshCourseEligibility(tx, course);
    return { course };
  });
}

/** Activate/deactivate: an inactive course leaves the public site and refuses new applications. Throws 404. */
export async function setCourseActive(db: Db, id: number, isActive: boolean): Promise<Course> {
  const course = await updateCourse(db, id, { isActive });
  if (!course) throw notFound('Course Not Found');
  return course;
}
