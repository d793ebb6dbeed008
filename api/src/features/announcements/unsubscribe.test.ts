import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { startTestApp, signInAdmin, signUpStudent, DB_KIND, type TestApp } from '../../test/harness.ts';
import { users } from '../../db/schema/users.ts';
import { deliveredMails, mailsTo, type DeliveredMail } from '../../test/mail.ts';
import { unsubscribeToken } from './unsubscribe.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInAdmin>>;
let students: Awaited<ReturnType<typeof signUpStudent>>[];
beforeAll(async () => {
  t = await startTestApp({ PUBLIC_URL: 'https://apply.college.example' });
  admin = await signInAdmin(t);
  students = [await signUpStudent(t), await signUpStudent(t), await signUpStudent(t)];
  await t.database.db.update(users).set({ emailVerifiedAt: new Date() }).where(inArray(users.id, students.map((s) => s.user.id)));
});
afterAll(async () => { await t.close(); });

/** The raw header lines of a delivered mail, by lower-case name. */
const header = (m: DeliveredMail, name: string) => m.parsed.headerLines.find((h) => h.key === name)?.line.replace(/\r?\n[ \t]+/g, ' ');
let n = 0;
async function announce(): Promise<{ emailed: number; subject: string }> {
  const title = `Open day ${++n}`;
  const res = await admin.agent.post('/api/announcements').send({ title, content: 'Visit any campus on Saturday from 9:00.', imageUrl: '', sendEmail: true });
  expect(res.status).toBe(201);
  return { emailed: res.body.emailed, subject: `Announcement: ${title}` };
}
const linkIn = (text: string) => /(https:\/\/apply\.college\.example\/api\/mail\/unsubscribe\?token=[\w.-]+)/.exec(text)?.[1];

describe(`announcement unsubscribe (${DB_KIND})`, () => {
  it('announcement mail has the one-click list headers and an opt-out footer; reset and verification mail have none', async () => {
    const { subject } = await announce();
    const [mail] = await mailsTo(t, students[0]!.email, subject);
    expect(header(mail!, 'list-unsubscribe')).toMatch(/^List-Unsubscribe: <https:\/\/apply\.college\.example\/api\/mail\/unsubscribe\?token=\d+\.[\w-]{43}>$/);
    expect(header(mail!, 'list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(header(mail!, 'list-id')).toMatch(/<announcements\.apply\.college\.example>/);
    expect(header(mail!, 'precedence')).toBe('Precedence: bulk');
    expect(linkIn(mail!.text)).toBe(/<(.+)>/.exec(header(mail!, 'list-unsubscribe')!)![1]);
    expect(mail!.text).toContain('Vhembe Skills College, Main Road, Tshikombani Village');
    // Each student gets a link of their own.
    const [other] = await mailsTo(t, students[1]!.email, subject);
    expect(linkIn(other!.text)).not.toBe(linkIn(mail!.text));

    await t.request().post('/api/auth/reset-password').send({ email: students[0]!.email });
    const transactional = [...await mailsTo(t, students[0]!.email, 'Reset your password'), ...await mailsTo(t, students[0]!.email, 'Please confirm your e-mail address')];
    expect(transactional.length).toBeGreaterThanOrEqual(2);
    for (const m of transactional) {
      for (const h of ['list-unsubscribe', 'list-unsubscribe-post', 'list-id', 'precedence']) expect(header(m, h)).toBeUndefined();
    }
  });

  it('GET shows the confirmation page and changes nothing; a cookieless cross-origin one-click POST opts out', async () => {
    const s = students[1]!;
    const url = `/api/mail/unsubscribe?token=${unsubscribeToken(t.config.sessionSecret, s.user.id)}`;
    const page = await t.request().get(url);
    expect(page.status).toBe(200);
    expect(page.text).toContain('You will no longer receive announcement e-mails from Vhembe Skills College. You will still receive e-mails about your own applications.');
    expect(page.text).toContain('<button type="submit">');
    const [before] = await t.database.db.select().from(users).where(eq(users.id, s.user.id));
    expect(before!.announcementMailOptOutAt).toBeNull();

    const res = await t.request().post(url).set('Origin', 'https://mail.google.example').set('Sec-Fetch-Site', 'cross-site')
      .type('form').send('List-Unsubscribe=One-Click');
    expect(res.status).toBe(200);
    const { emailed, subject } = await announce();
    expect(emailed).toBe(2);
    expect(await mailsTo(t, s.email, subject)).toEqual([]);
    expect(await mailsTo(t, students[0]!.email, subject)).toHaveLength(1);

    // Mail about their own account still comes.
    await t.request().post('/api/auth/reset-password').send({ email: s.email });
    expect(await mailsTo(t, s.email, 'Reset your password')).toHaveLength(1);
    // And the export shows the opt-out.
    const exp = await s.agent.get('/api/profile/export');
    expect(exp.body.user).toMatchObject({ announcementEmails: false });
    expect(exp.body.mail).toMatchObject({ announcementEmails: false, announcementMailOptOutAt: expect.any(String), emailBouncedAt: null });
  });

  it('a cookie-carrying cross-origin POST is accepted too (the token authenticates); a forged token is refused', async () => {
    const s = students[2]!;
    const token = unsubscribeToken(t.config.sessionSecret, s.user.id);
    const forged = `${s.user.id}.${'A'.repeat(43)}`;
    const bad = await s.agent.post(`/api/mail/unsubscribe?token=${forged}`).set('Origin', 'https://evil.example');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('This unsubscribe link is not valid.');
    const ok = await s.agent.post(`/api/mail/unsubscribe?token=${token}`).set('Origin', 'https://evil.example');
    expect(ok.status).toBe(200);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, s.user.id));
    expect(row!.announcementMailOptOutAt).not.toBeNull();
  });

  it('/profile announcementEmails: false stops announcement mail, true brings it back', async () => {
    const s = students[0]!;
    const me = await s.agent.get('/api/profile');
    expect(me.body.user.announcementEmails).toBe(true);
    const { firstName, lastName, phone } = me.body.user;
    const off = await s.agent.put('/api/profile').send({ firstName, lastName, phone, announcementEmails: false });
    expect(off.status).toBe(200);
    expect(off.body.user.announcementEmails).toBe(false);
    expect(await mailsTo(t, s.email, (await announce()).subject)).toEqual([]);
    const keep = await s.agent.put('/api/profile').send({ firstName, lastName, phone });
    expect(keep.body.user.announcementEmails).toBe(false);
    const on = await s.agent.put('/api/profile').send({ firstName, lastName, phone, announcementEmails: true });
    expect(on.body.user.announcementEmails).toBe(true);
    expect(await mailsTo(t, s.email, (await announce()).subject)).toHaveLength(1);
    const bad = await s.agent.put('/api/profile').send({ firstName, lastName, phone, announcementEmails: 'no' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toContain('announcementEmails');
  });
});
