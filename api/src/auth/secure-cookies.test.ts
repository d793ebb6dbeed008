/**
 * Secure cookies and HSTS in production when PUBLIC_URL is https (audit: behind an HTTPS balancer that sends no X-Forwarded-Proto,
 * with PUBLIC_URL=https://… and TRUST_PROXY=loopback, login set `college.sid` and `college.signed_in` without Secure
 * and no HSTS was sent). Plain-http development (PUBLIC_URL unset or http://localhost) keeps cookies without Secure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signUpStudent, DB_KIND, type TestApp } from '../test/harness.ts';
import { SESSION_COOKIE, SIGNED_IN_COOKIE } from './session.ts';

const cookie = (res: { headers: Record<string, any> }, name: string) =>
  ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${name}=`)) ?? '';

async function logIn(t: TestApp) {
  const { email, password } = await signUpStudent(t);
  const res = await t.request().post('/api/auth/login').send({ email, password });
  expect(res.status).toBe(200);
  return res;
}

describe(`Secure cookies and HSTS from an https PUBLIC_URL (${DB_KIND})`, () => {
  const production = { NODE_ENV: 'production', SESSION_SECRET: 'secure-cookies-test-secret-0123456789', MAIL_FROM: '"Vhembe Skills College Admissions" <admissions@vhembe.ac.za>' } as const;
  for (const [label, env] of [
    ['TRUST_PROXY=loopback, no X-Forwarded-Proto', { ...production, PUBLIC_URL: 'https://apply.college.example', TRUST_PROXY: 'loopback' }],
    ['no TRUST_PROXY', { ...production, PUBLIC_URL: 'https://apply.college.example' }],
  ] as const) {
    describe(label, () => {
      let t: TestApp;
      beforeAll(async () => { t = await startTestApp(env); });
      afterAll(async () => { await t.close(); });

      it('login sets the session cookie and the signed-in hint with Secure, and the session works', async () => {
        const res = await logIn(t);
        const sid = cookie(res, SESSION_COOKIE);
        expect(sid).toMatch(/;\s*Secure/i);
        expect(sid).toMatch(/HttpOnly/i);
        expect(cookie(res, SIGNED_IN_COOKIE)).toMatch(/;\s*Secure/i);
        // The cookie set is the live session (the test client itself would not send a Secure cookie over http).
        const me = await t.request().get('/api/auth/me').set('Cookie', sid.split(';')[0]!);
        expect(me.status).toBe(200);
      });

      it('pages and API answers carry HSTS', async () => {
        for (const p of ['/', '/api/courses']) {
          expect((await t.request().get(p)).headers['strict-transport-security'], p).toMatch(/max-age=\d{7,}/);
        }
      });
    });
  }

  it('outside production an https PUBLIC_URL changes nothing (the API tests sign links with one and talk plain http)', async () => {
    const t = await startTestApp({ PUBLIC_URL: 'https://apply.college.example' });
    try {
      const res = await logIn(t);
      expect(cookie(res, SESSION_COOKIE)).not.toMatch(/Secure/i);
      expect((await t.request().get('/api/auth/me').set('Cookie', cookie(res, SESSION_COOKIE).split(';')[0]!)).status).toBe(200);
    } finally { await t.close(); }
  });

  describe('plain-http development (PUBLIC_URL http://localhost)', () => {
    let t: TestApp;
    beforeAll(async () => { t = await startTestApp({ PUBLIC_URL: 'http://localhost:4321', TRUST_PROXY: 'loopback' }); });
    afterAll(async () => { await t.close(); });

    it('cookies have no Secure (the browser would drop them on http) and no HSTS is sent', async () => {
      const res = await logIn(t);
      expect(cookie(res, SESSION_COOKIE)).not.toMatch(/Secure/i);
      expect(cookie(res, SIGNED_IN_COOKIE)).not.toMatch(/Secure/i);
      expect((await t.request().get('/')).headers['strict-transport-security']).toBeUndefined();
    });

    it('a trusted proxy that says https (X-Forwarded-Proto) still gets Secure cookies', async () => {
      const { email, password } = await signUpStudent(t);
      const res = await t.request().post('/api/auth/login').set('X-Forwarded-Proto', 'https').send({ email, password });
      expect(cookie(res, SESSION_COOKIE)).toMatch(/;\s*Secure/i);
      expect(cookie(res, SIGNED_IN_COOKIE)).toMatch(/;\s*Secure/i);
    });
  });
});
