import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, DB_KIND, type TestApp } from '../test/harness.ts';
import { startServer } from '../server.ts';
import { resolveSessionSecret, secretFingerprint } from './session-secret.ts';
import { ConfigError } from '../config.ts';
import { freshPostgres } from '../test/harness.ts';

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
  it('nodes starting at once on one database agree on one random secret; a configured SESSION_SECRET replaces it only when meant', async () => {
    const [a, b] = await Promise.all([resolveSessionSecret(t.database.db, undefined), resolveSessionSecret(t.database.db, undefined)]);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toBe(a);
    expect(await resolveSessionSecret(t.database.db, undefined)).toBe(a);
    await expect(resolveSessionSecret(t.database.db, 'configured-secret-0123')).rejects.toThrow(ConfigError);
    expect(await resolveSessionSecret(t.database.db, 'configured-secret-0123', { rotate: true })).toBe('configured-secret-0123');
    // The embedded database has one process: a changed secret there is always meant.
    expect(await resolveSessionSecret(t.database.db, undefined, { shared: false })).toBe(a);
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

describe(`one session secret for every node (${DB_KIND})`, () => {
  const SECRET_A = 'node-secret-aaaaaaaaaaaaaaaa';
  const SECRET_B = 'node-secret-bbbbbbbbbbbbbbbb';

  it('a node whose SESSION_SECRET differs from the stored fingerprint refuses to start, naming SESSION_SECRET and the way to rotate', async () => {
    const other = await startTestApp();
    try {
      const db = other.database.db;
      expect(await resolveSessionSecret(db, SECRET_A, { shared: true })).toBe(SECRET_A);
      expect(await resolveSessionSecret(db, SECRET_A, { shared: true })).toBe(SECRET_A);
      const err = await resolveSessionSecret(db, SECRET_B, { shared: true }).catch((e) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect(err.message).toMatch(/SESSION_SECRET differs/);
      expect(err.message).toMatch(/SESSION_SECRET_ROTATE=1/);
      // A node without SESSION_SECRET (the generated one) does not match either.
      await expect(resolveSessionSecret(db, undefined, { shared: true })).rejects.toThrow(/SESSION_SECRET is not set on this node/);
      // Only a fingerprint is stored, never the secret.
      const rows = (await other.database.pool.query('select name, value from app_secrets')).rows;
      expect(rows.find((r) => r.name === 'session-fingerprint')?.value).toBe(secretFingerprint(SECRET_A));
      expect(JSON.stringify(rows)).not.toContain(SECRET_A);
      // Rotation on purpose: B replaces A, and then A is the odd one out.
      expect(await resolveSessionSecret(db, SECRET_B, { shared: true, rotate: true })).toBe(SECRET_B);
      expect(await resolveSessionSecret(db, SECRET_B, { shared: true })).toBe(SECRET_B);
      await expect(resolveSessionSecret(db, SECRET_A, { shared: true })).rejects.toThrow(ConfigError);
    } finally { await other.close(); }
  });

  it.skipIf(!process.env.DATABASE_URL)('startServer on PostgreSQL: a second node with another SESSION_SECRET exits with the ConfigError; SESSION_SECRET_ROTATE=1 lets it start', async () => {
    const fresh = await freshPostgres(process.env.DATABASE_URL!);
    const dirs = [0, 1, 2].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'college-secret-')));
    const env = (i: number, secret: string, extra: Record<string, string> = {}) => ({ DATABASE_URL: fresh.url, DATA_DIR: dirs[i], PORT: '0', HOST: '127.0.0.1', SITE_BUILD: 'never', SHUTDOWN_GRACE_MS: '0', SESSION_SECRET: secret, ...extra });
    try {
      const a = await startServer(env(0, SECRET_A));
      await a.close();
      const err = await startServer(env(1, SECRET_B)).then(async (s) => { await s.close(); return null; }, (e) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect(String(err?.message)).toMatch(/SESSION_SECRET differs/);
      const rotated = await startServer(env(2, SECRET_B, { SESSION_SECRET_ROTATE: '1' }));
      await rotated.close();
    } finally {
      await fresh.drop();
      for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    }
  }, 60_000);
});
