import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, like } from 'drizzle-orm';
import { startTestApp, signInAdmin, signUpStudent, insertUpload, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';
import { rateLimits } from '../../db/schema/rate-limits.ts';
import { applications } from '../../db/schema/applications.ts';
import { eligibilityRouter } from './eligibility.routes.ts';
import express from 'express';
import { errorHandler } from '../../http/error-handler.ts';
import supertest from 'supertest';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const courseByTitle = async (title: string) => (await t.request().get('/api/courses')).body.courses.find((c: any) => c.title === title);
const strong = [
  { subject: 'English Home Language', percent: 72 }, { subject: 'Mathematics', percent: 65 }, { subject: 'Physical Sciences', percent: 61 },
  { subject: 'Life Sciences', percent: 70 }, { subject: 'Geography', percent: 80 }, { subject: 'Accounting', percent: 58 }, { subject: 'Life Orientation', percent: 90 },
];

describe(`POST /api/eligibility (${DB_KIND})`, () => {
  it('answers the APS and a verdict for every active course, anonymously, with the reasons spelled out', async () => {
    const weak = [{ subject: 'Mathematics', percent: 45 }, { subject: 'English Home Language', percent: 55 }, { subject: 'Life Orientation', percent: 80 }];
    const res = await t.request().post('/api/eligibility').send({ subjects: weak });
    expect(res.status).toBe(200);
    expect(res.body.aps).toBe(3 + 4);
    const all = (await t.request().get('/api/courses')).body.courses;
    expect(res.body.courses.map((c: any) => c.id)).toEqual(all.map((c: any) => c.id));
    const bsc = await courseByTitle('Bachelor of Science in Information Systems');
    expect(res.body.courses.find((c: any) => c.id === bsc.id)).toEqual({ id: bsc.id, eligible: false, reasons: ['APS 7 — 28 needed', 'Mathematics 45 % — 60 % needed'] });
    const open = await courseByTitle('Photography');
    expect(res.body.courses.find((c: any) => c.id === open.id)).toEqual({ id: open.id, eligible: true, reasons: [] });
  });

  it('narrows to one course with courseId; strong results qualify; unknown course is 404', async () => {
    const bsc = await courseByTitle('Bachelor of Science in Information Systems');
    const res = await t.request().post('/api/eligibility').send({ subjects: strong, courseId: bsc.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ aps: 6 + 5 + 5 + 6 + 7 + 4, courses: [{ id: bsc.id, eligible: true, reasons: [] }] });
    expect((await t.request().post('/api/eligibility').send({ subjects: strong, courseId: 999999 })).status).toBe(404);
  });

  it('400 with field messages for bad input: no subjects, bad percent, unknown subject, Other without a name, duplicates, more than 9', async () => {
    const post = (body: unknown) => t.request().post('/api/eligibility').send(body as object);
    expect((await post({})).body.error.fields).toEqual({ subjects: 'Add at least one subject' });
    const bad = await post({ subjects: [{ subject: 'Mathematics', percent: 101 }, { subject: 'Maths', percent: 50 }, { subject: 'Other', percent: 60 }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toMatchObject({
      'subjects.0.percent': 'Percentage must be a whole number from 0 to 100', 'subjects.1.subject': 'Please select a subject', 'subjects.2.name': 'Please name the subject',
    });
    expect((await post({ subjects: [{ subject: 'Mathematics', percent: 50 }, { subject: 'Mathematics', percent: 60 }] })).body.error.fields.subjects).toBe('Each subject can be listed only once');
    const ten = Array.from({ length: 10 }, (_, i) => ({ subject: 'Other', name: `Subject ${i}`, percent: 50 }));
    expect((await post({ subjects: ten })).body.error.fields.subjects).toBe('At most 9 subjects');
    expect((await post('not json at all')).status).toBe(400);
  });

  it('stores nothing about the visitor (only the rate-limit counter)', async () => {
    const before = await t.database.db.select({ n: count() }).from(applications);
    await t.request().post('/api/eligibility').send({ subjects: strong }).expect(200);
    const after = await t.database.db.select({ n: count() }).from(applications);
    expect(after[0].n).toBe(before[0].n);
  });

  it('is rate-limited per IP in the shared PostgreSQL store: 429 after the limit', async () => {
    const app = express();
    app.use(express.json());
    app.use('/api/eligibility', eligibilityRouter(t.deps, { limit: 3, windowMs: 60_000 }));
    app.use(errorHandler);
    const req = supertest(app);
    await t.database.db.delete(rateLimits).where(like(rateLimits.key, 'eligibility:%')); // earlier tests counted from this IP
    for (let i = 0; i < 3; i++) await req.post('/api/eligibility').send({ subjects: strong }).expect(200);
    const res = await req.post('/api/eligibility').send({ subjects: strong });
    expect(res.status).toBe(429);
    expect(res.body.error.message).toBe('Too many checks from this address. Please try again in a few minutes.');
    const rows = await t.database.db.select().from(rateLimits);
    expect(rows.some((r) => r.key.startsWith('eligibility:') && r.hits >= 4)).toBe(true);
  });
});

describe(`eligibility stored on applications (${DB_KIND})`, () => {
  it('submit stores APS and eligibility; the admin list shows, filters and sorts by them; CSV and Reports include them', async () => {
    const bsc = await courseByTitle('Bachelor of Science in Information Systems');
    const submit = async (nscResults?: unknown[]) => {
      const s = await signUpStudent(t);
      const docs = { idDocument: await insertUpload(t, s.user.id), transcripts: await insertUpload(t, s.user.id) };
      const body = validApplication(bsc.id, docs) as any;
      if (nscResults) body.academicHistory.nscResults = nscResults;
      const res = await s.agent.post('/api/applications').send(body);
      expect(res.status).toBe(201);
      return res.body.application;
    };
    const good = await submit(strong);
    const weak = await submit([{ subject: 'Mathematics', percent: 45 }, { subject: 'Other', name: 'Latin', percent: 50 }]);
    const none = await submit();
    expect(good.aps).toBe(33);
    expect(none.aps).toBeNull();

    const { agent } = await signInAdmin(t);
    const list = async (qs: string) => (await agent.get(`/api/admin/applications?courseId=${bsc.id}&${qs}`)).body.applications;
    const rows = await list('sort=aps&dir=desc');
    expect(rows.map((r: any) => r.id)).toEqual([good.id, weak.id, none.id]);
    expect(rows[1]).toMatchObject({ aps: 7, eligible: false, eligibilityReasons: ['APS 7 — 28 needed', 'Mathematics 45 % — 60 % needed'] });
    expect((await list('sort=aps&dir=asc')).map((r: any) => r.id)).toEqual([weak.id, good.id, none.id]);
    expect((await list('eligibility=eligible')).map((r: any) => r.id)).toEqual([good.id]);
    expect((await list('eligibility=not_eligible')).map((r: any) => r.id)).toEqual([weak.id]);
    expect((await list('eligibility=unknown')).map((r: any) => r.id)).toEqual([none.id]);
    expect((await agent.get('/api/admin/applications?eligibility=maybe')).status).toBe(400);

    const csv = (await agent.get(`/api/admin/applications/export.csv?courseId=${bsc.id}&sort=aps`)).text;
    expect(csv.split('\n')[0]).toContain('APS,Eligible,Eligibility notes');
    expect(csv).toContain(`APP-${weak.id},`);
    expect(csv).toMatch(new RegExp(`APP-${weak.id},.*,7,No,APS 7 — 28 needed; Mathematics 45 % — 60 % needed`));

    const report = (await agent.get('/api/admin/reports')).body.byCourse.find((c: any) => c.courseId === bsc.id);
    expect(report).toMatchObject({ count: 3, eligible: 1, notEligible: 1, unknown: 1 });

    const detail = (await agent.get(`/api/admin/applications/${weak.id}`)).body.application;
    expect(detail).toMatchObject({ aps: 7, eligible: false });
  });

  it('PUT /api/courses/:id with new requirements re-evaluates the stored eligibility of its applications', async () => {
    const { agent } = await signInAdmin(t);
    const created = (await agent.post('/api/courses').send({
      title: 'Electrical Engineering N4', description: 'Electrical trade theory.', duration: 12, department: 'Technology', tuitionFee: 'R9,000', startDate: 'July 2027',
    })).body.course;
    expect(created).toMatchObject({ minimumAps: 0, subjectRequirements: [] });
    const s = await signUpStudent(t);
    const docs = { idDocument: await insertUpload(t, s.user.id), transcripts: await insertUpload(t, s.user.id) };
    const body = validApplication(created.id, docs) as any;
    body.academicHistory.nscResults = [{ subject: 'Mathematics', percent: 48 }, { subject: 'Physical Sciences', percent: 66 }];
    const app = (await s.agent.post('/api/applications').send(body)).body.application;
    const eligibleOf = async () => (await agent.get(`/api/admin/applications/${app.id}`)).body.application;
    expect(await eligibleOf()).toMatchObject({ eligible: true, eligibilityReasons: [] });

    const put = await agent.put(`/api/courses/${created.id}`).send({ ...created, minimumAps: 8, subjectRequirements: [{ subject: 'Mathematics', minimumPercent: 50 }] });
    expect(put.status).toBe(200);
    expect(put.body.course).toMatchObject({ minimumAps: 8, subjectRequirements: [{ subject: 'Mathematics', minimumPercent: 50 }] });
    expect(await eligibleOf()).toMatchObject({ eligible: false, eligibilityReasons: ['Mathematics 48 % — 50 % needed'] });

    const bad = await agent.put(`/api/courses/${created.id}`).send({ ...created, minimumAps: 43, subjectRequirements: [{ subject: 'Other', minimumPercent: 50 }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toMatchObject({ minimumAps: 'Minimum APS must be a whole number from 0 to 42', 'subjectRequirements.0.subject': 'Please select a subject' });
    expect((await agent.get(`/api/courses/${created.id}`)).body.course.minimumAps).toBe(8);
  });
});
