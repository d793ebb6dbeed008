/** Course rows and their public projection (spec §3 Course: `name` mirrors `title`). */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { courses } from '../../db/schema/catalogue.ts';
import type { Course } from '#contracts/courses.ts';

/** A `courses` row as drizzle selects it (fees are decimal strings). */
export type CourseRow = typeof courses.$inferSelect;

/**
 * A row in the API shape (spec §3 Course): `name` mirrors `title`, createdAt and updatedAt ISO 8601 (updatedAt is the
 * version an edit sends back as `expectedUpdatedAt`), subjectRequirements [] when unset.
 */
export function toCourse(r: CourseRow): Course {
  return {
    id: r.id, title: r.title, name: r.title, description: r.description, level: r.level, duration: r.duration,
    tuitionFee: r.tuitionFee, price: r.price, startDate: r.startDate, requirements: r.requirements,
    minimumAps: r.minimumAps, subjectRequirements: r.subjectRequirements ?? [],
    department: r.department, isActive: r.isActive, imageUrl: r.imageUrl,
    createdAt: r.createdAt instanceof Date ? r.createdAt.toISOString() : String(r.createdAt),
    updatedAt: r.updatedAt instanceof Date ? r.updatedAt.toISOString() : String(r.updatedAt),
  };
}

/** Active courses by id (public catalogue), or every course with `includeInactive`. */
export async function listCourses(db: DbOrTx, opts: { includeInactive?: boolean } = {}): Promise<Course[]> {
  const q = db.select().from(courses);
  const rows = opts.includeInactive ? await q.orderBy(asc(courses.id)) : await q.where(eq(courses.isActive, true)).orderBy(asc(courses.id));
  return rows.map(toCourse);
}

/** Course `id`, active or not, or undefined (callers hide inactive ones from the public). */
export async function findCourse(db: DbOrTx, id: number): Promise<Course | undefined> {
  const rows = await db.select().from(courses).where(eq(courses.id, id)).limit(1);
  return rows[0] ? toCourse(rows[0]) : undefined;
}

type CourseValues = Omit<typeof courses.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

/** Inserts a course and returns it. Throws on constraint violations (e.g. unknown department). */
export async function insertCourse(db: DbOrTx, values: CourseValues): Promise<Course> {
  const [row] = await db.insert(courses).values(values).returning();
  return toCourse(row);
}

/**
 * Updates a course and sets updated_at to now; undefined when it does not exist or, with `expectedUpdatedAt` (ISO
 * 8601), when its updated_at is no longer that instant. The check is in the UPDATE's WHERE, so of two edits made
 * from the same version exactly one succeeds. updated_at is compared truncated to milliseconds: the column keeps
 * microseconds (defaultNow) while the API's ISO strings carry milliseconds.
 */
export async function updateCourse(db: DbOrTx, id: number, values: Partial<CourseValues>, expectedUpdatedAt?: string): Promise<Course | undefined> {
  const sameVersion = expectedUpdatedAt === undefined ? undefined : sql`date_trunc('milliseconds', ${courses.updatedAt}) = ${expectedUpdatedAt}::timestamptz`;
  const [row] = await db.update(courses).set({ ...values, updatedAt: new Date() }).where(and(eq(courses.id, id), sameVersion)).returning();
  return row ? toCourse(row) : undefined;
}
