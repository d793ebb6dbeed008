import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { sha256 } from '../../auth/tokens.ts';
import { startTestApp, signInAdmin, signUpStudent, uniqueEmail, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';
import { mailsTo } from '../../test/mail.ts';
import { smsOutbox } from '../../db/schema/messaging.ts';
import { applications } from '../../db/schema/applications.ts';
import { gsm7Length } from '../../sms/sms-text.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const person = (o: Record<string, unknown> = {}) => ({ firstName: 'Mpho', lastName: 'Ndlovu', email: uniqueEmail('walkin'), phone: '0721234567', campusId: 2, privacyConsent: true, ...o });

describe(`walk-in applications (${DB_KIND})`, () => {
  it('an admin creates the account, uploads scans as the applicant, submits; history says who and where; the applicant sets a password and follows it', async () => {
    const { agent, user: admin } = await signInAdmin(t);
    const created = await agent.post('/api/admin/walk-in/applicants').send(person());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ applicant: { role: 'student', firstName: 'Mpho' }, setPasswordLinkDays: 7, sms: 'queued' });
    const applicant = created.body.applicant;
    expect(JSON.stringify(created.body)).not.toMatch(/token|hash|"password"/i);

    const up = async () => (await agent.post(`/api/admin/walk-in/applicants/${applicant.id}/uploads`).attach('file', PDF, 'scan.pdf')).body.upload.id as string;
    const docs = { idDocument: await up(), transcripts: await up() };
    const body = { ...validApplication(1, docs), applicantId: applicant.id, campusId: 2 } as any;
    body.academicHistory.nscResults = [{ subject: 'Mathematics', percent: 58 }];
    const res = await agent.post('/api/admin/walk-in/applications').send(body);
    expect(res.status).toBe(201);
    expect(res.body.application).toMatchObject({ userId: applicant.id, status: 'pending', aps: 4, enteredBy: { name: `${admin.firstName} ${admin.lastName}`.trim(), campus: 'Siloam' } });

    const [sms] = await t.database.db.select().from(smsOutbox).where(eq(smsOutbox.userId, applicant.id));
    expect(sms).toMatchObject({ to: '+27721234567', kind: 'set_password' });
    expect(sms!.body).toMatch(/choose your password within 7 days: http:\/\/\S+\/r#token=[\w-]{22} Reply STOP/);
    const [mail] = await mailsTo(t, applicant.email);
    expect(mail!.subject).toBe('Set your password');
    const token = /\/reset-password#token=([\w-]+)/.exec(mail!.text ?? '')![1]!;
    await t.request().post('/api/auth/reset-password/confirm').send({ token, password: 'my-own-pass-1', confirmPassword: 'my-own-pass-1' }).expect(200);
    const me = t.request();
    await me.post('/api/auth/login').send({ email: applicant.email, password: 'my-own-pass-1' }).expect(200);
    const mine = (await me.get('/api/applications')).body.applications;
    expect(mine.map((a: any) => a.id)).toEqual([res.body.application.id]);
    const detail = (await me.get(`/api/applications/${res.body.application.id}`)).body;
    expect(detail.application.enteredBy).toEqual({ name: `${admin.firstName} ${admin.lastName}`.trim(), campus: 'Siloam' });
    expect(Object.values(detail.documents).map((d: any) => d?.name)).toEqual(['scan.pdf', 'scan.pdf']);
  });

  it('the SMS set-password link does not verify the e-mail address; the e-mailed link does (security audit F3)', async () => {
    const { agent } = await signInAdmin(t);
    const viaSms = (await agent.post('/api/admin/walk-in/applicants').send(person())).body.applicant;
    const [sms] = await t.database.db.select().from(smsOutbox).where(eq(smsOutbox.userId, viaSms.id));
    const smsToken = /#token=([\w-]+)/.exec(sms!.body)![1]!;
    await t.request().post('/api/auth/reset-password/confirm').send({ token: smsToken, password: 'my-own-pass-1', confirmPassword: 'my-own-pass-1' }).expect(200);
    const smsUser = t.request();
    await smsUser.post('/api/auth/login').send({ email: viaSms.email, password: 'my-own-pass-1' }).expect(200);
    expect((await smsUser.get('/api/auth/me')).body.user.emailVerified).toBe(false);

    const viaMail = (await agent.post('/api/admin/walk-in/applicants').send(person())).body.applicant;
    const [mail] = await mailsTo(t, viaMail.email);
    const mailToken = /\/reset-password#token=([\w-]+)/.exec(mail!.text ?? '')![1]!;
    await t.request().post('/api/auth/reset-password/confirm').send({ token: mailToken, password: 'my-own-pass-2', confirmPassword: 'my-own-pass-2' }).expect(200);
    const mailUser = t.request();
    await mailUser.post('/api/auth/login').send({ email: viaMail.email, password: 'my-own-pass-2' }).expect(200);
    expect((await mailUser.get('/api/auth/me')).body.user.emailVerified).toBe(true);
  });

  it('a link stored without its channel (made before migration 0024, or by an older node during a rolling deploy) does not verify the e-mail address', async () => {
    const { agent } = await signInAdmin(t);
    const walkIn = (await agent.post('/api/admin/walk-in/applicants').send(person())).body.applicant;
    const token = 'old-node-sms-link-token-01';
    // What a node of the release before 0024 writes: no channel column at all.
    await t.database.db.execute(sql`INSERT INTO password_resets (user_id, token_hash, expires_at) VALUES (${walkIn.id}, ${sha256(token)}, ${new Date(Date.now() + 3_600_000).toISOString()})`);
    await t.request().post('/api/auth/reset-password/confirm').send({ token, password: 'my-own-pass-3', confirmPassword: 'my-own-pass-3' }).expect(200);
    const user = t.request();
    await user.post('/api/auth/login').send({ email: walkIn.email, password: 'my-own-pass-3' }).expect(200);
    expect((await user.get('/api/auth/me')).body.user.emailVerified).toBe(false);
  });

  it('only admins: anonymous 401, a student 403; nothing created', async () => {
    const s = await signUpStudent(t);
    const before = (await t.database.db.select().from(applications)).length;
    expect((await t.request().post('/api/admin/walk-in/applicants').send(person())).status).toBe(401);
    expect((await s.agent.post('/api/admin/walk-in/applicants').send(person())).status).toBe(403);
    expect((await s.agent.post(`/api/admin/walk-in/applicants/${s.user.id}/uploads`).attach('file', PDF, 'a.pdf')).status).toBe(403);
    expect((await s.agent.post('/api/admin/walk-in/applications').send({ ...validApplication(1, { idDocument: 'x'.repeat(16), transcripts: 'y'.repeat(16) }), applicantId: s.user.id, campusId: 1 })).status).toBe(403);
    expect((await t.database.db.select().from(applications)).length).toBe(before);
  });

  it('refuses: bad input with field messages, a taken e-mail (409), an admin as applicant (404), uploads of another account (400)', async () => {
    const { agent, user: admin } = await signInAdmin(t);
    const bad = await agent.post('/api/admin/walk-in/applicants').send({ firstName: 'M', email: 'nope', campusId: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toMatchObject({
      firstName: 'First name must be at least 2 characters', email: 'Please enter a valid email address', phone: 'Phone number must be at least 10 characters',
      campusId: 'Please select a campus', privacyConsent: 'The applicant must agree to the Privacy Policy',
    });
    expect((await agent.post('/api/admin/walk-in/applicants').send(person({ campusId: 999 }))).body.error.fields).toEqual({ campusId: 'Please select a campus' });
    const s = await signUpStudent(t);
    expect((await agent.post('/api/admin/walk-in/applicants').send(person({ email: s.email }))).status).toBe(409);

    const other = (await agent.post('/api/admin/walk-in/applicants').send(person())).body.applicant;
    const foreign = (await s.agent.post('/api/uploads').attach('file', PDF, 'theirs.pdf')).body.upload.id;
    const mine = (await agent.post(`/api/admin/walk-in/applicants/${other.id}/uploads`).attach('file', PDF, 'scan.pdf')).body.upload.id;
    const res = await agent.post('/api/admin/walk-in/applications').send({ ...validApplication(1, { idDocument: mine, transcripts: foreign }), applicantId: other.id, campusId: 1 });
    expect(res.status).toBe(400);
    expect((await agent.post('/api/admin/walk-in/applications').send({ ...validApplication(1, { idDocument: mine, transcripts: mine }), applicantId: admin.id, campusId: 1 })).status).toBe(404);
    expect((await agent.post(`/api/admin/walk-in/applicants/${admin.id}/uploads`).attach('file', PDF, 'a.pdf')).status).toBe(404);
  });
});

/**
 * Issue #17 audit: with PUBLIC_URL=https://apply.vhembecollege.ac.za (33 characters) the set-password SMS was 161
 * characters (the full /reset-password#token= path and the 43-character token), so it was never sent ('too_long');
 * only origins of at most 32 characters fitted. It now carries its own 128-bit token behind the short path /r.
 */
describe(`walk-in set-password SMS with a realistic PUBLIC_URL (${DB_KIND})`, () => {
  for (const origin of ['https://apply.vhembecollege.ac.za', `https://admissions-and-registration.${'v'.repeat(10)}-college.ac.za`]) {
    it(`is sent in one SMS with ${origin.length}-character PUBLIC_URL, and its link sets the password`, async () => {
      const app = await startTestApp({ PUBLIC_URL: origin });
      try {
        const { agent } = await signInAdmin(app);
        const created = await agent.post('/api/admin/walk-in/applicants').send(person({ phone: '0831112222' }));
        expect(created.status).toBe(201);
        expect(created.body.sms).toBe('queued');
        const applicant = created.body.applicant;
        const [sms] = await app.database.db.select().from(smsOutbox).where(eq(smsOutbox.userId, applicant.id));
        const escaped = origin.replace(/[.]/g, '\\.');
        expect(sms!.body).toMatch(new RegExp(`^VSC: choose your password within 7 days: ${escaped}/r#token=[\\w-]{22} Reply STOP to opt out$`));
        expect(gsm7Length(sms!.body)).toBeLessThanOrEqual(160);
        const token = /#token=([\w-]+)/.exec(sms!.body)![1]!;
        await app.request().post('/api/auth/reset-password/confirm').send({ token, password: 'my-own-pass-1', confirmPassword: 'my-own-pass-1' }).expect(200);
        await app.request().post('/api/auth/login').send({ email: applicant.email, password: 'my-own-pass-1' }).expect(200);
        // One set-password link works once, whichever way it came: the e-mailed one is spent with it.
        const [mail] = await mailsTo(app, applicant.email);
        const mailed = /\/reset-password#token=([\w-]+)/.exec(mail!.text ?? '')![1]!;
        expect((await app.request().post('/api/auth/reset-password/confirm').send({ token: mailed, password: 'other-pass-22', confirmPassword: 'other-pass-22' })).status).toBe(400);
      } finally { await app.close(); }
    });
  }
});
