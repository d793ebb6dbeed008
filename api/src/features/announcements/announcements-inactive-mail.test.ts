import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import { startTestApp, signInAdmin, signUpStudent, DB_KIND, type TestApp } from '../../test/harness.ts';
import { announcements, notifications } from '../../db/schema/messaging.ts';
import { users } from '../../db/schema/users.ts';
import { deliveredMails } from '../../test/mail.ts';
import { INACTIVE_EMAIL_MESSAGE, INACTIVE_NOTIFICATION_MESSAGE } from '#contracts/announcements.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInAdmin>>;
beforeAll(async () => {
  t = await startTestApp();
  admin = await signInAdmin(t);
  const students = [await signUpStudent(t), await signUpStudent(t), await signUpStudent(t)];
  // Two of the three verified: only they are mailable (the count must say 2, not 3).
  await t.database.db.update(users).set({ emailVerifiedAt: new Date() }).where(inArray(users.id, students.slice(0, 2).map((s) => s.user.id)));
});
afterAll(async () => { await t.close(); });

const body = (o: Record<string, unknown> = {}) => ({ title: 'Draft notice', content: 'Not ready for students to read yet.', imageUrl: '', ...o });

describe(`an inactive announcement is never e-mailed (${DB_KIND})`, () => {
  it('POST /api/announcements › active false with sendEmail is a 400 on sendEmail; nothing is saved and nothing is queued', async () => {
    const res = await admin.agent.post('/api/announcements').send(body({ title: 'Draft mass mail', active: false, sendEmail: true }));
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual({ sendEmail: INACTIVE_EMAIL_MESSAGE });
    expect(await t.database.db.select().from(announcements).where(eq(announcements.title, 'Draft mass mail'))).toHaveLength(0);
    expect(await deliveredMails(t, 'Announcement: Draft mass mail')).toHaveLength(0);
    // The draft alone (no e-mail) still saves.
    expect((await admin.agent.post('/api/announcements').send(body({ title: 'Draft mass mail', active: false }))).status).toBe(201);
  });

  it('POST and PUT › active false with sendNotification is a 400 on sendNotification; nothing saved, no student notified (senior review)', async () => {
    const before = (await t.database.db.select().from(notifications)).length;
    const res = await admin.agent.post('/api/announcements').send(body({ title: 'Secret draft', active: false, sendNotification: true }));
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual({ sendNotification: INACTIVE_NOTIFICATION_MESSAGE });
    expect(await t.database.db.select().from(announcements).where(eq(announcements.title, 'Secret draft'))).toHaveLength(0);
    const draft = await admin.agent.post('/api/announcements').send(body({ title: 'Secret draft two', active: false }));
    expect(draft.status).toBe(201);
    const put = await admin.agent.put(`/api/announcements/${draft.body.announcement.id}`).send(body({ title: 'Secret draft two', active: false, sendNotification: true }));
    expect(put.status).toBe(400);
    expect(put.body.error.fields).toEqual({ sendNotification: INACTIVE_NOTIFICATION_MESSAGE });
    expect((await t.database.db.select().from(notifications)).length).toBe(before);
  });

  it('PUT /api/announcements/:id and POST /:id/notify › an inactive announcement is refused with the same message; an active one is sent', async () => {
    const created = (await admin.agent.post('/api/announcements').send(body({ title: 'Hidden notice', active: false }))).body.announcement;
    const put = await admin.agent.put(`/api/announcements/${created.id}`).send(body({ title: 'Hidden notice', active: false, sendEmail: true }));
    expect(put.status).toBe(400);
    expect(put.body.error.fields).toEqual({ sendEmail: INACTIVE_EMAIL_MESSAGE });
    const notify = await admin.agent.post(`/api/announcements/${created.id}/notify`).send({});
    expect(notify.status).toBe(400);
    expect(notify.body.error.fields).toEqual({ sendEmail: INACTIVE_EMAIL_MESSAGE });
    expect(await deliveredMails(t, 'Announcement: Hidden notice')).toHaveLength(0);

    await admin.agent.put(`/api/announcements/${created.id}`).send(body({ title: 'Hidden notice', active: true }));
    expect((await admin.agent.post(`/api/announcements/${created.id}/notify`).send({})).body).toEqual({ sent: 2 });
  });

  it('PUT /api/announcements/:id without `active` keeps a draft a draft: e-mail or notification is a 400, nothing published or sent (security audit)', async () => {
    const before = (await t.database.db.select().from(notifications)).length;
    const draft = (await admin.agent.post('/api/announcements').send(body({ title: 'Quiet draft', active: false }))).body.announcement;
    for (const send of [{ sendNotification: true }, { sendEmail: true }]) {
      const put = await admin.agent.put(`/api/announcements/${draft.id}`).send({ title: 'Quiet draft', content: 'Not ready for students to read yet.', ...send });
      expect(put.status).toBe(400);
      expect(put.body.error.fields).toEqual(send.sendEmail ? { sendEmail: INACTIVE_EMAIL_MESSAGE } : { sendNotification: INACTIVE_NOTIFICATION_MESSAGE });
    }
    // An edit that leaves `active` out keeps the flag as it was, for a draft and for a published announcement.
    const edit = await admin.agent.put(`/api/announcements/${draft.id}`).send({ title: 'Quiet draft edited', content: 'Still not ready for students.' });
    expect(edit.status).toBe(200);
    expect(edit.body.announcement).toMatchObject({ title: 'Quiet draft edited', active: false });
    expect((await t.request().get('/api/announcements')).body.announcements.map((a: { title: string }) => a.title)).not.toContain('Quiet draft edited');
    const live = (await admin.agent.post('/api/announcements').send(body({ title: 'Live notice', active: true }))).body.announcement;
    expect((await admin.agent.put(`/api/announcements/${live.id}`).send({ title: 'Live notice', content: 'Edited without the flag.' })).body.announcement.active).toBe(true);
    expect((await t.database.db.select().from(notifications)).length).toBe(before);
    expect(await deliveredMails(t, 'Announcement: Quiet draft')).toHaveLength(0);
  });

  it.skipIf(DB_KIND !== 'postgres')('POST /:id/notify › waits for a deactivation being saved at that moment, then refuses it (the announcement is read locked)', async () => {
    const live = (await admin.agent.post('/api/announcements').send(body({ title: 'Racing notice', active: true }))).body.announcement;
    const other = new pg.Client({ connectionString: t.databaseUrl });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('UPDATE announcements SET active = false WHERE id = $1', [live.id]);
      const notify = admin.agent.post(`/api/announcements/${live.id}/notify`).send({}).then((r) => r);
      // The notify is waiting for the row lock once PostgreSQL lists its backend as blocked by this one.
      await expect.poll(async () => (await other.query('SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted')).rows[0].n, { timeout: 10_000 }).toBeGreaterThan(0);
      await other.query('COMMIT');
      const res = await notify;
      expect(res.status).toBe(400);
      expect(res.body.error.fields).toEqual({ sendEmail: INACTIVE_EMAIL_MESSAGE });
      expect(await deliveredMails(t, 'Announcement: Racing notice')).toHaveLength(0);
    } finally {
      await other.end();
    }
  });

  it('GET /api/admin/announcements/recipients › how many students an announcement e-mail would reach (admins only)', async () => {
    const res = await admin.agent.get('/api/admin/announcements/recipients');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ students: 2 });
    expect((await t.request().get('/api/admin/announcements/recipients')).status).toBe(401);
  });
});
