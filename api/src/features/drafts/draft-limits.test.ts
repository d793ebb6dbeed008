/**
 * Drafts only for courses that exist, and at most MAX_DRAFTS_PER_USER per account (security audit 2026-11-28, LOW: one
 * account kept 30 drafts of 60 KB under invented keys course-200001…).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signUpStudent, DB_KIND, type TestApp } from '../../test/harness.ts';
import { courses } from '../../db/schema/catalogue.ts';
import { MAX_DRAFTS_PER_USER } from './drafts.service.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

describe(`draft limits (${DB_KIND})`, () => {
  it("PUT under a course that does not exist is 404 'Course Not Found'; GET and DELETE of it stay harmless", async () => {
    const s = await signUpStudent(t);
    const res = await s.agent.put('/api/applications/draft?key=course-200001').send({ step: 1, data: { blob: 'y' } });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ code: 'not_found', message: 'Course Not Found' });
    expect((await s.agent.get('/api/applications/draft?key=course-200001')).body).toEqual({ draft: null });
    expect((await s.agent.delete('/api/applications/draft?key=course-200001')).status).toBe(204);
    expect((await s.agent.put('/api/applications/draft?key=general').send({ step: 1, data: {} })).status).toBe(200);
  });

  it(`at most ${MAX_DRAFTS_PER_USER} drafts per account: a new key beyond is 409, saving an existing one still works`, async () => {
    const extra = Array.from({ length: MAX_DRAFTS_PER_USER }, (_, i) => ({ title: `Draft Limit Course ${i}`, description: 'x', tuitionFee: 'R 100', department: 'Business' }));
    const rows = await t.database.db.insert(courses).values(extra).returning({ id: courses.id });
    const s = await signUpStudent(t);
    const revisions: number[] = [];
    for (let i = 0; i < MAX_DRAFTS_PER_USER; i++) {
      const res = await s.agent.put(`/api/applications/draft?key=course-${rows[i].id}`).send({ step: 1, data: { n: i } });
      expect(res.status).toBe(200);
      revisions.push(res.body.draft.revision);
    }
    const refused = await s.agent.put('/api/applications/draft?key=general').send({ step: 1, data: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({ code: 'draft_limit', message: `You have ${MAX_DRAFTS_PER_USER} applications in progress. Submit or start over on one of them first.` });
    expect((await s.agent.put(`/api/applications/draft?key=course-${rows[0].id}`).send({ step: 2, data: { n: 0 }, revision: revisions[0] })).status).toBe(200);
    expect((await s.agent.delete(`/api/applications/draft?key=course-${rows[1].id}`)).status).toBe(204);
    expect((await s.agent.put('/api/applications/draft?key=general').send({ step: 1, data: {} })).status).toBe(200);
  });
});
