import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, DB_KIND, type TestApp } from '../../test/harness.ts';

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
