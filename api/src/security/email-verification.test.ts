/**
 * Issue #12 finding 1 (high): registering with someone else's e-mail address must not hand over what they
 * filed under it (ASVS 5.0 V8.2.2). New accounts get a single-use, hashed, 24 h verification link (resend
 * rate-limited); until verified, the profile export and erasure ignore contact messages and assessment
 * bookings matched by e-mail; an unverified student can still apply and admins see the flag.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { startTestApp, DB_KIND, signInAdmin, signUpStudent, type TestApp } from '../test/harness.ts';
import { mailsTo } from '../test/mail.ts';
import { emailVerifications, users } from '../db/schema/users.ts';
import { todayInSouthAfrica } from '#contracts/assessment.ts';
import { submitAs } from './actors.ts';

const PUBLIC_URL = 'https://apply.college.example';
let t: TestApp;
beforeAll(async () => { t = await startTestApp({ PUBLIC_URL }); });
afterAll(async () => { await t?.close(); });

const rows = async (q: ReturnType<typeof sql>) => ((await t.database.db.execute(q)) as any).rows as any[];

function weekday(): string {
  const d = new Date(`${todayInSouthAfrica()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 3);
  while ([0, 6].includes(d.getUTCDay())) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** The victim books an assessment (SA ID number, health notes) and writes to the office, without an account. */
async function victimFiles(email: string) {
  const booking = await t.request().post('/api/assessment-centre').send({
    firstName: 'Victim', lastName: 'Person', email, phone: '0821234567', dateOfBirth: '2004-05-06', idNumber: '0405065123086',
    preferredCampus: 'biaba', courseInterest: 'information-technology', assessmentType: 'combined', preferredDate: weekday(),
    preferredTime: 'morning', educationLevel: 'grade-12', specialNeeds: 'Epilepsy: needs breaks', additionalNotes: '',
  });
  expect(booking.status).toBe(201);
  const contact = await t.request().post('/api/contact').send({ firstName: 'Victim', lastName: 'Person', email, phone: '0821234567', message: 'My private question to the office.' });
  expect(contact.status).toBe(201);
}

/** The token of the newest verification link mailed to `email`. */
async function mailedToken(email: string): Promise<{ token: string; link: string }> {
  const mail = (await mailsTo(t, email, 'Please confirm your e-mail address')).at(-1);
  const link = /(\S+\/verify-email#token=([A-Za-z0-9_-]+))/.exec(mail?.text ?? '');
  if (!link) throw new Error('no verification mail');
  return { link: link[1], token: link[2] };
}

describe(`finding 1: e-mail verification (${DB_KIND})`, () => {
  it('V8.2.2 data ownership › an unverified account registered with someone else\'s e-mail cannot export or erase their assessment booking and contact message', async () => {
    const email = `victim.${crypto.randomUUID()}@example.com`;
    await victimFiles(email);
    const attacker = await signUpStudent(t, { email });
    expect(attacker.user.emailVerified).toBe(false);
    const exported = JSON.parse((await attacker.agent.get('/api/profile/export')).text);
    expect(exported.assessmentBookings).toEqual([]);
    expect(exported.contactMessages).toEqual([]);
    expect(JSON.stringify(exported)).not.toMatch(/0405065123086|Epilepsy|private question/);
    const del = await attacker.agent.post('/api/profile/delete').send({ password: attacker.password });
    expect(del.status).toBe(200);
    expect((await rows(sql`SELECT id FROM assessment_bookings WHERE email = ${email}`)).length).toBe(1);
    expect((await rows(sql`SELECT id FROM contact_messages WHERE email = ${email}`)).length).toBe(1);
  });

  it('V8.2.2 data ownership › after the owner opens the link, the export includes what they filed under their address', async () => {
    const email = `owner.${crypto.randomUUID()}@example.com`;
    await victimFiles(email);
    const owner = await signUpStudent(t, { email });
    const { token } = await mailedToken(email);
    const ok = await t.request().post('/api/auth/verify-email').send({ token });
    expect(ok.status).toBe(200);
    expect((await owner.agent.get('/api/auth/me')).body.user.emailVerified).toBe(true);
    const exported = JSON.parse((await owner.agent.get('/api/profile/export')).text);
    expect(exported.assessmentBookings).toHaveLength(1);
    expect(exported.contactMessages).toHaveLength(1);
  });

  it('V6.4.2 verification link › mailed with PUBLIC_URL (never the Host header), token in the fragment, stored only hashed, single use, 24 h', async () => {
    const agent = t.request();
    const body = { firstName: 'Link', lastName: 'Check', email: `link.${crypto.randomUUID()}@example.com`, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true };
    const reg = await agent.post('/api/auth/register').set('Host', 'evil.example').set('X-Forwarded-Host', 'evil.example').send(body);
    expect(reg.status).toBe(201);
    const { token, link } = await mailedToken(body.email);
    expect(link.startsWith(`${PUBLIC_URL}/verify-email#token=`)).toBe(true);
    const stored = await t.database.db.select().from(emailVerifications).where(eq(emailVerifications.userId, reg.body.user.id));
    expect(stored).toHaveLength(1);
    expect(stored[0].tokenHash).not.toBe(token);
    expect(stored[0].tokenHash).toBe(crypto.createHash('sha256').update(token).digest('hex'));
    const ttl = stored[0].expiresAt.getTime() - stored[0].createdAt.getTime();
    expect(Math.abs(ttl - 24 * 3600_000)).toBeLessThan(60_000);
    expect((await t.request().post('/api/auth/verify-email').send({ token })).status).toBe(200);
    const again = await t.request().post('/api/auth/verify-email').send({ token });
    expect(again.status).toBe(400);
    expect(again.body.error.fields.token).toBe('This verification link is invalid or has expired');
    expect((await t.request().post('/api/auth/verify-email').send({ token: 'x'.repeat(43) })).status).toBe(400);
    expect((await t.request().post('/api/auth/verify-email').send({})).status).toBe(400);
  });

  it('V6.4.2 verification link › an expired link, or one sent to an address the account no longer has, verifies nothing', async () => {
    const s = await signUpStudent(t);
    const { token } = await mailedToken(s.email);
    await t.database.db.update(emailVerifications).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(emailVerifications.userId, s.user.id));
    expect((await t.request().post('/api/auth/verify-email').send({ token })).status).toBe(400);
    const s2 = await signUpStudent(t);
    const { token: token2 } = await mailedToken(s2.email);
    await t.database.db.update(users).set({ email: `changed.${crypto.randomUUID()}@example.com` }).where(eq(users.id, s2.user.id));
    expect((await t.request().post('/api/auth/verify-email').send({ token: token2 })).status).toBe(400);
    const [row] = await t.database.db.select({ v: users.emailVerifiedAt }).from(users).where(eq(users.id, s2.user.id));
    expect(row.v).toBeNull();
  });

  it('V2.4.1 resend › needs a login, keeps at most 3 live links, and is rate-limited to 5 an hour', async () => {
    expect((await t.request().post('/api/auth/verify-email/resend')).status).toBe(401);
    const s = await signUpStudent(t);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await s.agent.post('/api/auth/verify-email/resend'));
    expect(answers.slice(0, 2).map((r) => r.body.sent)).toEqual([true, true]);
    expect(answers.slice(2, 5).map((r) => [r.status, r.body.sent])).toEqual([[200, false], [200, false], [200, false]]);
    expect(answers[5].status).toBe(429);
    expect(await mailsTo(t, s.email, 'Please confirm your e-mail address')).toHaveLength(3);
  });

  it('V8.2.2 data ownership › an unverified student can still apply, and admins see that the e-mail is not verified', async () => {
    const s = await signUpStudent(t);
    const applied = await submitAs(t, { agent: s.agent, id: s.user.id, email: s.email, password: s.password, token: s.token }, 2);
    expect(applied.status).toBe(201);
    const admin = await signInAdmin(t);
    const list = await admin.agent.get('/api/admin/applications').query({ search: s.email });
    const row = list.body.applications?.find((a: any) => a.id === applied.body.application.id) ?? list.body.items?.find((a: any) => a.id === applied.body.application.id);
    expect(row.applicant.emailVerified).toBe(false);
    const detail = await admin.agent.get(`/api/admin/applications/${applied.body.application.id}`);
    expect(detail.body.applicant.emailVerified).toBe(false);
    await t.request().post('/api/auth/verify-email').send({ token: (await mailedToken(s.email)).token });
    expect((await admin.agent.get(`/api/admin/applications/${applied.body.application.id}`)).body.applicant.emailVerified).toBe(true);
  });
});
