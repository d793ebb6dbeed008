import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signUpStudent, validRegistration, DB_KIND, type TestApp, sessionCookie } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

describe(`auth (${DB_KIND})`, () => {
  it('POST /api/auth/register › creates a signed-in student and never returns the password', async () => {
    const { agent, user } = await signUpStudent(t);
    expect(user.role).toBe('student');
    expect(JSON.stringify(user)).not.toMatch(/password|argon2/i);
    const me = await agent.get('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(user.id);
  });

  it('POST /api/auth/register › ignores a smuggled role: admin', async () => {
    const res = await t.request().post('/api/colfront/auth/register').send(validRegistration({ role: 'admin' }));
    expect(res.status).toBe(201);
    expect(res.body.user.role).toBe('student');
  });

  it('POST /api/auth/register › answers 400 with the spec messages per field', async () => {
    const res = await t.request().post('/api/auth/register').send({ firstName: 'A', email: 'nope', password: '123', confirmPassword: '321', phone: '123', terms: false });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.fields).toMatchObject({
      email: 'Please enter a valid email address',
      password: 'Password must be at least 6 characters',
      phone: 'Phone number must be at least 10 characters',
      terms: 'You must agree to the terms and conditions',
    });
  });

  it('POST /api/auth/register › a duplicate e-mail, in any case, is a 409 "Could not create account"', async () => {
    const { email } = await signUpStudent(t);
    const res = await t.request().post('/api/auth/register').send(validRegistration({ email: email.toUpperCase() }));
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe('Could not create account');
  });

  it('POST /api/auth/login › wrong password gets a generic 401; right one returns user and token', async () => {
    const { email, password } = await signUpStudent(t);
    const bad = await t.request().post('/api/auth/login').send({ email, password: 'wrong-password' });
    expect(bad.status).toBe(401);
    expect(bad.body.error.message).toBe('Invalid email or password');
    const unknown = await t.request().post('/api/auth/login').send({ email: 'nobody@example.com', password: 'wrong-password' });
    expect(unknown.body).toEqual(bad.body);
    const ok = await t.request().post('/api/colfront/auth/login').send({ email: email.toUpperCase(), password });
    expect(ok.status).toBe(200);
    expect(ok.body.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(sessionCookie(ok)).toMatch(/HttpOnly/i);
    expect(sessionCookie(ok)).toMatch(/SameSite=Lax/i);
  });

  it('bearer token › authenticates /me and is revoked by logout', async () => {
    const { email, password } = await signUpStudent(t);
    const login = await t.request().post('/api/auth/login').send({ email, password });
    const token = login.body.token;
    const me = await t.request().get('/api/auth/me').set('Authorization', `Bearer ${token}`);
    expect(me.status).toBe(200);
    // The scheme name in any case (RFC 9110 §11.1), as some HTTP clients send it.
    expect((await t.request().get('/api/auth/me').set('Authorization', `bearer ${token}`)).status).toBe(200);
    expect((await t.request().get('/api/auth/me').set('Authorization', `Bearer${token}`)).status).toBe(401);
    await t.request().post('/api/auth/logout').set('Authorization', `bearer ${token}`);
    const after = await t.request().get('/api/auth/me').set('Authorization', `Bearer ${token}`);
    expect(after.status).toBe(401);
  });

  it('POST /api/auth/logout › ends the cookie session', async () => {
    const { agent } = await signUpStudent(t);
    expect((await agent.get('/api/auth/me')).status).toBe(200);
    expect((await agent.post('/api/auth/logout')).status).toBe(200);
    expect((await agent.get('/api/auth/me')).status).toBe(401);
  });

  it('signed-in hint cookie › login sets a readable college.signed_in=1 that authenticates nothing; logout clears it', async () => {
    const { email, password } = await signUpStudent(t);
    const agent = t.request();
    const login = await agent.post('/api/auth/login').send({ email, password });
    const hint = ([] as string[]).concat(login.headers['set-cookie']).find((c) => c.startsWith('college.signed_in='));
    expect(hint).toMatch(/^college\.signed_in=1;/);
    expect(hint).not.toMatch(/HttpOnly/i);
    expect((await t.request().get('/api/auth/me').set('Cookie', 'college.signed_in=1')).status).toBe(401);
    const out = await agent.post('/api/auth/logout');
    expect(([] as string[]).concat(out.headers['set-cookie']).some((c) => /^college\.signed_in=;/.test(c))).toBe(true);
  });

  it('malformed JSON › is a 400 in the error shape, not a 500', async () => {
    const res = await t.request().post('/api/auth/login').set('Content-Type', 'application/json').send('{"email":');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_json');
  });
});
