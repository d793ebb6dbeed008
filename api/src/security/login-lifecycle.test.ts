/**
 * Issue #12 findings 2 and 3: promotion to admin ends the account's sessions and tokens (ASVS 5.0 V7.4.3),
 * bearer tokens have the role's idle and absolute limits (V7.3.1, V7.3.2) and a logout through either half
 * of a login — cookie or token — ends both (V7.4.1). Requests send the cookie AND the token together, as
 * the site's api-client does (`Authorization: Bearer <localStorage authToken>` plus cookies).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { startTestApp, DB_KIND, uniqueEmail, type TestApp } from '../test/harness.ts';
import { authTokens } from '../db/schema/users.ts';
import { ensureAdmin, registerStudent } from '../features/auth/auth.service.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t?.close(); });

/** Logs in through the API; returns the cookie agent, the token and a `me` that sends cookie, token or both. */
async function login(email: string, password: string, rememberMe = false) {
  const agent = t.request();
  const res = await agent.post('/api/auth/login').send({ email, password, rememberMe });
  if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
  const token = res.body.token as string;
  const userId = res.body.user.id as number;
  return {
    agent, token, userId,
    /** GET /api/auth/me with the cookie and the token (the browser), or one of them. */
    me: (via: 'both' | 'cookie' | 'token' = 'both') => {
      if (via === 'token') return t.request().get('/api/auth/me').set('Authorization', `Bearer ${token}`);
      const r = agent.get('/api/auth/me');
      return via === 'both' ? r.set('Authorization', `Bearer ${token}`) : r;
    },
  };
}

async function student() {
  const email = uniqueEmail('life');
  await registerStudent(t.database.db, { email, password: 'secret123', firstName: 'Life', lastName: 'Cycle' });
  return { email, ...(await login(email, 'secret123')) };
}

/** Moves the last activity of `userId`'s sessions and tokens `ms` into the past (what idle time does). */
async function idle(userId: number, ms: number) {
  const then = Date.now() - ms;
  await t.database.db.execute(sql`UPDATE "session" SET sess = jsonb_set(sess::jsonb, '{lastSeen}', to_jsonb(${then}::bigint))::json WHERE (sess->'passport'->>'user')::int = ${userId}`);
  await t.database.db.update(authTokens).set({ lastUsedAt: new Date(then) }).where(eq(authTokens.userId, userId));
}

describe(`finding 2: promotion ends sessions (${DB_KIND})`, () => {
  it('V7.4.3 promotion › ADMIN_EMAIL / admin:create promoting an account ends its cookie sessions and bearer tokens; a restart with the same password signs nobody out', async () => {
    const s = await student();
    const second = await login(s.email, 'secret123');
    expect((await s.me()).status).toBe(200);
    const promoted = await ensureAdmin(t.database.db, s.email, 'new-admin-pass-1');
    expect(promoted.role).toBe('admin');
    for (const l of [s, second]) {
      expect((await l.me('both')).status).toBe(401);
      expect((await l.me('cookie')).status).toBe(401);
      expect((await l.me('token')).status).toBe(401);
      expect((await t.request().get('/api/admin/stats').set('Authorization', `Bearer ${l.token}`)).status).toBe(401);
    }
    const adminLogin = await login(s.email, 'new-admin-pass-1');
    expect((await adminLogin.me()).body.user.role).toBe('admin');
    await ensureAdmin(t.database.db, s.email, 'new-admin-pass-1');
    expect((await adminLogin.me('cookie')).status).toBe(200);
    expect((await adminLogin.me('token')).status).toBe(200);
    await ensureAdmin(t.database.db, s.email, 'another-pass-22');
    expect((await adminLogin.me('both')).status).toBe(401);
  });
});

describe(`finding 3: bearer tokens share the login's limits (${DB_KIND})`, () => {
  it('V7.3.1 idle timeout › an admin idle for 31 minutes is signed out even though the browser also sends the bearer token', async () => {
    const email = uniqueEmail('idle-admin');
    await ensureAdmin(t.database.db, email, 'admin-pass-123');
    const a = await login(email, 'admin-pass-123');
    expect((await a.me('both')).status).toBe(200);
    await idle(a.userId, 29 * 60_000);
    expect((await a.me('both')).status).toBe(200);
    await idle(a.userId, 31 * 60_000);
    expect((await a.me('both')).status).toBe(401);
    expect((await a.me('token')).status).toBe(401);
    expect((await a.me('cookie')).status).toBe(401);
  });

  it('V7.3.1 idle timeout › a token used alone has the role idle limit too: a student token survives 1 h idle, not 2 h', async () => {
    const s = await student();
    await idle(s.userId, 60 * 60_000);
    expect((await s.me('token')).status).toBe(200);
    await idle(s.userId, 2 * 3600_000 + 60_000);
    expect((await s.me('token')).status).toBe(401);
    const [row] = await t.database.db.select().from(authTokens).where(eq(authTokens.tokenHash, (await import('../auth/tokens.ts')).sha256(s.token)));
    expect(row.revokedAt).not.toBeNull();
  });

  it('V7.3.2 absolute lifetime › a token past its absolute lifetime grants nothing, even while in use', async () => {
    const s = await student();
    await t.database.db.update(authTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(authTokens.userId, s.userId));
    expect((await s.me('token')).status).toBe(401);
  });

  it('V7.4.1 logout › logging out through the cookie alone also ends the token of that login', async () => {
    const s = await student();
    const other = await login(s.email, 'secret123');
    expect((await s.agent.post('/api/auth/logout')).status).toBe(200);
    expect((await s.me('token')).status).toBe(401);
    expect((await s.me('cookie')).status).toBe(401);
    // Another login of the same person (another device) is not touched.
    expect((await other.me('both')).status).toBe(200);
  });

  it('V7.4.1 logout › logging out through the token alone also ends the cookie session of that login', async () => {
    const s = await student();
    const out = await t.request().post('/api/auth/logout').set('Authorization', `Bearer ${s.token}`);
    expect(out.status).toBe(200);
    expect((await s.me('cookie')).status).toBe(401);
    expect((await s.me('token')).status).toBe(401);
  });

  it('reads do not write the session row: a signed-in GET within the minute leaves it untouched (no WAL write and commit per request)', async () => {
    const s = await student();
    const row = async () => ((await t.database.db.execute(sql`SELECT xmin::text AS version, expire FROM "session" WHERE (sess->'passport'->>'user')::int = ${s.userId}`)) as unknown as { rows: { version: string; expire: unknown }[] }).rows;
    expect((await s.me('both')).status).toBe(200);
    const before = await row();
    expect(before).toHaveLength(1);
    for (let i = 0; i < 3; i++) expect((await s.me('both')).status).toBe(200);
    expect(await row()).toEqual(before);
  });

  it('V7.4.1 logout › the browser\'s logout (cookie and token together) ends both', async () => {
    const s = await student();
    expect((await s.agent.post('/api/auth/logout').set('Authorization', `Bearer ${s.token}`)).status).toBe(200);
    expect((await s.me('both')).status).toBe(401);
    expect((await s.me('token')).status).toBe(401);
  });
});
