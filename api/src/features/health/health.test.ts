/**
 * GET /api/colfront/health as a balancer reads it (README "Running several nodes"): 200 only when this node can
 * serve what it serves — the API and, unless SITE_BUILD=never or a build hook, a live static site.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import supertest from 'supertest';
import { sql } from 'drizzle-orm';
import { createApp } from '../../app.ts';
import type { SiteHandle, SiteStatus } from '../../site-build/serve.ts';
import { startTestApp, DB_KIND, uniqueEmail, validRegistration, type TestApp } from '../../test/harness.ts';
import { ensureAdmin } from '../auth/auth.service.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

/** A site handle whose live build is `dir` (null: none yet) in state `state`. */
const site = (dir: string | null, state: SiteStatus['state']): SiteHandle => ({ dir: () => dir, status: () => ({ state, failures: state === 'failed' ? 2 : 0, retryInMs: null }) });
const health = (deps: Partial<Parameters<typeof createApp>[0]>) => supertest(createApp({ ...t.deps, ...deps })).get('/api/colfront/health');

describe(`GET /api/colfront/health (${DB_KIND})`, () => {
  it('a node that serves the site answers 503 STARTING until a build is live (page traffic would get the "starting" page)', async () => {
    const building = await health({ site: site(null, 'building') });
    expect(building.status).toBe(503);
    expect(building.body).toMatchObject({ status: 'STARTING', site: { state: 'building' } });
    const failed = await health({ site: site(null, 'failed') });
    expect(failed.status).toBe(503);
    expect(failed.body).toMatchObject({ status: 'STARTING', site: { state: 'failed', failures: 2 } });
    const ready = await health({ site: site('/srv/site/builds/1', 'ready') });
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'OK', site: { state: 'ready' } });
  });

  it('API only (SITE_BUILD=never) or a site published by a build hook: 200 without a local build', async () => {
    expect((await health({ site: site(null, 'disabled'), config: { ...t.config, SITE_BUILD: 'never' } })).status).toBe(200);
    expect((await health({ site: site(null, 'building'), config: { ...t.config, SITE_BUILD_HOOK_URL: 'https://cdn.example/hook' } })).status).toBe(200);
    expect((await health({})).status).toBe(200);
  });

  it('reports the start-up document check ({checked, missing}) and stays 200 with documents missing (backup and restore audit)', async () => {
    const res = await health({ documents: () => ({ checked: 50, missing: 3 }) });
    expect(res.status).toBe(200);
    expect(res.body.documents).toEqual({ checked: 50, missing: 3 });
    expect((await health({ documents: () => null })).body.documents).toBeUndefined();
  });

  it('answers 503 STOPPING once a graceful stop began, whatever the rest', async () => {
    const res = await health({ site: site('/srv/site/builds/1', 'ready'), stopping: () => true });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 'STOPPING' });
  });

  it('reports the mail and SMS backlog (pending, age of the oldest pending, failed) and stays 200 with a backlog', async () => {
    await t.database.db.execute(sql`INSERT INTO mail_outbox ("to", subject, text, created_at) VALUES ('backlog@example.com', 'Waiting', 'x', now() - interval '2 hours')`);
    await t.database.db.execute(sql`INSERT INTO mail_outbox ("to", subject, text, status) VALUES ('dead@example.com', 'Given up', 'x', 'failed')`);
    const res = await health({});
    expect(res.status).toBe(200);
    expect(res.body.outbox.mail.pending).toBeGreaterThanOrEqual(1);
    expect(res.body.outbox.mail.oldestPendingSeconds).toBeGreaterThanOrEqual(7200);
    expect(res.body.outbox.mail.failed).toBeGreaterThanOrEqual(1);
    expect(res.body.outbox.sms).toMatchObject({ pending: expect.any(Number), failed: expect.any(Number) });
  });
});

describe(`GET /api/colfront/health details (${DB_KIND}; security audit 2026-11-28, LOW)`, () => {
  // supertest calls from 127.0.0.1; X-Forwarded-For marks a call that came through a proxy (HAProxy `option forwardfor`).
  const viaProxy = { 'X-Forwarded-For': '203.0.113.9' };
  const deps = { site: site('/srv/site/builds/1', 'ready'), documents: () => ({ checked: 50, missing: 3 }) };

  it('an anonymous caller through a proxy gets only {status, message} (spec §7), with the same status code', async () => {
    const res = await health(deps).set(viaProxy);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'OK', message: 'API is available' });
    const starting = await health({ ...deps, site: site(null, 'building') }).set(viaProxy);
    expect(starting.status).toBe(503);
    expect(starting.body).toEqual({ status: 'STARTING', message: 'API is available; the site is not ready yet' });
  });

  it('a signed-in student gets no details either; an admin does (outbox, documents, site)', async () => {
    const app = createApp({ ...t.deps, ...deps });
    const student = supertest.agent(app);
    expect((await student.post('/api/auth/register').send(validRegistration())).status).toBe(201);
    expect((await student.get('/api/colfront/health').set(viaProxy)).body).toEqual({ status: 'OK', message: 'API is available' });
    const email = uniqueEmail('admin');
    await ensureAdmin(t.database.db, email, 'admin-pass-123');
    const admin = supertest.agent(app);
    expect((await admin.post('/api/auth/login').send({ email, password: 'admin-pass-123' })).status).toBe(200);
    const res = await admin.get('/api/colfront/health').set(viaProxy);
    expect(res.body).toMatchObject({ status: 'OK', site: { state: 'ready' }, documents: { checked: 50, missing: 3 }, outbox: { mail: expect.any(Object) } });
  });

  it('a direct call from this machine (no proxy headers: an operator\'s curl, a check on the host) keeps the details', async () => {
    const res = await health(deps);
    expect(res.body).toMatchObject({ status: 'OK', documents: { checked: 50, missing: 3 }, outbox: expect.any(Object) });
  });
});
