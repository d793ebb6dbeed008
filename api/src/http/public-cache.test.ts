import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signInAdmin, signUpStudent, DB_KIND, type TestApp } from '../test/harness.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const SECURITY_HEADERS = ['content-security-policy', 'x-content-type-options', 'referrer-policy', 'x-frame-options'];
const course = { title: 'Beekeeping Basics', description: 'Hives, honey and pollination.', duration: 3, department: 'Business', tuitionFee: 'R900', startDate: 'March 2027' };

describe(`public read cache (${DB_KIND})`, () => {
  it('a repeated anonymous GET /api/courses carries the same body and security headers, and honours If-None-Match', async () => {
    const first = await t.request().get('/api/courses');
    const second = await t.request().get('/api/courses');
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    for (const h of SECURITY_HEADERS) expect(second.headers[h], h).toBe(first.headers[h]);
    expect(second.headers['x-powered-by']).toBeUndefined();
    expect(second.headers.etag).toBe(first.headers.etag);
    const notModified = await t.request().get('/api/courses').set('If-None-Match', first.headers.etag);
    expect(notModified.status).toBe(304);
  });

  it('a course an admin creates is in the public list at once, not after the cache expires', async () => {
    const before = (await t.request().get('/api/courses')).body.courses.length;
    const admin = await signInAdmin(t);
    expect((await admin.agent.post('/api/courses').send(course)).status).toBe(201);
    const after = await t.request().get('/api/courses');
    expect(after.body.courses.length).toBe(before + 1);
    expect(after.body.courses.map((c: { title: string }) => c.title)).toContain('Beekeeping Basics');
  });

  it('signed-in callers bypass the cache: an admin sees inactive courses with ?all=1, the public does not', async () => {
    const admin = await signInAdmin(t);
    const created = (await admin.agent.post('/api/courses').send({ ...course, title: 'Hidden Course', isActive: false })).body.course;
    await t.request().get('/api/courses?all=1');
    const anonymous = await t.request().get('/api/courses?all=1');
    expect(anonymous.body.courses.map((c: { id: number }) => c.id)).not.toContain(created.id);
    const asAdmin = await admin.agent.get('/api/courses?all=1');
    expect(asAdmin.body.courses.map((c: { id: number }) => c.id)).toContain(created.id);
    const student = await signUpStudent(t);
    expect((await student.agent.get(`/api/courses/${created.id}`)).status).toBe(404);
  });
});

describe(`public read cache, conditional reads of what a site build saw (${DB_KIND})`, () => {
  it('the ETag of the build\'s read answers a bare 304 later, also once the entry has left the cache, until the content changes', async () => {
    const built = await t.request().get('/api/announcements').set('Cache-Control', 'no-cache');
    expect(built.headers.etag).toBeTruthy();
    const admin = await signInAdmin(t);
    // Public content changed elsewhere: the cache is emptied, the announcements are the same.
    expect((await admin.agent.post('/api/courses').send({ ...course, title: 'Empties The Cache' })).status).toBe(201);
    for (let i = 0; i < 2; i++) { // a miss, then a hit
      const check = await t.request().get('/api/announcements').set('If-None-Match', built.headers.etag);
      expect(check.status).toBe(304);
      expect(check.text ?? '').toBe('');
      expect(check.headers['content-security-policy']).toBeUndefined();
      expect(check.headers['permissions-policy'], `round ${i}`).toBeUndefined();
      expect(check.headers['x-content-type-options']).toBe('nosniff');
      expect(check.headers.etag).toBe(built.headers.etag);
    }
    expect((await admin.agent.post('/api/announcements').send({ title: 'Open day', content: 'Come and see the campus on Saturday.', imageUrl: null, active: true })).status).toBe(201);
    const changed = await t.request().get('/api/announcements').set('If-None-Match', built.headers.etag);
    expect(changed.status).toBe(200);
    expect(changed.body.announcements.map((a: { title: string }) => a.title)).toContain('Open day');
    expect(changed.headers['content-security-policy']).toBeTruthy();
  });
});

describe(`public read cache, fresh reads (${DB_KIND})`, () => {
  it('a caller sending Cache-Control: no-cache (the site build) sees a change made behind the API at once', async () => {
    const { courses } = await import('../db/schema/catalogue.ts');
    const { eq } = await import('drizzle-orm');
    await t.request().get('/api/courses/1');
    await t.database.db.update(courses).set({ title: 'Renamed Directly' }).where(eq(courses.id, 1));
    expect((await t.request().get('/api/courses/1')).body.course.title).not.toBe('Renamed Directly');
    const fresh = await t.request().get('/api/courses/1').set('Cache-Control', 'no-cache');
    expect(fresh.body.course.title).toBe('Renamed Directly');
  });
});
