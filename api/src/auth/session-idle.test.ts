/**
 * The idle limit as the browser learns it (WCAG 2.2.1 Timing Adjustable; site/islands/admin/idle-watch.ts): each /api
 * answer of a live cookie session carries `Server-Timing: idle;dur=<ms left>, idle-limit;dur=<limit ms>` from the
 * lastSeen it leaves (api/contracts/session-idle.ts), and GET /api/auth/me — the session check, what "Stay logged in"
 * sends — extends an admin's login that is about to end by its whole limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { startTestApp, DB_KIND, signInAdmin, signUpStudent, type TestApp } from '../test/harness.ts';
import { authTokens } from '../db/schema/users.ts';
import { BACKGROUND_HEADER, IDLE_LIMIT_MS } from '#contracts/session-idle.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t?.close(); });

/** Moves the last activity of `userId`'s sessions and tokens to `ms` ago (what idle time does). */
async function idle(userId: number, ms: number): Promise<void> {
  const then = Date.now() - ms;
  await t.database.db.execute(sql`UPDATE "session" SET sess = jsonb_set(sess::jsonb, '{lastSeen}', to_jsonb(${then}::bigint))::json WHERE (sess->'passport'->>'user')::int = ${userId}`);
  await t.database.db.update(authTokens).set({ lastUsedAt: new Date(then) }).where(eq(authTokens.userId, userId));
}

/** The metrics of a Server-Timing header as name → dur (ms); {} without one. */
function timing(header: string | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of (header ?? '').split(',')) {
    const m = /^\s*([\w-]+)\s*;\s*dur=([\d.]+)/.exec(part);
    if (m) out[m[1]!] = Number(m[2]);
  }
  return out;
}

describe(`idle limit in Server-Timing, extended by the session check (${DB_KIND})`, () => {
  it('an admin 29 minutes idle: GET /api/auth/me answers 200 with the whole 30 minutes left, and the login then outlives its old deadline', async () => {
    const a = await signInAdmin(t);
    await idle(a.user.id, 29 * 60_000);
    const me = await a.agent.get('/api/auth/me').set('Authorization', `Bearer ${a.token}`);
    expect(me.status).toBe(200);
    const m = timing(me.headers['server-timing']);
    expect(m['idle-limit']).toBe(IDLE_LIMIT_MS.admin);
    expect(m.idle).toBe(IDLE_LIMIT_MS.admin); // touched now: the whole limit again
    // Past the old deadline (29 + 2 minutes after the activity before the check), 2 minutes after the check.
    const stored = await t.database.db.execute(sql`SELECT (sess->>'lastSeen')::bigint AS seen FROM "session" WHERE (sess->'passport'->>'user')::int = ${a.user.id}`);
    expect(Date.now() - Number((stored as unknown as { rows: { seen: string | number }[] }).rows[0]!.seen)).toBeLessThan(60_000);
    await idle(a.user.id, 2 * 60_000);
    expect((await a.agent.get('/api/admin/stats').set('Authorization', `Bearer ${a.token}`)).status).toBe(200);
  });

  it('within the minute after a touch nothing is written, and the answer says the time left from that touch', async () => {
    const a = await signInAdmin(t);
    await idle(a.user.id, 30_000);
    const me = await a.agent.get('/api/auth/me');
    expect(me.status).toBe(200);
    const left = timing(me.headers['server-timing']).idle!;
    expect(left).toBeLessThanOrEqual(IDLE_LIMIT_MS.admin - 30_000);
    expect(left).toBeGreaterThan(IDLE_LIMIT_MS.admin - 60_000);
  });

  it("a student's answers carry the student limit; an ended login's and an anonymous one's carry none", async () => {
    const s = await signUpStudent(t);
    const me = await s.agent.get('/api/auth/me');
    expect(timing(me.headers['server-timing'])['idle-limit']).toBe(IDLE_LIMIT_MS.student);
    const a = await signInAdmin(t);
    await idle(a.user.id, 31 * 60_000);
    const ended = await a.agent.get('/api/auth/me');
    expect(ended.status).toBe(401);
    expect(ended.headers['server-timing']).toBeUndefined();
    expect((await t.request().get('/api/courses')).headers['server-timing']).toBeUndefined();
  });
  it('a poll of an unattended tab (BACKGROUND_HEADER) is told the time left but does not keep the login alive, by cookie or by token', async () => {
    const a = await signInAdmin(t);
    await idle(a.user.id, 20 * 60_000);
    // The dashboard's site-build poll, as api() sends it once nobody has touched the page for a minute.
    const poll = await a.agent.get('/api/admin/site-build').set('Authorization', `Bearer ${a.token}`).set(BACKGROUND_HEADER, '1');
    expect(poll.status).toBe(200);
    const left = timing(poll.headers['server-timing']).idle!;
    expect(left).toBeLessThanOrEqual(IDLE_LIMIT_MS.admin - 20 * 60_000);
    expect(left).toBeGreaterThan(IDLE_LIMIT_MS.admin - 21 * 60_000);
    // 31 minutes after the last real activity, with polls all along: the login has ended, for the cookie and the token.
    await idle(a.user.id, 31 * 60_000);
    expect((await a.agent.get('/api/admin/site-build').set(BACKGROUND_HEADER, '1')).status).toBe(401);
    expect((await t.request().get('/api/auth/me').set('Authorization', `Bearer ${a.token}`)).status).toBe(401);

    // A request someone made (no header) still counts: 20 minutes idle, then a click gives the whole limit again.
    const b = await signInAdmin(t);
    await idle(b.user.id, 20 * 60_000);
    const click = await b.agent.get('/api/admin/stats').set('Authorization', `Bearer ${b.token}`);
    expect(click.status).toBe(200);
    expect(timing(click.headers['server-timing']).idle).toBe(IDLE_LIMIT_MS.admin);
  });
});
