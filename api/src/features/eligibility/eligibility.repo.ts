/** The stored eligibility columns of applications (issue #18): read per course, write per application. */
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { applications } from '../../db/schema/applications.ts';

export async function applicationsOfCourse(db: DbOrTx, courseId: number) {
  return db.select({ id: applications.id, academicHistory: applications.academicHistory, eligible: applications.eligible, eligibilityReasons: applications.eligibilityReasons })
    .from(applications).where(eq(applications.courseId, courseId));
}

export async function setApplicationEligibility(db: DbOrTx, id: number, v: { aps: number | null; eligible: boolean | null; eligibilityReasons: string[] }): Promise<void> {
  await db.update(applications).set({ aps: v.aps, eligible: v.eligible, eligibilityReasons: v.eligibilityReasons }).where(eq(applications.id, id));
}
