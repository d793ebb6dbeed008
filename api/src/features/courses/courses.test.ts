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
    expect((await s.agent.post('/api/applications').send(validApplication(created.id, docs))).status).toBe(404);

    await agent.post(`/api/courses/${created.id}/activate`).expect(200);
    expect((await t.request().get(`/api/courses/${created.id}`)).status).toBe(200);
    expect((await s.agent.post('/api/applications').send(validApplication(created.id, docs))).status).toBe(201);
  });
});
