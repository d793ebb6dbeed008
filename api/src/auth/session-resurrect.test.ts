/**
 * Ended logins stay ended (security audit HIGH, 2026-11-28): a request still running when its session is ended (log
 * out everywhere, a password change, a promotion to admin, a logout in the same browser) used to write the session
 * back when it finished (connect-pg-simple's set is an upsert; every request touched lastSeen once a minute), and the
 * stolen or pre-promotion cookie was signed in again. The request is held open the way the audit did: a multipart
 * upload whose body is sent only after the session was ended.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { startTestApp, signUpStudent, uniqueEmail, DB_KIND, type TestApp } from '../test/harness.ts';
import { ensureAdmin } from '../features/auth/auth.service.ts';
import { endAllSessions } from './session.ts';
import { authTokens, users } from '../db/schema/users.ts';
import { sha256 } from './tokens.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** The `name=value` of the college.sid cookie among `setCookie` lines, or undefined. */
const sidOf = (setCookie: string[] | string | undefined) =>
  ([] as string[]).concat(setCookie ?? []).find((c) => c.startsWith('college.sid='))?.split(';')[0];

/** Registers a student with `email` and returns its session cookie, session id, user id, bearer token and password. */
async function signedIn(email = uniqueEmail('race')) {
  const s = await signUpStudent(t, { email });
  const res = await t.request().post('/api/auth/login').send({ email: s.email, password: s.password });
  const cookie = sidOf(res.headers['set-cookie'])!;
  const sid = decodeURIComponent(cookie.slice('college.sid='.length)).slice(2).split('.')[0]!;
  return { cookie, sid, userId: s.user.id as number, token: res.body.token as string, email: s.email, password: s.password };
}

/** Moves lastSeen of every stored session of `userId` 61 s into the past: the next request touches it. */
async function ageLastSeen(userId: number): Promise<number> {
  const aged = Date.now() - 61_000;
  await t.database.db.execute(sql`UPDATE "session" SET sess = jsonb_set(sess::jsonb, '{lastSeen}', to_jsonb(${aged}::bigint))::json
    WHERE (sess->'passport'->>'user')::int = ${userId}`);
  return aged;
}

/**
 * Starts POST /api/uploads with `headers` and only the start of its body, and waits until the app has signed the
 * request in (passport set req.user). `finish()` sends the rest and resolves to the status and Set-Cookie lines.
 */
async function slowUpload(headers: Record<string, string>) {
  let seen: any;
  // Express rewrites req.url while it routes (the app's own 'request' listener runs first); originalUrl keeps it.
  const watch = (req: any) => { if ((req.originalUrl ?? req.url) === '/api/uploads') seen = req; };
  t.server.on('request', watch);
  const b = '----slow' + Date.now();
  const head = Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${b}--\r\n`);
  const u = new URL(t.url);
  let req!: http.ClientRequest;
  const answer = new Promise<{ status: number; setCookie: string[] }>((resolve, reject) => {
    req = http.request({ host: u.hostname, port: u.port, path: '/api/uploads', method: 'POST', headers: {
      ...headers, 'content-type': `multipart/form-data; boundary=${b}`, 'content-length': String(head.length + PDF.length + tail.length) } }, (res) => {
      res.resume(); res.on('end', () => resolve({ status: res.statusCode!, setCookie: ([] as string[]).concat(res.headers['set-cookie'] ?? []) }));
    });
    req.on('error', reject);
  });
  req.write(head);
  await vi.waitFor(() => expect(seen?.user).toBeTruthy(), { timeout: 20_000, interval: 20 });
  t.server.off('request', watch);
  return { finish: () => { req.write(PDF); req.end(tail); return answer; } };
}

const me = (cookie: string) => t.request().get('/api/auth/me').set('Cookie', cookie);

describe(`ended logins stay ended while one of their requests is running (${DB_KIND})`, () => {
  it('endAllSessions during a request: after it ends, the session is still signed out', async () => {
    const s = await signedIn();
    await ageLastSeen(s.userId);
    const upload = await slowUpload({ cookie: s.cookie });
    await endAllSessions(t.database.db, s.userId);
    expect((await me(s.cookie)).status).toBe(401);
    const done = await upload.finish();
    expect(done.status).toBe(201);
    expect((await me(s.cookie)).status, 'the ended session came back when its upload finished').toBe(401);
  });

  it('a password change from another device during a thief\'s request: the stolen cookie stays signed out', async () => {
    const victim = await signedIn();
    const thief = await t.request().post('/api/auth/login').send({ email: victim.email, password: victim.password });
    const stolen = sidOf(thief.headers['set-cookie'])!;
    await ageLastSeen(victim.userId);
    const upload = await slowUpload({ cookie: stolen });
    const changed = await t.request().post('/api/profile/password').set('Cookie', victim.cookie)
      .send({ currentPassword: victim.password, password: 'Fresh-pass-9999', confirmPassword: 'Fresh-pass-9999' });
    expect(changed.status).toBe(200);
    await upload.finish();
    expect((await me(stolen)).status, 'the stolen session came back after the password change').toBe(401);
  });

  it('a promotion to admin (ensureAdmin) during a request: the earlier session neither comes back nor becomes admin', async () => {
    const email = uniqueEmail('registrar');
    const s = await signedIn(email);
    await ageLastSeen(s.userId);
    const upload = await slowUpload({ cookie: s.cookie });
    await ensureAdmin(t.database.db, email, 'Operator-pass-2026');
    await upload.finish();
    const after = await me(s.cookie);
    expect([after.status, after.body.user?.role], 'the pre-promotion session signed in as admin').toEqual([401, undefined]);
    expect((await t.request().get('/api/admin/students').set('Cookie', s.cookie)).status).toBe(401);
  });

  it('a logout in the same browser during an upload: its answer sets no session cookie and the old one stays signed out', async () => {
    const s = await signedIn();
    await ageLastSeen(s.userId);
    const upload = await slowUpload({ cookie: s.cookie, authorization: `Bearer ${s.token}` });
    const out = await t.request().post('/api/auth/logout').set('Cookie', s.cookie).set('Authorization', `Bearer ${s.token}`);
    expect(out.status).toBe(200);
    const done = await upload.finish();
    expect(done.status).toBe(201);
    expect(sidOf(done.setCookie), 'the upload answer set the logged-out session cookie again').toBeUndefined();
    expect((await me(s.cookie)).status).toBe(401);
    expect((await t.request().get('/api/auth/me').set('Authorization', `Bearer ${s.token}`)).status).toBe(401);
  });

  it('a session row written back after endAllSessions (an older node, a restore) is refused: its login generation is old', async () => {
    const s = await signedIn();
    const [row] = (await t.database.pool.query(`SELECT sid, sess::text AS sess, expire FROM "session" WHERE sid = $1`, [s.sid])).rows;
    await endAllSessions(t.database.db, s.userId);
    await t.database.pool.query(`INSERT INTO "session" (sid, sess, expire) VALUES ($1, $2::json, $3)`, [row.sid, row.sess, row.expire]);
    expect((await me(s.cookie)).status).toBe(401);
  });

  it('a bearer token left unrevoked across endAllSessions (an older node, a restore) is refused and revoked', async () => {
    const s = await signedIn();
    await endAllSessions(t.database.db, s.userId);
    await t.database.db.update(authTokens).set({ revokedAt: null }).where(eq(authTokens.userId, s.userId));
    expect((await t.request().get('/api/auth/me').set('Authorization', `Bearer ${s.token}`)).status).toBe(401);
    const [row] = await t.database.db.select({ revokedAt: authTokens.revokedAt }).from(authTokens).where(eq(authTokens.tokenHash, sha256(s.token)));
    expect(row!.revokedAt).not.toBeNull();
  });

  it('a role changed in the database without ending sessions ends the session (never admin on a student login)', async () => {
    const s = await signedIn();
    await t.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, s.userId));
    expect((await me(s.cookie)).status).toBe(401);
  });

  it('an ordinary read after a minute touches lastSeen in the row without saving the session or sending Set-Cookie', async () => {
    const s = await signedIn();
    const aged = await ageLastSeen(s.userId);
    const res = await me(s.cookie);
    expect([res.status, sidOf(res.headers['set-cookie'])]).toEqual([200, undefined]);
    const { rows } = await t.database.pool.query(`SELECT (sess->>'lastSeen')::bigint AS seen FROM "session" WHERE sid = $1`, [s.sid]);
    expect(Number(rows[0].seen)).toBeGreaterThan(aged);
  });
});
