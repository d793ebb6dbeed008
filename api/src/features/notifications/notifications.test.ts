import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signUpStudent, signInAdmin, insertUpload, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

async function apply(s: Awaited<ReturnType<typeof signUpStudent>>, courseId: number) {
  const idDocument = await insertUpload(t, s.user.id);
  const transcripts = await insertUpload(t, s.user.id);
  return (await s.agent.post('/api/applications').send(validApplication(courseId, { idDocument, transcripts }))).body.application;
}

describe(`notifications (${DB_KIND})`, () => {
  it('GET /api/notifications and /api/colfront/notifications › one on submit and one per status change, newest first', async () => {
    const s = await signUpStudent(t);
    const app = await apply(s, 1);
    const admin = await signInAdmin(t);
    await admin.agent.put(`/api/admin/applications/${app.id}/status`).send({ status: 'under_review' });
    const res = await s.agent.get('/api/notifications');
    expect(res.status).toBe(200);
    expect(res.body.notifications.map((n: any) => n.message)).toEqual([
      `Your application APP-${app.id} is now: Under Review.`,
      expect.stringContaining(`(APP-${app.id}) has been received`),
    ]);
    expect(res.body.notifications.every((n: any) => n.read === false && n.applicationId === app.id)).toBe(true);
    expect((await s.agent.get('/api/colfront/notifications')).body).toEqual(res.body);
    expect((await t.request().get('/api/colfront/notifications')).status).toBe(401);
  });

  it('PUT /api/notifications/:id/read and /read-all › mark mine; another student\'s id is 404 and stays unread', async () => {
    const a = await signUpStudent(t);
    const b = await signUpStudent(t);
    await apply(a, 2); await apply(a, 3); await apply(b, 2);
    const [n1] = (await a.agent.get('/api/notifications')).body.notifications;
    const res = await a.agent.put(`/api/notifications/${n1.id}/read`);
    expect(res.status).toBe(200);
    expect(res.body.notification).toMatchObject({ id: n1.id, read: true });
    const bId = (await b.agent.get('/api/notifications')).body.notifications[0].id;
    expect((await a.agent.put(`/api/notifications/${bId}/read`)).status).toBe(404);
    expect((await b.agent.get('/api/notifications')).body.notifications[0].read).toBe(false);
    expect((await a.agent.put('/api/notifications/read-all')).body).toEqual({ updated: 1 });
    expect((await a.agent.get('/api/notifications')).body.notifications.every((n: any) => n.read)).toBe(true);
    expect((await b.agent.get('/api/notifications')).body.notifications[0].read).toBe(false);
    expect((await a.agent.put('/api/notifications/abc/read')).status).toBe(400);
  });
});
