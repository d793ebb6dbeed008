import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signInAdmin, signUpStudent, insertUpload, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

/** A student with one application per course in `courseIds`; returns the agent and the application ids. */
async function applicant(courseIds: number[]): Promise<{ agent: Awaited<ReturnType<typeof signUpStudent>>['agent']; ids: number[] }> {
  const s = await signUpStudent(t);
  const docs = { idDocument: await insertUpload(t, s.user.id), transcripts: await insertUpload(t, s.user.id) };
  const ids: number[] = [];
  for (const courseId of courseIds) {
    const res = await s.agent.post('/api/applications').send(validApplication(courseId, docs));
    expect(res.status).toBe(201);
    ids.push(res.body.application.id);
  }
  return { agent: s.agent, ids };
}

describe(`GET /api/applications is bounded to the caller's own (${DB_KIND})`, () => {
  it('an admin gets their own applications (none), not every application in the database; ?mine=1 the same', async () => {
    await applicant([1, 2]);
    await applicant([3]);
    const admin = await signInAdmin(t);
    for (const path of ['/api/applications', '/api/colfront/applications', '/api/applications?mine=1']) {
      const res = await admin.agent.get(path);
      expect(res.status, path).toBe(200);
      expect(res.body.applications, path).toEqual([]);
    }
    // The admin portal's list is the paginated one, and it still sees them all.
    expect((await admin.agent.get('/api/admin/applications')).body.total).toBeGreaterThanOrEqual(3);
  });

  it('a student gets exactly their own, newest first, without internal notes', async () => {
    const a = await applicant([4, 5]);
    await applicant([4]);
    const list = (await a.agent.get('/api/applications')).body.applications as { id: number; notes?: unknown }[];
    expect(list.map((x) => x.id)).toEqual([...a.ids].reverse());
    for (const x of list) expect(x).not.toHaveProperty('notes');
  });
});
