/** Issue #4 "Security is part of done": one test per item, named by the behaviour a caller would notice. */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { startTestApp, signUpStudent, signInAdmin, validRegistration, uniqueEmail, DB_KIND, type TestApp, sessionCookie } from '../../test/harness.ts';
import { mailsTo } from '../../test/mail.ts';
import { users, authTokens, passwordResets } from '../../db/schema/users.ts';
import { registrationDetails } from '../../db/schema/accounts.ts';
import { sha256 } from '../../auth/tokens.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });
afterEach(() => { vi.restoreAllMocks(); });

const cookieOf = (res: { headers: Record<string, any> }) => sessionCookie(res).split(';')[0];

/** Shifts timestamps kept in every stored session of `userId` by `ms` into the past. */
async function ageSessions(userId: number, field: 'lastSeen' | 'createdAt', ms: number) {
  await t.database.db.execute(sql`UPDATE "session" SET sess = jsonb_set(sess::jsonb, ${`{${field}}`}::text[], to_jsonb(${Date.now() - ms}::bigint))::json
    WHERE (sess->'passport'->>'user')::int = ${userId}`);
}

export const validWizard = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Lufuno', lastName: 'Netshiavha', email: uniqueEmail('wizard'), password: 'secret123', confirmPassword: 'secret123',
  phone: '0821234567', idNumber: '0104125800086', dateOfBirth: '2001-04-12', nationality: 'za',
  addressLine1: '12 Church Street', addressLine2: '', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za',
  academicHistory: { highSchool: { name: 'Mbilwi Secondary', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', qualification: 'NSC', grade: '72%' } },
  emergencyContactName: 'Mpho Netshiavha', emergencyContactPhone: '0827654321', emergencyContactRelation: 'Mother',
  courseId: 1, termsAndConditions: true, ...overrides,
});

describe(`account security (${DB_KIND})`, () => {
  it('passwords are hashed with argon2id m=19456 KiB, t=2, p=1', async () => {
    const { user } = await signUpStudent(t);
    const [row] = await t.database.db.select({ h: users.passwordHash }).from(users).where(eq(users.id, user.id));
    expect(row!.h).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('passwords: 5 characters are refused, 64 and 128 accepted, and a long one is never truncated', async () => {
    const short = await t.request().post('/api/auth/register').send(validRegistration({ password: '12345', confirmPassword: '12345' }));
    expect(short.status).toBe(400);
    expect(short.body.error.fields.password).toBe('Password must be at least 6 characters');
    const p64 = 'p'.repeat(64);
    expect((await t.request().post('/api/auth/register').send(validRegistration({ password: p64, confirmPassword: p64 }))).status).toBe(201);
    const long = 'L0ng-passphrase-'.repeat(8); // 128 characters
    const { email } = await signUpStudent(t, { password: long, confirmPassword: long });
    expect((await t.request().post('/api/auth/login').send({ email, password: long.slice(0, 72) })).status).toBe(401);
    expect((await t.request().post('/api/auth/login').send({ email, password: long.slice(0, 127) })).status).toBe(401);
    expect((await t.request().post('/api/auth/login').send({ email, password: long })).status).toBe(200);
  });

  it('login issues a new session id; the pre-login session id stops working', async () => {
    const { agent, email, password } = await signUpStudent(t);
    const before = (await agent.post('/api/auth/login').send({ email, password }));
    const first = cookieOf(before);
    const again = await agent.post('/api/auth/login').send({ email, password });
    const second = cookieOf(again);
    expect(first).toMatch(/^college\.sid=/);
    expect(second).toMatch(/^college\.sid=/);
    expect(second).not.toBe(first);
    expect((await t.request().get('/api/auth/me').set('Cookie', first)).status).toBe(401);
    expect((await t.request().get('/api/auth/me').set('Cookie', second)).status).toBe(200);
  });

  it('a login that replaces a session in the same browser also revokes the replaced session\'s bearer token', async () => {
    const { agent, email, password } = await signUpStudent(t);
    const firstToken = (await agent.post('/api/auth/login').send({ email, password, rememberMe: true })).body.token as string;
    expect((await t.request().get('/api/auth/me').set('Authorization', `Bearer ${firstToken}`)).status).toBe(200);
    const again = await agent.post('/api/auth/login').send({ email, password });
    expect(again.status).toBe(200);
    expect((await t.request().get('/api/auth/me').set('Authorization', `Bearer ${firstToken}`)).status).toBe(401);
    expect((await t.request().get('/api/auth/me').set('Authorization', `Bearer ${again.body.token}`)).status).toBe(200);
  });

  it('a planted (fixated) session cookie is not adopted at login', async () => {
    const { email, password } = await signUpStudent(t);
    const planted = 'college.sid=s%3Aattacker-chosen-id.invalidsignature';
    const res = await t.request().post('/api/auth/login').set('Cookie', planted).send({ email, password });
    expect(res.status).toBe(200);
    expect(cookieOf(res)).not.toContain('attacker-chosen-id');
  });

  it('logout deletes the server-side session (a replayed cookie is refused) and revokes the bearer token', async () => {
    const { email, password } = await signUpStudent(t);
    const login = await t.request().post('/api/auth/login').send({ email, password });
    const cookie = cookieOf(login);
    const token = login.body.token;
    const out = await t.request().post('/api/auth/logout').set('Cookie', cookie).set('Authorization', `Bearer ${token}`);
    expect(out.status).toBe(200);
    expect((await t.request().get('/api/auth/me').set('Cookie', cookie)).status).toBe(401);
    expect((await t.request().get('/api/auth/me').set('Authorization', `Bearer ${token}`)).status).toBe(401);
    const [row] = await t.database.db.select({ revokedAt: authTokens.revokedAt }).from(authTokens).where(eq(authTokens.tokenHash, sha256(token)));
    expect(row!.revokedAt).not.toBeNull();
  });

  it('the session cookie is HttpOnly and SameSite=Lax, and not Secure over plain HTTP', async () => {
    const { email, password } = await signUpStudent(t);
    const res = await t.request().post('/api/auth/login').send({ email, password });
    const c = sessionCookie(res);
    expect(c).toMatch(/HttpOnly/i);
    expect(c).toMatch(/SameSite=Lax/i);
    expect(c).not.toMatch(/Secure/i);
    // Without a trusted proxy a spoofed X-Forwarded-Proto changes nothing.
    const spoofed = await t.request().post('/api/auth/login').set('X-Forwarded-Proto', 'https').send({ email, password });
    expect(sessionCookie(spoofed)).not.toMatch(/Secure/i);
  });

  it('the session cookie is Secure behind an HTTPS proxy that is trusted (TRUST_PROXY)', async () => {
    const proxied = await startTestApp({ TRUST_PROXY: '1' });
    try {
      const { email, password } = await signUpStudent(proxied);
      const res = await proxied.request().post('/api/auth/login').set('X-Forwarded-Proto', 'https').send({ email, password });
      expect(res.status).toBe(200);
      expect(sessionCookie(res)).toMatch(/;\s*Secure/i);
    } finally { await proxied.close(); }
  });

  it('a student session ends after 2 h idle; an admin session after 30 min idle', async () => {
    const s = await signUpStudent(t);
    await ageSessions(s.user.id, 'lastSeen', 90 * 60_000);
    expect((await s.agent.get('/api/auth/me')).status).toBe(200);
    await ageSessions(s.user.id, 'lastSeen', 2 * 3600_000 + 60_000);
    expect((await s.agent.get('/api/auth/me')).status).toBe(401);
    const a = await signInAdmin(t);
    await ageSessions(a.user.id, 'lastSeen', 31 * 60_000);
    expect((await a.agent.get('/api/auth/me')).status).toBe(401);
  });

  it('a session ends 12 h after login however active it is; rememberMe extends a student session to 30 days', async () => {
    const s = await signUpStudent(t);
    await ageSessions(s.user.id, 'createdAt', 12 * 3600_000 + 60_000);
    expect((await s.agent.get('/api/auth/me')).status).toBe(401);

    const r = await signUpStudent(t);
    const agent = t.request();
    const login = await agent.post('/api/auth/login').send({ email: r.email, password: r.password, rememberMe: true });
    const expires = Date.parse(/Expires=([^;]+)/i.exec(sessionCookie(login))![1]!);
    expect(expires - Date.now()).toBeGreaterThan(29 * 24 * 3600_000);
    await ageSessions(r.user.id, 'createdAt', 13 * 3600_000);
    await ageSessions(r.user.id, 'lastSeen', 3 * 3600_000);
    expect((await agent.get('/api/auth/me')).status).toBe(200);
    await ageSessions(r.user.id, 'createdAt', 31 * 24 * 3600_000);
    expect((await agent.get('/api/auth/me')).status).toBe(401);

    const plain = await t.request().post('/api/auth/login').send({ email: r.email, password: r.password });
    const plainExpires = Date.parse(/Expires=([^;]+)/i.exec(sessionCookie(plain))![1]!);
    expect(plainExpires - Date.now()).toBeLessThanOrEqual(12 * 3600_000 + 5000);
  });

  it('an unsafe request carrying the session cookie from another origin is refused with 403', async () => {
    const s = await signUpStudent(t);
    const evil = await s.agent.post('/api/profile/logout-everywhere').set('Origin', 'https://evil.example');
    expect(evil.status).toBe(403);
    expect(evil.body.error.code).toBe('cross_origin');
    const crossSite = await s.agent.put('/api/profile').set('Sec-Fetch-Site', 'cross-site').send({ firstName: 'Evil', lastName: 'Person', phone: '0820000000' });
    expect(crossSite.status).toBe(403);
    expect((await s.agent.get('/api/auth/me')).status).toBe(200);
    const same = await s.agent.post('/api/auth/logout').set('Origin', t.url);
    expect(same.status).toBe(200);
  });

  it('login failures: past the per-account limit even the right password needs a proof-of-work (429 challenge_required, not a lock-out)', async () => {
    const limited = await startTestApp({ LOGIN_RATE_LIMIT: '3' });
    try {
      const { email, password } = await signUpStudent(limited);
      expect((await limited.request().post('/api/auth/login').send({ email, password: 'wrong-0-pw' })).status).toBe(401);
      const blocked = await limited.request().post('/api/auth/login').send({ email: email.toUpperCase(), password });
      expect(blocked.status).toBe(429);
      expect(blocked.body.error.code).toBe('challenge_required');
      const other = await signUpStudent(limited);
      expect((await limited.request().post('/api/auth/login').send({ email: other.email, password: other.password })).status).toBe(200);
    } finally { await limited.close(); }
  });

  it('login failures: past the per-IP limit a proof-of-work is asked (429 challenge_required), and a spoofed X-Forwarded-For does not reset it', async () => {
    const limited = await startTestApp({ LOGIN_RATE_LIMIT: '2' }, { seed: false });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await limited.request().post('/api/auth/login').set('X-Forwarded-For', `203.0.113.${i + 1}`)
          .send({ email: `nobody${i}@example.com`, password: 'wrong-password' });
        statuses.push(res.status);
      }
      expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true); // per IP = 5 × per-account limit
      expect(statuses[10]).toBe(429);
      const last = await limited.request().post('/api/auth/login').send({ email: 'nobody-last@example.com', password: 'wrong-password' });
      expect(last.body.error.code).toBe('challenge_required');
    } finally { await limited.close(); }
  });

  it('login failures: with TRUST_PROXY set, clients behind the proxy are limited separately', async () => {
    const proxied = await startTestApp({ LOGIN_RATE_LIMIT: '2', TRUST_PROXY: '1' }, { seed: false });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await proxied.request().post('/api/auth/login').set('X-Forwarded-For', `203.0.113.${i + 1}`)
          .send({ email: `nobody${i}@example.com`, password: 'wrong-password' });
        statuses.push(res.status);
      }
      expect(statuses.every((s) => s === 401)).toBe(true);
    } finally { await proxied.close(); }
  });

  it('no answer reveals whether an e-mail is registered (login and reset), except registration’s 409', async () => {
    const { email } = await signUpStudent(t);
    const known = await t.request().post('/api/auth/login').send({ email, password: 'wrong-password' });
    const unknown = await t.request().post('/api/auth/login').send({ email: uniqueEmail('ghost'), password: 'wrong-password' });
    expect([known.status, known.body]).toEqual([unknown.status, unknown.body]);
    const resetKnown = await t.request().post('/api/colfront/auth/reset-password').send({ email });
    const resetUnknown = await t.request().post('/api/colfront/auth/reset-password').send({ email: uniqueEmail('ghost') });
    expect(resetKnown.status).toBe(200);
    expect([resetKnown.status, resetKnown.body]).toEqual([resetUnknown.status, resetUnknown.body]);
    const dup = await t.request().post('/api/auth/register').send(validRegistration({ email }));
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toBe('Could not create account');
  });

  it('no password, hash or token appears in any response body or log line', async () => {
    const lines: string[] = [];
    for (const m of ['log', 'info', 'warn', 'error', 'debug'] as const) vi.spyOn(console, m).mockImplementation((...a: unknown[]) => { lines.push(a.map(String).join(' ')); });
    const bodies: string[] = [];
    const keep = (res: { text: string }) => { bodies.push(res.text); return res; };
    const password = 'Unique-Secret-pw-4711';
    const newPassword = 'Another-Secret-pw-4712';
    const reg = await signUpStudent(t, { password, confirmPassword: password });
    keep(await reg.agent.get('/api/auth/me'));
    keep(await t.request().post('/api/auth/login').send({ email: reg.email, password: 'Wrong-Secret-pw-0000' }));
    const login = await t.request().post('/api/auth/login').send({ email: reg.email, password });
    const bearer = login.body.token as string;
    keep(await t.request().post('/api/auth/register').send(validRegistration({ email: reg.email, password, confirmPassword: password })));
    keep(await t.request().post('/api/auth/comprehensive-register').send(validWizard({ password, confirmPassword: password, role: 'admin' })));
    keep(await t.request().post('/api/auth/reset-password').send({ email: reg.email }));
    const mail = (await mailsTo(t, reg.email, 'Reset your password')).at(-1)!;
    const resetToken = /#token=([\w-]+)/.exec(mail.text ?? '')![1]!;
    keep(await t.request().post('/api/auth/reset-password/confirm').send({ token: resetToken, password: newPassword, confirmPassword: newPassword }));
    const again = await t.request().post('/api/auth/login').send({ email: reg.email, password: newPassword });
    keep(await t.request().get('/api/profile').set('Authorization', `Bearer ${again.body.token}`));
    keep(await t.request().get('/api/profile/export').set('Authorization', `Bearer ${again.body.token}`));
    const [row] = await t.database.db.select({ h: users.passwordHash }).from(users).where(eq(users.id, reg.user.id));
    for (const text of [...bodies, ...lines]) {
      for (const secret of [password, newPassword, 'Wrong-Secret-pw-0000', resetToken, row!.h, '$argon2id']) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/password_?hash|tokenHash/i);
    }
    for (const line of lines) expect(line).not.toContain(bearer);
    expect(lines.join('\n')).toContain('login failed');
  });

  it('both register endpoints create a student whatever the body says', async () => {
    const simple = await t.request().post('/api/auth/register').send(validRegistration({ role: 'admin' }));
    const wizard = await t.request().post('/api/auth/comprehensive-register').send(validWizard({ role: 'admin', isAdmin: true }));
    expect(simple.body.user.role).toBe('student');
    expect(wizard.status).toBe(201);
    expect(wizard.body.user.role).toBe('student');
  });

  it('a double-clicked register creates one account (the second answer is 409)', async () => {
    const body = validRegistration();
    const [a, b] = await Promise.all([t.request().post('/api/auth/register').send(body), t.request().post('/api/auth/register').send(body)]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const rows = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, body.email));
    expect(rows).toHaveLength(1);
  });
});

describe(`comprehensive registration (${DB_KIND})`, () => {
  it('POST /api/auth/comprehensive-register › creates a signed-in student with the wizard data and POPIA consent', async () => {
    const body = validWizard({ email: uniqueEmail('Wizard').toUpperCase() });
    const agent = t.request();
    const res = await agent.post('/api/auth/comprehensive-register').send(body);
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ email: body.email.toLowerCase(), dateOfBirth: '2001-04-12', nationality: 'za', city: 'Thohoyandou', role: 'student' });
    expect((await agent.get('/api/auth/me')).body.user.id).toBe(res.body.user.id);
    const [u] = await t.database.db.select().from(users).where(eq(users.id, res.body.user.id));
    expect(u!.privacyConsentAt).toBeInstanceOf(Date);
    expect(u!.privacyNoticeVersion).toBeTruthy();
    expect(u!.emergencyContactRelation).toBe('Mother');
    const [details] = await t.database.db.select().from(registrationDetails).where(eq(registrationDetails.userId, res.body.user.id));
    expect(details!.courseId).toBe(1);
    expect((details!.academicHistory as any).highSchool.name).toBe('Mbilwi Secondary');
  });

  it('POST /api/auth/comprehensive-register › 400 with a message per field, the Luhn check for SA IDs and the ID/birth-date match', async () => {
    const res = await t.request().post('/api/auth/comprehensive-register').send({ nationality: 'za', idNumber: '0104125800085', termsAndConditions: false });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toMatchObject({
      firstName: 'First name must be at least 2 characters', email: 'Please enter a valid email address',
      password: 'Password must be at least 6 characters', phone: 'Phone number must be at least 10 characters',
      country: 'Please select a country', courseId: 'Please select a course', emergencyContactPhone: 'Phone number must be at least 10 characters',
      termsAndConditions: 'You must agree to the Terms and Conditions and Privacy Policy',
    });
    const luhn = await t.request().post('/api/auth/comprehensive-register').send(validWizard({ idNumber: '0104125800085' }));
    expect(luhn.status).toBe(400);
    expect(luhn.body.error.fields.idNumber).toMatch(/not valid/);
    const foreign = await t.request().post('/api/auth/comprehensive-register').send(validWizard({ idNumber: '0104125800085', nationality: 'uk' }));
    expect(foreign.status).toBe(201);
    const dob = await t.request().post('/api/auth/comprehensive-register').send(validWizard({ dateOfBirth: '1999-01-01' }));
    expect(dob.body.error.fields.dateOfBirth).toBe('Date of birth must match the ID number');
    const mismatch = await t.request().post('/api/auth/comprehensive-register').send(validWizard({ confirmPassword: 'different1' }));
    expect(mismatch.body.error.fields.confirmPassword).toBe('Passwords do not match');
    const noCourse = await t.request().post('/api/auth/comprehensive-register').send(validWizard({ courseId: 99999 }));
    expect(noCourse.status).toBe(400);
    expect(noCourse.body.error.fields.courseId).toBe('Please select a course');
  });

  it('POST /api/auth/comprehensive-register › a UK applicant with a passport number registers with the typed date of birth, kept on the profile', async () => {
    const uk = (o: Record<string, unknown> = {}) => validWizard({ nationality: 'uk', country: 'uk', idNumber: 'P12345678', dateOfBirth: '1998-03-15', ...o });
    const agent = t.request();
    const res = await agent.post('/api/auth/comprehensive-register').send(uk());
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ nationality: 'uk', dateOfBirth: '1998-03-15', role: 'student' });
    expect((await agent.get('/api/profile')).body.user).toMatchObject({ nationality: 'uk', idNumber: 'P12345678', dateOfBirth: '1998-03-15' });
    // A foreign 13-digit number that happens to pass the SA check is not read as a birth date.
    const lookalike = await t.request().post('/api/auth/comprehensive-register').send(uk({ idNumber: '0104125800086' }));
    expect(lookalike.status).toBe(201);
    expect(lookalike.body.user.dateOfBirth).toBe('1998-03-15');
    const empty = await t.request().post('/api/auth/comprehensive-register').send(uk({ dateOfBirth: '' }));
    expect(empty.status).toBe(400);
    expect(empty.body.error.fields).toEqual({ dateOfBirth: 'Date of birth is required' });
    const future = await t.request().post('/api/auth/comprehensive-register').send(uk({ dateOfBirth: `${new Date().getFullYear() + 1}-01-01` }));
    expect(future.status).toBe(400);
    expect(future.body.error.fields).toEqual({ dateOfBirth: 'Please enter a valid date of birth' });
  });

  it('POST /api/auth/comprehensive-register › an e-mail already registered in another case is 409', async () => {
    const { email } = await signUpStudent(t);
    const res = await t.request().post('/api/auth/comprehensive-register').send(validWizard({ email: email.toUpperCase() }));
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe('Could not create account');
  });
});

describe(`password reset (${DB_KIND})`, () => {
  // Only reset mails: a new account is also sent an e-mail verification link (issue #12).
  const resetMails = (email: string) => mailsTo(t, email, 'Reset your password');
  const tokenFrom = (text: string | undefined) => /\/reset-password#token=([\w-]+)/.exec(text ?? '')![1]!;

  it('POST /api/colfront/auth/reset-password › e-mails a 1-hour link only to a registered account and stores only its hash', async () => {
    const { email, user } = await signUpStudent(t);
    const res = await t.request().post('/api/colfront/auth/reset-password').send({ email: email.toUpperCase() });
    expect(res.status).toBe(200);
    const mails = await resetMails(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Reset your password');
    expect(mails[0]!.text).toContain('http://localhost:4321/reset-password#token=');
    const token = tokenFrom(mails[0]!.text);
    const [row] = await t.database.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id));
    expect(row!.tokenHash).not.toBe(token);
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    const ttl = row!.expiresAt.getTime() - row!.createdAt.getTime();
    expect(Math.abs(ttl - 3600_000)).toBeLessThan(5000);
    const ghost = uniqueEmail('ghost');
    await t.request().post('/api/colfront/auth/reset-password').send({ email: ghost });
    expect(await resetMails(ghost)).toHaveLength(0);
  });

  it('the link is not built from a forged Host header', async () => {
    const { email } = await signUpStudent(t);
    await t.request().post('/api/auth/reset-password').set('Host', 'evil.example').send({ email });
    const [mail] = await resetMails(email);
    expect(mail!.text).not.toContain('evil.example');
  });

  it('POST /reset-password/confirm › sets the password, ends every session, revokes every token, and works once', async () => {
    const s = await signUpStudent(t);
    const other = await t.request().post('/api/auth/login').send({ email: s.email, password: s.password });
    await t.request().post('/api/auth/reset-password').send({ email: s.email });
    const token = tokenFrom((await resetMails(s.email))[0]!.text);
    const res = await t.request().post('/api/auth/reset-password/confirm').send({ token, password: 'brand-new-pw', confirmPassword: 'brand-new-pw' });
    expect(res.status).toBe(200);
    expect((await s.agent.get('/api/auth/me')).status).toBe(401);
    expect((await t.request().get('/api/auth/me').set('Authorization', `Bearer ${s.token}`)).status).toBe(401);
    expect((await t.request().get('/api/auth/me').set('Authorization', `Bearer ${other.body.token}`)).status).toBe(401);
    expect((await t.request().post('/api/auth/login').send({ email: s.email, password: s.password })).status).toBe(401);
    expect((await t.request().post('/api/auth/login').send({ email: s.email, password: 'brand-new-pw' })).status).toBe(200);
    const reuse = await t.request().post('/api/auth/reset-password/confirm').send({ token, password: 'another-pw-1', confirmPassword: 'another-pw-1' });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error.fields.token).toBe('This reset link is invalid or has expired');
  });

  it('POST /reset-password/confirm › refuses an expired link, a made-up token and mismatched passwords', async () => {
    const s = await signUpStudent(t);
    await t.request().post('/api/auth/reset-password').send({ email: s.email });
    const token = tokenFrom((await resetMails(s.email))[0]!.text);
    const mismatch = await t.request().post('/api/auth/reset-password/confirm').send({ token, password: 'brand-new-pw', confirmPassword: 'other-pw' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.fields.confirmPassword).toBe('Passwords do not match');
    await t.database.db.update(passwordResets).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passwordResets.userId, s.user.id));
    const expired = await t.request().post('/api/auth/reset-password/confirm').send({ token, password: 'brand-new-pw', confirmPassword: 'brand-new-pw' });
    expect(expired.status).toBe(400);
    const madeUp = await t.request().post('/api/auth/reset-password/confirm').send({ token: 'x'.repeat(43), password: 'brand-new-pw', confirmPassword: 'brand-new-pw' });
    expect(madeUp.status).toBe(400);
    expect((await t.request().post('/api/auth/login').send({ email: s.email, password: s.password })).status).toBe(200);
  });
});
