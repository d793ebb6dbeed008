import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signUpStudent, DB_KIND, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const data = {
  courseId: '2', firstName: 'Thandi', academicHistory: { highSchool: { name: 'Mbilwi' } },
  payment: { paymentMethod: 'card', cardNumber: '4242424242424242', cardCvc: '123', cardName: 'T Mokoena', cardExpiry: '12/28' },
};

describe(`drafts (${DB_KIND})`, () => {
  it('PUT then GET /api/applications/draft › resumes at the saved step with the saved data, never the card number or CVC', async () => {
    const s = await signUpStudent(t);
    expect((await s.agent.get('/api/applications/draft?key=course-2')).body).toEqual({ draft: null });
    const put = await s.agent.put('/api/applications/draft?key=course-2').send({ step: 3, data });
    expect(put.status).toBe(200);
    const got = await s.agent.get('/api/colfront/applications/draft?key=course-2');
    expect(got.body.draft).toMatchObject({ key: 'course-2', step: 3, data: { firstName: 'Thandi', academicHistory: { highSchool: { name: 'Mbilwi' } }, payment: { cardName: 'T Mokoena', cardExpiry: '12/28' } } });
    expect(JSON.stringify(got.body)).not.toMatch(/4242|"123"|cardNumber|cardCvc/);
    // a second save, based on the first, replaces it (one row per user and key)
    await s.agent.put('/api/applications/draft?key=course-2').send({ step: 4, data: { firstName: 'Thandiwe' }, revision: put.body.draft.revision });
    expect((await s.agent.get('/api/applications/draft?key=course-2')).body.draft).toMatchObject({ step: 4, data: { firstName: 'Thandiwe' } });
  });

  it('drafts are private: another student with the same key sees nothing; DELETE removes only my own', async () => {
    const a = await signUpStudent(t);
    const b = await signUpStudent(t);
    await a.agent.put('/api/applications/draft?key=general').send({ step: 1, data: { firstName: 'A' } });
    expect((await b.agent.get('/api/applications/draft?key=general')).body.draft).toBeNull();
    expect((await b.agent.delete('/api/applications/draft?key=general')).status).toBe(204);
    expect((await a.agent.get('/api/applications/draft?key=general')).body.draft).toMatchObject({ step: 1 });
    expect((await a.agent.delete('/api/applications/draft?key=general')).status).toBe(204);
    expect((await a.agent.get('/api/applications/draft?key=general')).body.draft).toBeNull();
  });

  it('bad input › anonymous 401; bad key or step 400; oversized data 400 or 413', async () => {
    expect((await t.request().get('/api/applications/draft?key=general')).status).toBe(401);
    const s = await signUpStudent(t);
    expect((await s.agent.get('/api/applications/draft?key=../../x')).status).toBe(400);
    expect((await s.agent.put('/api/applications/draft?key=general').send({ step: 9, data: {} })).status).toBe(400);
    const huge = await s.agent.put('/api/applications/draft?key=general').send({ step: 0, data: { blob: 'x'.repeat(100_000) } });
    expect([400, 413]).toContain(huge.status);
  });
});
