/**
 * IDOR (ASVS 8.2.2) and mass assignment (ASVS 15.3.3): student B can never read or change A's
 * applications, uploads, notifications or payments; role/status/payment/owner fields in bodies are ignored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestApp, DB_KIND, validRegistration, type TestApp } from '../test/harness.ts';
import { applications, payments, uploads } from '../db/schema/applications.ts';
import { notifications, announcements } from '../db/schema/messaging.ts';
import { users } from '../db/schema/users.ts';
import { listRoutes } from './routes.ts';
import { classify } from './policy.ts';
import { fillPath, makeWorld, submitAs, type World } from './actors.ts';

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await startTestApp();
  w = await makeWorld(t);
});
afterAll(async () => { await t?.close(); });

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

describe(`security: IDOR (${DB_KIND})`, () => {
  it('V8.2.2 IDOR › student B cannot read A\'s application (404 on both route twins) and does not see it in lists', async () => {
    const id = w.ids.applications;
    for (const p of [`/api/applications/${id}`, `/api/colfront/applications/${id}`]) {
      const res = await w.b.agent.get(p);
      expect(res.status, p).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain(w.a.email);
    }
    expect((await w.a.agent.get(`/api/applications/${id}`)).status).toBe(200);
    const list = await w.b.agent.get('/api/applications');
    expect(list.status).toBe(200);
    expect(list.body.applications.map((a: any) => a.id)).not.toContain(Number(id));
  });

  it('V8.2.2 IDOR › student B cannot change A\'s application documents or status', async () => {
    const before = (await t.database.db.select().from(applications).where(eq(applications.id, Number(w.ids.applications))))[0];
    const mine = (await w.b.agent.post('/api/uploads').attach('file', PDF, 'b.pdf')).body.upload?.id;
    const docs = await w.b.agent.put(`/api/applications/${w.ids.applications}/documents`).send({ documents: { idDocument: mine, transcripts: mine } });
    expect([404, 400]).toContain(docs.status);
    expect((await w.b.agent.put(`/api/admin/applications/${w.ids.applications}/status`).send({ status: 'accepted' })).status).toBe(403);
    const after = (await t.database.db.select().from(applications).where(eq(applications.id, Number(w.ids.applications))))[0];
    expect(after.status).toBe(before.status);
    expect(after.documents).toEqual(before.documents);
  });

  it('V8.2.2 IDOR › student B cannot download, delete or attach A\'s upload', async () => {
    const up = await w.a.agent.post('/api/uploads').attach('file', PDF, 'a-id.pdf');
    expect(up.status).toBe(201);
    const id = up.body.upload.id;
    expect((await w.b.agent.get(`/api/uploads/${id}`)).status).toBe(404);
    expect((await w.b.agent.delete(`/api/uploads/${id}`)).status).toBe(404);
    expect((await w.b.agent.get('/api/uploads')).body.uploads.map((u: any) => u.id)).not.toContain(id);
    const applied = await submitAs(t, w.b, 2, { documents: { idDocument: id, transcripts: id } });
    expect(applied.status).toBe(400);
    expect((await w.a.agent.get(`/api/uploads/${id}`)).status).toBe(200);
    expect((await t.database.db.select().from(uploads).where(eq(uploads.id, id))).length).toBe(1);
  });

  it('V8.2.2 IDOR › student B cannot mark A\'s notification read or see it', async () => {
    const id = Number(w.ids.notifications);
    for (const p of [`/api/notifications/${id}/read`, `/api/colfront/notifications/${id}/read`]) {
      expect((await w.b.agent.put(p)).status, p).toBe(404);
    }
    const row = (await t.database.db.select().from(notifications).where(eq(notifications.id, id)))[0];
    expect(row.read).toBe(false);
    const list = await w.b.agent.get('/api/notifications');
    expect(JSON.stringify(list.body)).not.toContain(`APP-${w.ids.applications}`);
  });

  it('V8.2.2 IDOR › no route a student may GET leaks A\'s payment reference, e-mail or application to B', async () => {
    const [pay] = await t.database.db.select().from(payments).where(eq(payments.userId, w.a.id));
    expect(pay?.reference).toBeTruthy();
    const secrets = [pay.reference, w.a.email, `APP-${w.ids.applications}`];
    const gets = listRoutes(t.app).filter((r) => r.method === 'GET' && classify(r)?.access === 'user');
    expect(gets.length).toBeGreaterThan(3);
    for (const r of gets) {
      const res = await w.b.agent.get(fillPath(r.path, w.ids));
      const text = res.text ?? JSON.stringify(res.body);
      for (const s of secrets) expect(text.includes(s), `${r.method} ${r.path} as B leaks ${s}`).toBe(false);
    }
  });
});

describe(`security: mass assignment (${DB_KIND})`, () => {
  const HOSTILE = { role: 'admin', status: 'accepted', paymentStatus: 'refunded', paymentAmount: '0.01', createdBy: 1, isActive: true };

  it('V15.3.3 mass assignment › registration ignores role, status and userId: always a student', async () => {
    for (const p of ['/api/auth/register', '/api/colfront/auth/register']) {
      const res = await t.request().post(p).send({ ...validRegistration(), ...HOSTILE, userId: 1, id: 1 });
      expect(res.status, p).toBe(201);
      expect(res.body.user.role).toBe('student');
      expect(res.body.user.id).not.toBe(1);
      const [row] = await t.database.db.select().from(users).where(eq(users.id, res.body.user.id));
      expect(row.role).toBe('student');
    }
  });

  it('V15.3.3 mass assignment › an application body cannot set status, paymentStatus, paymentAmount, userId or createdBy', async () => {
    const res = await submitAs(t, w.a, 3, { ...HOSTILE, userId: w.b.id });
    expect(res.status).toBe(201);
    const [row] = await t.database.db.select().from(applications).where(eq(applications.id, res.body.application.id));
    expect(row).toMatchObject({ userId: w.a.id, status: 'pending', paymentAmount: '50.00' });
    expect(row.paymentStatus).not.toBe('refunded');
    const [pay] = await t.database.db.select().from(payments).where(eq(payments.applicationId, row.id));
    expect(pay).toMatchObject({ userId: w.a.id, amount: '50.00' });
  });

  it('V15.3.3 mass assignment › a profile update cannot change role, e-mail owner or id', async () => {
    const res = await w.b.agent.put('/api/profile').send({ firstName: 'Bongani', lastName: 'Dube', phone: '0821234567', ...HOSTILE, id: w.a.id, userId: w.a.id });
    expect(res.status).toBeLessThan(500);
    const [b] = await t.database.db.select().from(users).where(eq(users.id, w.b.id));
    const [a] = await t.database.db.select().from(users).where(eq(users.id, w.a.id));
    expect(b.role).toBe('student');
    expect(a.firstName).not.toBe('Bongani');
  });

  it('V15.3.3 mass assignment › an admin status change cannot rewrite payment fields or the owner', async () => {
    const id = Number(w.ids.applications);
    const res = await w.admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'under_review', notes: 'checked', paymentAmount: '0.01', paymentStatus: 'refunded', userId: w.b.id });
    expect(res.status).toBe(200);
    const [row] = await t.database.db.select().from(applications).where(eq(applications.id, id));
    expect(row).toMatchObject({ status: 'under_review', paymentAmount: '50.00', userId: w.a.id });
    expect(row.paymentStatus).not.toBe('refunded');
  });

  it('V15.3.3 mass assignment › an announcement records its real author, not the body\'s createdBy', async () => {
    const res = await w.admin.agent.post('/api/announcements').send({ title: 'Open day', content: 'Campus open day on Saturday.', active: true, createdBy: w.a.id, id: 1 });
    expect(res.status).toBe(201);
    const id = res.body.announcement?.id ?? res.body.id;
    const [row] = await t.database.db.select().from(announcements).where(eq(announcements.id, id));
    expect(row.createdBy).toBe(w.admin.id);
  });
});
