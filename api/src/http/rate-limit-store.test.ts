/**
 * Shared rate-limit store (issue #8 "Two instances", issue #4): limits count across API instances on one
 * database, windows reset, concurrent hits are counted exactly once each, and a database failure lets requests through.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import express from 'express';
import supertest from 'supertest';
import { sql } from 'drizzle-orm';
import { startTestApp, startSecondInstance, signUpStudent, uniqueEmail, DB_KIND, type TestApp } from '../test/harness.ts';
import { DbRateLimitStore, sharedRateLimit } from './rate-limit-store.ts';
import type { Db } from '../db/client.ts';

describe(`shared rate limits (${DB_KIND})`, () => {
  let t: TestApp;
  let second: Awaited<ReturnType<typeof startSecondInstance>>;
  beforeAll(async () => {
    t = await startTestApp({ LOGIN_RATE_LIMIT: '3' });
    second = await startSecondInstance(t);
  });
  afterAll(async () => { await second?.close(); await t?.close(); });

  const login = (via: { request(): supertest.Agent }, email: string, password: string) =>
    via.request().post('/api/auth/login').send({ email, password });

  it('failed logins spread over two instances count together: the per-account limit holds across instances', async () => {
    const { email, password } = await signUpStudent(t);
    // LOGIN_RATE_LIMIT 3: the account asks for a proof-of-work after 3 failures from all addresses (login-throttle.ts).
    expect((await login(t, email, 'wrong-1-pw')).status).toBe(401);
    // One failure from this address already asks this account+address pair for the proof, on the other instance too.
    const asked = await login(second, email, password);
    expect(asked.status).toBe(429);
    expect(asked.body.error.code).toBe('challenge_required');
    expect((await login(t, email, password)).body.error.code).toBe('challenge_required');
    const rows = await t.database.db.execute(sql`SELECT hits FROM rate_limits WHERE key = ${`login-fail:acct:${email}`}`);
    expect((rows as any).rows[0].hits).toBe(1);
  });

  it('the window resets: once reset_at has passed, the account can sign in again without a proof', async () => {
    const { email, password } = await signUpStudent(t);
    expect((await login(second, email, 'wrong-0-pw')).status).toBe(401);
    expect((await login(t, email, password)).status).toBe(429);
    await t.database.db.execute(sql`UPDATE rate_limits SET reset_at = now() - interval '1 second' WHERE key LIKE ${`login-fail:%${email}%`}`);
    expect((await login(second, email, password)).status).toBe(200);
  });

  it('the store opens a new window once reset_at has passed', async () => {
    const store = new DbRateLimitStore(t.database.db, 'moved:');
    store.init({ windowMs: 60_000 } as any);
    await store.increment('k');
    expect((await store.increment('k')).totalHits).toBe(2);
    await t.database.db.execute(sql`UPDATE rate_limits SET reset_at = now() - interval '1 second' WHERE key = 'moved:k'`);
    expect(await store.get('k')).toBeUndefined();
    const next = await store.increment('k');
    expect(next.totalHits).toBe(1);
    expect(next.resetTime!.getTime()).toBeGreaterThan(Date.now() + 50_000);
  });

  it('a very short window expires on its own', async () => {
    const store = new DbRateLimitStore(t.database.db, 'short:');
    store.init({ windowMs: 300 } as any);
    const key = uniqueEmail('short');
    expect((await store.increment(key)).totalHits).toBe(1);
    expect((await store.increment(key)).totalHits).toBe(2);
    await new Promise((r) => setTimeout(r, 400));
    expect(await store.get(key)).toBeUndefined();
    expect((await store.increment(key)).totalHits).toBe(1);
  });

  it('concurrent hits from two stores on one key are each counted exactly once', async () => {
    const a = new DbRateLimitStore(t.database.db, 'race:');
    const b = new DbRateLimitStore(t.database.db, 'race:');
    a.init({ windowMs: 60_000 } as any);
    b.init({ windowMs: 60_000 } as any);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).increment('same')));
    expect(results.map((r) => r.totalHits).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(new Set(results.map((r) => r.resetTime!.getTime())).size).toBe(1);
  });

  it('a database error lets the request through (logged), instead of locking people out', async () => {
    const broken = new Proxy({}, { get: () => () => { throw new Error('database unavailable'); } }) as unknown as Db;
    const logged: unknown[] = [];
    const limiter = sharedRateLimit(broken, 'broken:', {
      windowMs: 60_000, limit: 1, standardHeaders: 'draft-8', legacyHeaders: false,
      logger: { error: (...args: unknown[]) => { logged.push(args); }, warn: () => {} } as any,
    });
    const app = express().use(limiter).get('/', (_req, res) => { res.json({ ok: true }); });
    for (let i = 0; i < 3; i++) expect((await supertest(app).get('/')).status).toBe(200);
    expect(logged).toHaveLength(3);
  });
});
