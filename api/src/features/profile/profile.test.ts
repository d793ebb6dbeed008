import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestApp, signUpStudent, signInAdmin, insertUpload, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';
import { users, erasureRequests } from '../../db/schema/users.ts';
import { mailsTo } from '../../test/mail.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const details = { firstName: 'Rudzani', lastName: 'Mudau', phone: '0721112222', nationality: 'za', idNumber: '0104125800086', addressLine1: '4 Mvudi Road', addressLine2: '', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za', emergencyContactName: 'Mpho Mudau', emergencyContactPhone: '0723334444', emergencyContactRelation: 'Sister' };

async function applyAs(s: Awaited<ReturnType<typeof signUpStudent>>) {
  const idDocument = await insertUpload(t, s.user.id);
  const transcripts = await insertUpload(t, s.user.id);
  const res = await s.agent.post('/api/applications').send(validApplication(1, { idDocument, transcripts }));
  expect(res.status).toBe(201);
  return res.body.application.id as number;
}

describe(`profile (${DB_KIND})`, () => {
  it('every /api/profile route needs a signed-in user', async () => {
    for (const [method, path] of [['get', '/api/profile'], ['put', '/api/profile'], ['post', '/api/profile/password'], ['post', '/api/profile/logout-everywhere'], ['get', '/api/profile/export'], ['post', '/api/profile/delete']] as const) {
      expect((await (t.request() as any)[method](path).send({})).status, `${method} ${path}`).toBe(401);
    }
  });

  it('GET/PUT /api/profile › shows and saves own details; birth date follows the ID; e-mail and role cannot be changed', async () => {
    const s = await signUpStudent(t);
    const get = await s.agent.get('/api/profile');
    expect(get.status).toBe(200);
    expect(get.body.user).toMatchObject({ email: s.email, privacyNoticeVersion: expect.any(String), privacyConsentAt: expect.any(String) });
    const put = await s.agent.put('/api/profile').send({ ...details, email: 'hijack@example.com', role: 'admin' });
    expect(put.status).toBe(200);
    expect(put.body.user).toMatchObject({ firstName: 'Rudzani', dateOfBirth: '2001-04-12', emergencyContactRelation: 'Sister', email: s.email, role: 'student' });
    expect((await s.agent.get('/api/auth/me')).body.user.firstName).toBe('Rudzani');
  });

  it('PUT /api/profile › an SA ID number typed with dashes or spaces is stored as its 13 digits (names audit)', async () => {
    const s = await signUpStudent(t);
    const put = await s.agent.put('/api/profile').send({ ...details, idNumber: '010412-5800 086' });
    expect(put.status).toBe(200);
    expect((await s.agent.get('/api/profile')).body.user).toMatchObject({ idNumber: '0104125800086', dateOfBirth: '2001-04-12' });
  });

  it('PUT /api/profile › a UK applicant keeps the typed date of birth, can change it, and it is checked like at registration', async () => {
    const agent = t.request();
    const reg = await agent.post('/api/auth/comprehensive-register').send({
      ...details, email: `uk.${Date.now()}@example.com`, password: 'secret123', confirmPassword: 'secret123', nationality: 'uk', country: 'uk',
      idNumber: 'P12345678', dateOfBirth: '1998-03-15', addressLine1: '221 Baker Street', city: 'London', state: 'Greater London', postalCode: 'NW1 6XE',
      academicHistory: { highSchool: { name: 'Camden School', city: 'London', country: 'United Kingdom', from: '2012', to: '2016', qualification: 'A-levels', grade: 'AAB' } },
      courseId: 1, termsAndConditions: true,
    });
    expect(reg.status).toBe(201);
    const uk = { ...details, nationality: 'uk', country: 'uk', idNumber: 'P12345678', addressLine1: '221 Baker Street', city: 'London', state: 'Greater London', postalCode: 'NW1 6XE' };
    // Saved as the profile page sends it (the date unchanged), and by a client that does not send the date at all.
    const same = await agent.put('/api/profile').send({ ...uk, dateOfBirth: '1998-03-15', firstName: 'Oliver' });
    expect(same.status).toBe(200);
    expect(same.body.user).toMatchObject({ firstName: 'Oliver', nationality: 'uk', idNumber: 'P12345678', dateOfBirth: '1998-03-15' });
    expect((await agent.put('/api/profile').send(uk)).body.user.dateOfBirth).toBe('1998-03-15');
    const changed = await agent.put('/api/profile').send({ ...uk, dateOfBirth: '1997-11-02' });
    expect(changed.status).toBe(200);
    expect(changed.body.user.dateOfBirth).toBe('1997-11-02');
    expect((await agent.get('/api/profile')).body.user).toMatchObject({ dateOfBirth: '1997-11-02', idNumber: 'P12345678' });
    // A 13-digit number that passes the SA check is not read as a UK applicant's birth date.
    expect((await agent.put('/api/profile').send({ ...uk, idNumber: '0104125800086', dateOfBirth: '1997-11-02' })).body.user.dateOfBirth).toBe('1997-11-02');
    // The registration rule and messages (typedBirthDateProblem); nothing is saved.
    for (const [dateOfBirth, message] of [['', 'Date of birth is required'], ['1998-02-30', 'Please enter a valid date in YYYY-MM-DD format'], ['2999-01-01', 'Please enter a valid date of birth']]) {
      const bad = await agent.put('/api/profile').send({ ...uk, dateOfBirth });
      expect(bad.status, dateOfBirth).toBe(400);
      expect(bad.body.error.fields).toEqual({ dateOfBirth: message });
    }
    expect((await agent.get('/api/profile')).body.user.dateOfBirth).toBe('1997-11-02');
    // Becoming South African: the date follows the SA ID again, whatever is typed.
    const za = await agent.put('/api/profile').send({ ...details, dateOfBirth: '1990-01-01' });
    expect(za.status).toBe(200);
    expect(za.body.user).toMatchObject({ nationality: 'za', dateOfBirth: '2001-04-12' });
  });

  it('PUT /api/profile › 400 with field messages, including the SA ID check', async () => {
    const s = await signUpStudent(t);
    const res = await s.agent.put('/api/profile').send({ ...details, firstName: 'R', phone: '123', idNumber: '0104125800085' });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toMatchObject({ firstName: 'First name must be at least 2 characters', phone: 'Phone number must be at least 10 characters', idNumber: expect.stringMatching(/not valid/) });
  });

  it('POST /api/profile/password › needs the current password; then ends the other sessions and keeps this one', async () => {
    const s = await signUpStudent(t);
    const elsewhere = await t.request().post('/api/auth/login').send({ email: s.email, password: s.password });
    const wrong = await s.agent.post('/api/profile/password').send({ currentPassword: 'not-my-password', password: 'new-password-1', confirmPassword: 'new-password-1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields.currentPassword).toBe('Current password is incorrect');
    const ok = await s.agent.post('/api/profile/password').send({ currentPassword: s.password, password: 'new-password-1', confirmPassword: 'new-password-1' });
    expect(ok.status).toBe(200);
    expect(ok.body.token).toBeTruthy();
    expect((await s.agent.get('/api/profile')).status).toBe(200);
    expect((await t.request().get('/api/auth/me').set('Authorization', `Bearer ${elsewhere.body.token}`)).status).toBe(401);
    expect((await t.request().post('/api/auth/login').send({ email: s.email, password: 'new-password-1' })).status).toBe(200);
    const mails = await mailsTo(t, s.email);
    expect(mails.map((m) => m.subject)).toContain('Your password was changed');
  });

  it('POST /api/profile/password › a reset link asked for before the change no longer works (security audit F5)', async () => {
    const s = await signUpStudent(t);
    expect((await t.request().post('/api/auth/reset-password').send({ email: s.email })).status).toBe(200);
    const mail = (await mailsTo(t, s.email)).find((m) => m.subject === 'Reset your password');
    const token = /\/reset-password#token=([\w-]+)/.exec(mail!.text ?? '')![1]!;
    const ok = await s.agent.post('/api/profile/password').send({ currentPassword: s.password, password: 'new-password-1', confirmPassword: 'new-password-1' });
    expect(ok.status).toBe(200);
    const late = await t.request().post('/api/auth/reset-password/confirm').send({ token, password: 'attacker-pass-1', confirmPassword: 'attacker-pass-1' });
    expect(late.status).toBe(400);
    expect(late.body.error.fields.token).toBe('This reset link is invalid or has expired');
    expect((await t.request().post('/api/auth/login').send({ email: s.email, password: 'new-password-1' })).status).toBe(200);
  });

  it('POST /api/profile/logout-everywhere › ends every cookie session and bearer token of the person', async () => {
    const s = await signUpStudent(t);
    const second = t.request();
    const login = await second.post('/api/auth/login').send({ email: s.email, password: s.password });
    expect((await s.agent.post('/api/profile/logout-everywhere')).status).toBe(200);
    expect((await s.agent.get('/api/auth/me')).status).toBe(401);
    expect((await second.get('/api/auth/me')).status).toBe(401);
    expect((await t.request().get('/api/auth/me').set('Authorization', `Bearer ${login.body.token}`)).status).toBe(401);
    expect((await t.request().get('/api/auth/me').set('Authorization', `Bearer ${s.token}`)).status).toBe(401);
  });

  it('GET /api/profile/export › a JSON attachment with user, applications, history, notifications, uploads, payments and consents — no hash, no notes', async () => {
    const s = await signUpStudent(t);
    const appId = await applyAs(s);
    const admin = await signInAdmin(t);
    await admin.agent.put(`/api/admin/applications/${appId}/status`).send({ status: 'under_review', notes: 'internal: call school' });
    const res = await s.agent.get('/api/profile/export');
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.json"$/);
    const data = JSON.parse(res.text);
    expect(data.user.email).toBe(s.email);
    expect(data.applications.map((a: any) => a.id)).toEqual([appId]);
    expect(data.applicationHistory.map((h: any) => h.toStatus)).toEqual(['pending', 'under_review']);
    expect(data.notifications.length).toBeGreaterThanOrEqual(2);
    expect(data.uploads).toHaveLength(2);
    expect(data.payments).toHaveLength(1);
    expect(data.consents[0]).toMatchObject({ kind: 'privacy-notice', version: expect.any(String), acceptedAt: expect.any(String) });
    expect(res.text).not.toMatch(/argon2|passwordHash|password_hash|tokenHash|internal: call school|4242424242424242/);
    const other = await signUpStudent(t);
    expect((await other.agent.get('/api/profile/export')).text).not.toContain(s.email);
  });

  it('POST /api/profile/delete › without applications the account is erased at once and its sessions end', async () => {
    const s = await signUpStudent(t);
    const wrong = await s.agent.post('/api/profile/delete').send({ password: 'not-my-password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields.password).toBe('Password is incorrect');
    const res = await s.agent.post('/api/profile/delete').send({ password: s.password });
    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe('deleted');
    expect(await t.database.db.select().from(users).where(eq(users.id, s.user.id))).toHaveLength(0);
    expect((await s.agent.get('/api/auth/me')).status).toBe(401);
    expect((await t.request().get('/api/auth/me').set('Authorization', `Bearer ${s.token}`)).status).toBe(401);
    expect((await t.request().post('/api/auth/login').send({ email: s.email, password: s.password })).status).toBe(401);
  });

  it('POST /api/profile/delete › with applications an erasure request is recorded once for an admin and the account stays', async () => {
    const s = await signUpStudent(t);
    await applyAs(s);
    const first = await s.agent.post('/api/profile/delete').send({ password: s.password });
    expect(first.status).toBe(202);
    expect(first.body.outcome).toBe('requested');
    const second = await s.agent.post('/api/profile/delete').send({ password: s.password });
    expect(second.body.requestId).toBe(first.body.requestId);
    const rows = await t.database.db.select().from(erasureRequests).where(eq(erasureRequests.userId, s.user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe('open');
    expect((await s.agent.get('/api/profile')).status).toBe(200);
    const office = await mailsTo(t, t.config.OFFICE_EMAIL);
    expect(office.some((m) => m.subject.includes(`user ${s.user.id}`))).toBe(true);
  });
});

describe(`NSC results in the profile (${DB_KIND}, issue #18)`, () => {
  it('GET/PUT /api/profile/nsc-results › own results only, validated, kept with the registration details', async () => {
    const s = await signUpStudent(t);
    expect((await s.agent.get('/api/profile/nsc-results')).body).toEqual({ nscResults: [] });
    const put = await s.agent.put('/api/profile/nsc-results').send({ nscResults: [{ subject: 'Mathematics', percent: '64' }, { subject: 'Other', name: 'Latin', percent: 71 }] });
    expect(put.status).toBe(200);
    expect(put.body.nscResults).toEqual([{ subject: 'Mathematics', percent: 64, name: '' }, { subject: 'Other', name: 'Latin', percent: 71 }]);
    const bad = await s.agent.put('/api/profile/nsc-results').send({ nscResults: [{ subject: 'Mathematics', percent: 101 }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields['nscResults.0.percent']).toBe('Percentage must be a whole number from 0 to 100');
    const other = await signUpStudent(t);
    expect((await other.agent.get('/api/profile/nsc-results')).body).toEqual({ nscResults: [] });
    expect((await t.request().get('/api/profile/nsc-results')).status).toBe(401);
  });
});
