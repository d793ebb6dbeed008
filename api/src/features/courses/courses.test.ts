import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signInAdmin, signUpStudent, insertUpload, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

describe(`courses (${DB_KIND})`, () => {
  it('GET /api/courses › lists the seeded catalogue: ≥ 12 courses over all three levels and four departments', async () => {
    const res = await t.request().get('/api/courses');
    expect(res.status).toBe(200);
    const courses = res.body.courses;
    expect(courses.length).toBeGreaterThanOrEqual(12);
    expect(new Set(courses.map((c: any) => c.level))).toEqual(new Set(['certificate', 'diploma', 'degree']));
    expect(new Set(courses.map((c: any) => c.department))).toEqual(new Set(['Business', 'Technology', 'Healthcare', 'Arts and Design']));
    for (const c of courses) {
      expect(c.name).toBe(c.title);
      expect(c.duration).toBeGreaterThan(0);
      expect(c.requirements).toBeTruthy();
    }
  });

  it('GET /api/courses/:id › returns one course; unknown id is 404; non-number is 400', async () => {
    const ok = await t.request().get('/api/courses/1');
    expect(ok.status).toBe(200);
    expect(ok.body.course.id).toBe(1);
    const missing = await t.request().get('/api/courses/99999');
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('Course Not Found');
    const bad = await t.request().get('/api/courses/abc');
    expect(bad.status).toBe(400);
  });
});

const newCourse = (o: Record<string, unknown> = {}) => ({
  title: 'Solar Installation', description: 'Install and maintain photovoltaic systems.', duration: 6,
  department: 'Technology', tuitionFee: 'R6,500', startDate: 'February 2027', ...o,
});

describe(`course admin (${DB_KIND})`, () => {
  it('POST /api/courses › creates with level certificate and isActive true by default, asks for a rebuild', async () => {
    const { agent } = await signInAdmin(t);
    const before = t.contentChanges.length;
    const res = await agent.post('/api/courses').send(newCourse());
    expect(res.status).toBe(201);
    expect(res.body.course).toMatchObject({ title: 'Solar Installation', name: 'Solar Installation', level: 'certificate', isActive: true, duration: 6 });
    expect(t.contentChanges.slice(before)).toEqual([`course ${res.body.course.id} created`]);
    const pub = await t.request().get(`/api/courses/${res.body.course.id}`);
    expect(pub.status).toBe(200);
  });

  it('POST /api/courses › 400 naming each missing §5 field; nothing stored', async () => {
    const { agent } = await signInAdmin(t);
    const count = (await t.request().get('/api/courses')).body.courses.length;
    const res = await agent.post('/api/courses').send({ level: 'masters' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['department', 'description', 'duration', 'level', 'startDate', 'title', 'tuitionFee']);
    expect(res.body.error.fields.title).toBe('Title is required');
    expect((await t.request().get('/api/courses')).body.courses.length).toBe(count);
  });

  it('POST and PUT /api/courses › a negative, zero or non-number duration is 400 "Duration must be a positive number"; blank is "Duration is required" (QA audit 2026-11-28)', async () => {
    const { agent } = await signInAdmin(t);
    const count = (await t.request().get('/api/courses?all=1')).body.courses.length;
    for (const duration of [-3, '-3', 0, 'abc']) {
      const res = await agent.post('/api/courses').send(newCourse({ duration }));
      expect(res.status, String(duration)).toBe(400);
      expect(res.body.error.fields, String(duration)).toEqual({ duration: 'Duration must be a positive number' });
    }
    const blank = await agent.post('/api/courses').send(newCourse({ duration: '' }));
    expect(blank.body.error.fields).toEqual({ duration: 'Duration is required' });
    expect((await t.request().get('/api/courses?all=1')).body.courses.length).toBe(count);
    const created = (await agent.post('/api/courses').send(newCourse())).body.course;
    const put = await agent.put(`/api/courses/${created.id}`).send(newCourse({ duration: -1 }));
    expect(put.status).toBe(400);
    expect(put.body.error.fields).toEqual({ duration: 'Duration must be a positive number' });
    expect((await t.request().get(`/api/courses/${created.id}`)).body.course.duration).toBe(6);
  });

  it('PUT /api/courses/:id › updates every field; unknown id is 404', async () => {
    const { agent } = await signInAdmin(t);
    const created = (await agent.post('/api/courses').send(newCourse())).body.course;
    const res = await agent.put(`/api/courses/${created.id}`).send(newCourse({ title: 'Solar Installation NQF 4', level: 'diploma', duration: 12 }));
    expect(res.status).toBe(200);
    expect(res.body.course).toMatchObject({ id: created.id, title: 'Solar Installation NQF 4', level: 'diploma', duration: 12 });
    expect(t.contentChanges.at(-1)).toBe(`course ${created.id} updated`);
    expect((await agent.put('/api/courses/999999').send(newCourse())).status).toBe(404);
  });

  it('deactivate › the course leaves the public catalogue and refuses applications; activate brings it back', async () => {
    const { agent } = await signInAdmin(t);
    const created = (await agent.post('/api/courses').send(newCourse())).body.course;
    const off = await agent.post(`/api/courses/${created.id}/deactivate`);
    expect(off.body.course.isActive).toBe(false);
    expect(t.contentChanges.at(-1)).toBe(`course ${created.id} deactivated`);
    expect((await t.request().get('/api/courses')).body.courses.map((c: any) => c.id)).not.toContain(created.id);
    expect((await t.request().get(`/api/courses/${created.id}`)).status).toBe(404);
    const adminAll = await agent.get('/api/courses?all=1');
    expect(adminAll.body.courses.find((c: any) => c.id === created.id).isActive).toBe(false);

    const s = await signUpStudent(t);
    const docs = { idDocument: await insertUpload(t, s.user.id), transcripts: await insertUpload(t, s.user.id) };
    expect((await s.agent.post('/api/applications').send(validApplication(created.id, docs))).status).toBe(409); // course_closed (course-closed.test.ts)

    await agent.post(`/api/courses/${created.id}/activate`).expect(200);
    expect((await t.request().get(`/api/courses/${created.id}`)).status).toBe(200);
    expect((await s.agent.post('/api/applications').send(validApplication(created.id, docs))).status).toBe(201);
  });
});

describe(`course edits from a stale form (${DB_KIND})`, () => {
  const formOf = (c: any, o: Record<string, unknown> = {}) => ({
    title: c.title, description: c.description, level: c.level, duration: c.duration, department: c.department, tuitionFee: c.tuitionFee,
    startDate: c.startDate, price: c.price, requirements: c.requirements, imageUrl: c.imageUrl, minimumAps: c.minimumAps,
    subjectRequirements: c.subjectRequirements, isActive: c.isActive, expectedUpdatedAt: c.updatedAt, ...o,
  });

  it('PUT /api/courses/:id › B saving the form as it was before A saved gets 409 with the current course; A\'s title stays', async () => {
    const a = await signInAdmin(t);
    const b = await signInAdmin(t);
    // Course 7 is seeded: its updated_at has microseconds (defaultNow), the GET's updatedAt milliseconds.
    const openedByA = (await a.agent.get('/api/courses/7')).body.course;
    const openedByB = (await b.agent.get('/api/courses/7')).body.course;
    expect(openedByB.updatedAt).toBe(openedByA.updatedAt);

    const savedA = await a.agent.put('/api/courses/7').send(formOf(openedByA, { title: `${openedByA.title} (NQF 5)` }));
    expect(savedA.status).toBe(200);
    expect(savedA.body.course.updatedAt).not.toBe(openedByA.updatedAt);
    const changesBefore = t.contentChanges.length;

    const savedB = await b.agent.put('/api/courses/7').send(formOf(openedByB, { tuitionFee: 'R99,999' }));
    expect(savedB.status).toBe(409);
    expect(savedB.body.error).toEqual({ code: 'conflict', message: 'Someone else changed this course since you opened it. Reload to see their changes.' });
    expect(savedB.body.course).toMatchObject({ id: 7, title: `${openedByA.title} (NQF 5)`, tuitionFee: openedByA.tuitionFee, updatedAt: savedA.body.course.updatedAt });
    expect(t.contentChanges.length).toBe(changesBefore); // nothing to publish

    const now = (await t.request().get('/api/courses/7')).body.course;
    expect(now).toMatchObject({ title: `${openedByA.title} (NQF 5)`, tuitionFee: openedByA.tuitionFee });

    // B reloads (the 409's course) and saves the fee again: accepted, A's title kept.
    const retried = await b.agent.put('/api/courses/7').send(formOf(savedB.body.course, { tuitionFee: 'R99,999' }));
    expect(retried.status).toBe(200);
    expect(retried.body.course).toMatchObject({ title: `${openedByA.title} (NQF 5)`, tuitionFee: 'R99,999' });
  });

  it('PUT /api/courses/:id › two saves sent at once from the same version: exactly one is applied, the other is 409', async () => {
    const { agent } = await signInAdmin(t);
    const created = (await agent.post('/api/courses').send(newCourse())).body.course;
    const [r1, r2] = await Promise.all([
      agent.put(`/api/courses/${created.id}`).send(formOf(created, { title: 'Solar Installation A' })),
      agent.put(`/api/courses/${created.id}`).send(formOf(created, { title: 'Solar Installation B' })),
    ]);
    expect([r1.status, r2.status].sort()).toEqual([200, 409]);
    const winner = r1.status === 200 ? r1 : r2;
    expect((await agent.get(`/api/courses/${created.id}`)).body.course.title).toBe(winner.body.course.title);
  });

  it('PUT /api/courses/:id › without expectedUpdatedAt it still saves (API compatibility); a malformed one is 400; a course deleted meanwhile is 404', async () => {
    const { agent } = await signInAdmin(t);
    const created = (await agent.post('/api/courses').send(newCourse())).body.course;
    const { expectedUpdatedAt: _omit, ...blind } = formOf(created, { title: 'Solar Installation 2' });
    expect((await agent.put(`/api/courses/${created.id}`).send(blind)).status).toBe(200);
    const bad = await agent.put(`/api/courses/${created.id}`).send(formOf(created, { expectedUpdatedAt: 'yesterday' }));
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ expectedUpdatedAt: 'Expected version must be an ISO 8601 date and time' });
    // Zod's ISO date-time accepts these; PostgreSQL's ::timestamptz refused them and the edit answered 500.
    const yearZero = await agent.put(`/api/courses/${created.id}`).send(formOf(created, { expectedUpdatedAt: '0000-01-01T00:00:00Z' }));
    expect(yearZero.status).toBe(400);
    expect(yearZero.body.error.fields).toEqual({ expectedUpdatedAt: 'Expected version must be a date and time in the years 0001 to 9999' });
    const farEast = await agent.put(`/api/courses/${created.id}`).send(formOf(created, { expectedUpdatedAt: '2026-01-01T10:00:00+16:00' }));
    expect(farEast.status).toBe(409);

    const { courses } = await import('../../db/schema/catalogue.ts');
    const { eq } = await import('drizzle-orm');
    await t.database.db.delete(courses).where(eq(courses.id, created.id));
    const gone = await agent.put(`/api/courses/${created.id}`).send(formOf(created));
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toBe('Course Not Found');
  });
});
