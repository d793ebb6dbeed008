import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, DB_KIND, type TestApp } from '../test/harness.ts';
import { startServer } from '../server.ts';
import { resolveSessionSecret } from './session-secret.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

/** express-session's cookie signature (cookie-signature): `<sid>.<base64 HMAC-SHA256 of sid, no padding>`. */
const sign = (sid: string, secret: string) => `${sid}.${crypto.createHmac('sha256', secret).update(sid).digest('base64').replace(/=+$/, '')}`;
const signedBy = (value: string, secret: string) => { const sid = value.slice(0, value.lastIndexOf('.')); return sign(sid, secret) === value ? sid : false; };

/** The value of the session cookie in a Set-Cookie list, URL-decoded ('s:<sid>.<signature>'). */
const sessionCookie = (setCookie: string[] | undefined) => {
  const raw = (setCookie ?? []).map((c) => c.split(';')[0]!).find((c) => c.startsWith('college.sid=')) ?? '';
  return decodeURIComponent(raw.slice('college.sid='.length));
};

describe(`session secret without SESSION_SECRET (${DB_KIND})`, () => {
  it('nodes starting at once on one database agree on one random secret; a configured SESSION_SECRET wins', async () => {
    const [a, b] = await Promise.all([resolveSessionSecret(t.database.db, undefined), resolveSessionSecret(t.database.db, undefined)]);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toBe(a);
    expect(await resolveSessionSecret(t.database.db, undefined)).toBe(a);
    expect(await resolveSessionSecret(t.database.db, 'configured-secret-0123')).toBe('configured-secret-0123');
  });

  it("the README's plain start signs logins with a secret of its own (not one from the source), kept across a restart", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'college-secret-'));
    const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SITE_BUILD: 'never', ADMIN_EMAIL: 'admin@secret.example', ADMIN_PASSWORD: 'Admin-pass-2026' };
    try {
      let node = await startServer(env);
      const login = await fetch(`${node.url}/api/auth/login`, {
        method: 'POST', headers: { 'content-type': 'application/json', origin: node.url },
        body: JSON.stringify({ email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }),
      });
      expect(login.status).toBe(200);
      const cookie = sessionCookie(login.headers.getSetCookie());
      expect(cookie).toMatch(/^s:/);
      const sid = signedBy(cookie.slice(2), node.config.sessionSecret);
      expect(sid).toBeTruthy();
      expect(signedBy(cookie.slice(2), 'dev-only-session-secret-change-me')).toBe(false);
      await node.close();

      node = await startServer(env);
      try {
        const me = await fetch(`${node.url}/api/auth/me`, { headers: { cookie: `college.sid=${encodeURIComponent(cookie)}` } });
        expect(me.status).toBe(200);
        expect((await me.json()).user.email).toBe(env.ADMIN_EMAIL);
        const forged = `s:${sign(String(sid), 'dev-only-session-secret-change-me')}`;
        const refused = await fetch(`${node.url}/api/auth/me`, { headers: { cookie: `college.sid=${encodeURIComponent(forged)}` } });
        expect(refused.status).toBe(401);
      } finally { await node.close(); }
    } finally { fs.rmSync(dataDir, { recursive: true, force: true }); }
  }, 60_000);
});
