/** The stored eligibility columns of applications (issue #18): read per course, write per application. */
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { applications } from '../../db/schema/applications.ts';

/** Id, academic history (jsonb) and stored eligibility of every application for `courseId` (recomputed when the course's rules change). */
export async function applicationsOfCourse(db: DbOrTx, courseId: number): Promise<{ id: number; academicHistory: unknown; eligible: boolean | null; eligibilityReasons: string[] }[]> {
  return db.select({ id: applications.id, academicHistory: applications.academicHistory, eligible: applications.eligible, eligibilityReasons: applications.eligibilityReasons })
    .from(applications).where(eq(applications.courseId, courseId));
}

/** Stores APS (null: no NSC results), eligible (null: unknown) and the reasons of application `id` (issue #18). */
export async function setApplicationEligibility(db: DbOrTx, id: number, v: { aps: number | null; eligible: boolean | null; eligibilityReasons: string[] }): Promise<void> {
  await db.update(applications).set({ aps: v.aps, eligible: v.eligible, eligibilityReasons: v.eligibilityReasons }).where(eq(applications.id, id));
}
