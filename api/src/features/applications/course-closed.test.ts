/**
 * A course deactivated while someone is in the application wizard (reliability audit): Submit answers 409
 * `course_closed` with a plain message (what happened, that the answers are kept, what to do next, the college's
 * phone from content/site.json), nothing is stored, and the draft stays. An unknown course is still 404
 * 'Course Not Found' (spec §8 wording for the course page). Runs on PGlite and, with DATABASE_URL, on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestApp, signUpStudent, signInAdmin, insertUpload, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';
import { applications } from '../../db/schema/applications.ts';
import { SITE_CONTENT } from '../../site-content.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const newCourse = { title: 'Drone Piloting', description: 'Fly drones safely and within the law.', duration: 6, department: 'Technology', tuitionFee: 'R6,500', startDate: 'February 2027' };

describe(`submitting to a course that closed meanwhile (${DB_KIND})`, () => {
  it('POST /api/applications › a deactivated course is 409 course_closed with the plain message; nothing stored, the draft kept; active again → 201', async () => {
    const admin = await signInAdmin(t);
    const created = await admin.agent.post('/api/courses').send(newCourse);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const courseId = created.body.course.id as number;
    const s = await signUpStudent(t);
    const draftPath = `/api/applications/draft?key=course-${courseId}`;
    const draft = (await s.agent.put(draftPath).send({ step: 4, data: { firstName: 'Ayanda' } })).body.draft;
    const docs = { idDocument: await insertUpload(t, s.user.id), transcripts: await insertUpload(t, s.user.id) };

    expect((await admin.agent.post(`/api/courses/${courseId}/deactivate`)).status).toBe(200);
    const res = await s.agent.post('/api/applications').send(validApplication(courseId, docs));
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('course_closed');
    expect(res.body.error.message).toBe(`Applications for this course have closed. Your answers are saved — choose another course or contact the admissions office on ${SITE_CONTENT.telephone}.`);
    expect(await t.database.db.select().from(applications).where(eq(applications.userId, s.user.id))).toEqual([]);
    expect((await s.agent.get(draftPath)).body.draft).toEqual(draft);

    // A course that does not exist is still the course page's 'Course Not Found'.
    const unknown = await s.agent.post('/api/applications').send(validApplication(999_999, docs));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('Course Not Found');

    expect((await admin.agent.post(`/api/courses/${courseId}/activate`)).status).toBe(200);
    expect((await s.agent.post('/api/applications').send(validApplication(courseId, docs))).status).toBe(201);
  });
});
