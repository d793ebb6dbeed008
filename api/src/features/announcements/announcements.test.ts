import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { startTestApp, signInAdmin, signUpStudent, DB_KIND, type TestApp } from '../../test/harness.ts';
import { announcements, notifications } from '../../db/schema/messaging.ts';
import { users } from '../../db/schema/users.ts';
import { anonymiseUserRow } from '../erasure/erasure.repo.ts';
import { deliveredMails, mailsTo } from '../../test/mail.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInAdmin>>;
let students: Awaited<ReturnType<typeof signUpStudent>>[];
beforeAll(async () => {
  t = await startTestApp();
  admin = await signInAdmin(t);
  students = [await signUpStudent(t), await signUpStudent(t)];
  await markVerified(students.map((s) => s.user.id));
});

/** Marks these users' addresses verified (as opening the mailed link does): announcement mail goes only to them. */
async function markVerified(ids: number[]): Promise<void> {
  await t.database.db.update(users).set({ emailVerifiedAt: new Date() }).where(inArray(users.id, ids));
}
afterAll(async () => { await t.close(); });

const body = (o: Record<string, unknown> = {}) => ({ title: 'Open day', content: 'Visit any campus on Saturday from 9:00.', imageUrl: '', ...o });

describe(`announcements admin (${DB_KIND})`, () => {
  it('POST /api/announcements › §5 messages for short title/content and a bad URL', async () => {
    const res = await admin.agent.post('/api/announcements').send({ title: 'Hi', content: 'short', imageUrl: 'not a url' });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual({
      title: 'Title must be at least 3 characters.', content: 'Content must be at least 10 characters.', imageUrl: 'Please enter a valid URL',
    });
  });

  it('POST /api/announcements › blank imageUrl stored as null, active by default, createdBy from the session not the body', async () => {
    const res = await admin.agent.post('/api/announcements').send(body({ createdBy: 99999, id: 5000 }));
    expect(res.status).toBe(201);
    expect(res.body.announcement).toMatchObject({ title: 'Open day', imageUrl: null, active: true, createdBy: admin.user.id });
    expect(res.body.announcement.id).not.toBe(5000);
    expect(res.body).toMatchObject({ emailed: 0, notified: 0 });
    expect(t.contentChanges.at(-1)).toBe(`announcement ${res.body.announcement.id} created`);
    const pub = await t.request().get('/api/announcements');
    expect(pub.body.announcements[0].id).toBe(res.body.announcement.id);
  });

  it('POST /api/announcements › sendEmail queues one mail per student; sendNotification adds a portal notification each', async () => {
    const res = await admin.agent.post('/api/announcements').send(body({ title: 'Exam timetable', sendEmail: true, sendNotification: true }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ emailed: 2, notified: 2 });
    for (const s of students) {
      const mails = await mailsTo(t, s.email);
      expect(mails.map((m) => m.subject)).toContain('Announcement: Exam timetable');
      const notes = await t.database.db.select().from(notifications).where(eq(notifications.userId, s.user.id));
      expect(notes.map((n) => n.message)).toContain('New announcement: Exam timetable');
    }
    const toAdmin = await deliveredMails(t, /^Announcement:/);
    expect(toAdmin.every((m) => students.some((s) => s.email === m.to))).toBe(true);
  });

  it('PUT, inactive, GET /api/admin/announcements, notify and DELETE › the whole lifecycle; unknown ids 404', async () => {
    const created = (await admin.agent.post('/api/announcements').send(body({ title: 'Fees update' }))).body.announcement;
    const upd = await admin.agent.put(`/api/announcements/${created.id}`).send(body({ title: 'Fees update 2027', imageUrl: 'https://example.com/a.jpg', active: false }));
    expect(upd.status).toBe(200);
    expect(upd.body.announcement).toMatchObject({ title: 'Fees update 2027', imageUrl: 'https://example.com/a.jpg', active: false });
    expect((await t.request().get('/api/announcements')).body.announcements.map((a: any) => a.id)).not.toContain(created.id);
    const adminList = await admin.agent.get('/api/admin/announcements');
    expect(adminList.body.announcements.find((a: any) => a.id === created.id).active).toBe(false);

    // An inactive announcement is never e-mailed (announcements-inactive-mail.test.ts): active again, then notify.
    expect((await admin.agent.post(`/api/announcements/${created.id}/notify`).send({})).status).toBe(400);
    await admin.agent.put(`/api/announcements/${created.id}`).send(body({ title: 'Fees update 2027', imageUrl: 'https://example.com/a.jpg', active: true }));
    const notify = await admin.agent.post(`/api/announcements/${created.id}/notify`).send({});
    expect(notify.body).toEqual({ sent: 2 });
    const mails = await deliveredMails(t, 'Announcement: Fees update 2027');
    expect(mails).toHaveLength(2);

    expect((await admin.agent.delete(`/api/announcements/${created.id}`)).status).toBe(204);
    expect(t.contentChanges.at(-1)).toBe(`announcement ${created.id} deleted`);
    expect(await t.database.db.select().from(announcements).where(eq(announcements.id, created.id))).toHaveLength(0);
    expect((await admin.agent.delete(`/api/announcements/${created.id}`)).status).toBe(404);
    expect((await admin.agent.put(`/api/announcements/${created.id}`).send(body())).status).toBe(404);
    expect((await admin.agent.post(`/api/announcements/${created.id}/notify`).send({})).status).toBe(404);
  });
});

describe(`announcement edits from a stale form (${DB_KIND})`, () => {
  const formOf = (a: any, o: Record<string, unknown> = {}) => ({ title: a.title, content: a.content, imageUrl: a.imageUrl ?? '', active: a.active, expectedUpdatedAt: a.updatedAt, ...o });

  it('PUT /api/announcements/:id › B saving the form as it was before A saved gets 409 with the current announcement; nothing is sent', async () => {
    const b = await signInAdmin(t);
    const created = (await admin.agent.post('/api/announcements').send(body({ title: 'Library hours' }))).body.announcement;
    const opened = (await b.agent.get('/api/admin/announcements')).body.announcements.find((x: any) => x.id === created.id);
    expect(opened.updatedAt).toBe(created.updatedAt);

    const savedA = await admin.agent.put(`/api/announcements/${created.id}`).send(formOf(created, { title: 'Library hours (exam weeks)' }));
    expect(savedA.status).toBe(200);
    const notesBefore = (await t.database.db.select().from(notifications)).length;

    const savedB = await b.agent.put(`/api/announcements/${created.id}`).send(formOf(opened, { content: 'Open until 22:00 every weekday.', sendNotification: true }));
    expect(savedB.status).toBe(409);
    expect(savedB.body.error).toEqual({ code: 'conflict', message: 'Someone else changed this announcement since you opened it. Reload to see their changes.' });
    expect(savedB.body.announcement).toMatchObject({ id: created.id, title: 'Library hours (exam weeks)', content: created.content, updatedAt: savedA.body.announcement.updatedAt });
    expect((await t.database.db.select().from(notifications)).length).toBe(notesBefore);
    const [row] = await t.database.db.select().from(announcements).where(eq(announcements.id, created.id));
    expect(row).toMatchObject({ title: 'Library hours (exam weeks)', content: created.content });

    const retried = await b.agent.put(`/api/announcements/${created.id}`).send(formOf(savedB.body.announcement, { content: 'Open until 22:00 every weekday.' }));
    expect(retried.status).toBe(200);
    expect(retried.body.announcement).toMatchObject({ title: 'Library hours (exam weeks)', content: 'Open until 22:00 every weekday.' });
  });

  it('PUT /api/announcements/:id › a seeded row (microsecond updated_at) saves with its own updatedAt; deleted meanwhile is 404', async () => {
    const seeded = (await admin.agent.get('/api/admin/announcements')).body.announcements.at(-1);
    const ok = await admin.agent.put(`/api/announcements/${seeded.id}`).send(formOf(seeded));
    expect(ok.status).toBe(200);
    const created = (await admin.agent.post('/api/announcements').send(body({ title: 'Short-lived' }))).body.announcement;
    // Zod's ISO date-time accepts these; PostgreSQL's ::timestamptz refused them and the edit answered 500.
    const yearZero = await admin.agent.put(`/api/announcements/${created.id}`).send(formOf(created, { expectedUpdatedAt: '0000-01-01T00:00:00Z' }));
    expect(yearZero.status).toBe(400);
    expect(yearZero.body.error.fields).toEqual({ expectedUpdatedAt: 'Expected version must be a date and time in the years 0001 to 9999' });
    const farEast = await admin.agent.put(`/api/announcements/${created.id}`).send(formOf(created, { expectedUpdatedAt: '2026-01-01T10:00:00-16:00' }));
    expect(farEast.status).toBe(409);
    await admin.agent.delete(`/api/announcements/${created.id}`).expect(204);
    const gone = await admin.agent.put(`/api/announcements/${created.id}`).send(formOf(created));
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toBe('Announcement not found');
  });
});

describe(`announcement repeats (${DB_KIND})`, () => {
  const notesAbout = async (title: string) => (await t.database.db.select().from(notifications)).filter((n) => n.message === `New announcement: ${title}`);

  it('POST /api/announcements › three identical creates at once publish one announcement and notify each student once; the others are 409', async () => {
    const title = 'Registration closes Friday';
    const answers = await Promise.all([1, 2, 3].map(() => admin.agent.post('/api/announcements').send(body({ title, sendNotification: true }))));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    for (const r of answers.filter((x) => x.status === 409)) expect(r.body.error).toEqual({ code: 'conflict', message: 'This announcement was just published.' });
    expect(await t.database.db.select().from(announcements).where(eq(announcements.title, title))).toHaveLength(1);
    expect(await notesAbout(title)).toHaveLength(students.length);
  });

  it('POST /api/announcements › the same text is accepted from another admin, with other content, and from the same admin after 60 s', async () => {
    const title = 'Campus closed Monday';
    const first = await admin.agent.post('/api/announcements').send(body({ title }));
    expect(first.status).toBe(201);
    expect((await admin.agent.post('/api/announcements').send(body({ title }))).status).toBe(409);
    expect((await admin.agent.post('/api/announcements').send(body({ title, content: 'All campuses are closed on Monday for the holiday.' }))).status).toBe(201);
    const other = await signInAdmin(t);
    expect((await other.agent.post('/api/announcements').send(body({ title }))).status).toBe(201);
    await t.database.db.update(announcements).set({ createdAt: new Date(Date.now() - 61_000) }).where(eq(announcements.id, first.body.announcement.id));
    expect((await admin.agent.post('/api/announcements').send(body({ title }))).status).toBe(201);
  });
});

describe(`public announcement list with ?limit (${DB_KIND})`, () => {
  it('GET /api/announcements?limit=3 › only the newest 3 active ones; without limit all; bad limits 400; each URL cached and tagged on its own', async () => {
    const base = Date.now() + 86_400_000; // newer than the other tests' announcements
    await t.database.db.insert(announcements).values(Array.from({ length: 60 }, (_, i) => ({
      title: `Bulk notice ${i}`, content: 'Enough content to be valid.', active: i % 10 !== 9, createdAt: new Date(base + i * 60_000),
    })));
    const all = await t.request().get('/api/announcements');
    expect(all.status).toBe(200);
    const active = all.body.announcements.filter((a: any) => a.title.startsWith('Bulk notice'));
    expect(active).toHaveLength(54);
    const three = await t.request().get('/api/announcements?limit=3');
    expect(three.status).toBe(200);
    expect(three.body.announcements).toEqual(all.body.announcements.slice(0, 3));
    expect(three.body.announcements.map((a: any) => a.title)).toEqual(['Bulk notice 58', 'Bulk notice 57', 'Bulk notice 56']);
    expect((await t.request().get('/api/announcements?limit=50')).body.announcements).toHaveLength(50);
    for (const q of ['limit=0', 'limit=51', 'limit=abc', 'limit=2.5']) {
      const res = await t.request().get(`/api/announcements?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.message).toBe('limit must be a whole number from 1 to 50');
    }
    // The public cache answers each URL with its own body and ETag; the full list's ETag does not 304 the short one.
    expect(three.headers.etag).not.toBe(all.headers.etag);
    expect((await t.request().get('/api/announcements?limit=3').set('If-None-Match', three.headers.etag)).status).toBe(304);
    const mixed = await t.request().get('/api/announcements?limit=3').set('If-None-Match', all.headers.etag);
    expect(mixed.status).toBe(200);
    expect(mixed.body.announcements).toHaveLength(3);
    expect((await t.request().get('/api/announcements')).body.announcements).toHaveLength(all.body.announcements.length);
  });
});

// Last in the file: its two extra students would count in the earlier tests' notifications.
describe(`announcement mail recipients (${DB_KIND})`, () => {
  it('sendEmail › goes only to students whose address is verified; an unverified or erased account gets no mail and is not counted', async () => {
    const unverified = await signUpStudent(t);
    const erased = await signUpStudent(t);
    await markVerified([erased.user.id]);
    await anonymiseUserRow(t.database.db, erased.user.id); // what an approved erasure request does (erasure.service)
    const res = await admin.agent.post('/api/announcements').send(body({ title: 'Registration week', sendEmail: true }));
    expect(res.status).toBe(201);
    const mails = await deliveredMails(t, 'Announcement: Registration week');
    expect(mails.map((m) => m.to).sort()).toEqual(students.map((s) => s.email.toLowerCase()).sort());
    expect(res.body.emailed).toBe(2);
    expect(mails.some((m) => /Dear Erased/.test(m.text))).toBe(false);
    expect(await mailsTo(t, unverified.email)).toEqual(expect.not.arrayContaining([expect.objectContaining({ subject: 'Announcement: Registration week' })]));
  });

  it('sendNotification › an erased account (erased_at, or an older release\'s erasure without it) gets no portal notification and is not counted', async () => {
    const erased = await signUpStudent(t);
    await anonymiseUserRow(t.database.db, erased.user.id);
    const older = await signUpStudent(t);
    // What an erasure by a release before migration 0029 left: the exact anonymised row (LEGACY_ERASED_SQL), no erased_at.
    await t.database.db.execute(sql`update users set email = 'erased-' || id || '@erased.invalid', password_hash = '!erased', first_name = 'Erased', last_name = 'applicant', erased_at = null where id = ${older.user.id}`);
    const res = await admin.agent.post('/api/announcements').send(body({ title: 'Library hours', sendNotification: true }));
    expect(res.status).toBe(201);
    const notified = (await t.database.db.select({ userId: notifications.userId }).from(notifications).where(eq(notifications.message, 'New announcement: Library hours'))).map((n) => n.userId);
    expect(notified).toEqual(expect.arrayContaining(students.map((s) => s.user.id)));
    expect(notified.filter((id) => id === erased.user.id || id === older.user.id)).toEqual([]);
    expect(res.body.notified).toBe(notified.length);
  });
});
