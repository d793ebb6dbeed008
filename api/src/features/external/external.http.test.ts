import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signInAdmin, DB_KIND, type TestApp } from '../../test/harness.ts';
import { startStubRemote, STUB_ACCOUNT, type StubRemote } from '../../test/external.stub.ts';

let stub: StubRemote;
let t: TestApp;
let admin: Awaited<ReturnType<typeof signInAdmin>>;

beforeAll(async () => {
  stub = await startStubRemote();
  t = await startTestApp({ EXTERNAL_DRIVER: 'http', EXTERNAL_API_URL: stub.url });
  admin = await signInAdmin(t);
});
afterAll(async () => { await t.close(); await stub.close(); });

const connect = async () => {
  const res = await admin.agent.post('/api/external/login').send(STUB_ACCOUNT);
  expect(res.status).toBe(200);
  return res;
};

describe(`external system, http driver against a stub remote (${DB_KIND})`, () => {
  it('GET /health › OK when the remote answers status OK', async () => {
    const res = await admin.agent.get('/api/external/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'OK', driver: 'http' });
  });

  it('POST /login › checks the remote credentials; the remote token stays on the server', async () => {
    const bad = await admin.agent.post('/api/external/login').send({ ...STUB_ACCOUNT, password: 'wrong-password' });
    expect(bad.status).toBe(401);
    expect(bad.body.error).toMatchObject({ code: 'external_login_failed', message: 'Invalid email or password' });
    const ok = await connect();
    expect(ok.body.user).toEqual({ id: 'U1', email: STUB_ACCOUNT.email, name: 'Remote Clerk' });
    expect(JSON.stringify(ok.body)).not.toMatch(/token/i);
    const me = await admin.agent.get('/api/external/me');
    expect(me.body.user.name).toBe('Remote Clerk');
  });

  it('a portal log-out also logs the remote token out (it no longer opens the remote system)', async () => {
    const other = await signInAdmin(t);
    expect((await other.agent.post('/api/external/login').send(STUB_ACCOUNT)).status).toBe(200);
    expect((await other.agent.get('/api/external/branches')).status).toBe(200);
    const token = String(stub.requests.at(-1)!.headers.authorization).replace(/^Bearer /, '');
    expect(stub.tokens.has(token)).toBe(true);
    expect((await other.agent.post('/api/auth/logout')).status).toBe(200);
    await expect.poll(() => stub.tokens.has(token)).toBe(false);
  });

  it('branches, students, payments › read from the remote with the bearer token', async () => {
    await connect();
    const branches = await admin.agent.get('/api/external/branches');
    expect(branches.status).toBe(200);
    expect(branches.body.branches).toEqual([
      { id: 'B1', name: 'Remote North', location: '1 North Road', established: 2001, studentCount: 1 },
      { id: 'B2', name: 'Remote South', location: '2 South Road', established: 2010, studentCount: 0 },
    ]);
    const last = stub.requests.at(-1)!;
    expect(last.headers.authorization).toMatch(/^Bearer [0-9a-f]{32}$/);
    const tab = await admin.agent.get('/api/external/branches/B2/students');
    expect(tab.body.students.map((s: any) => s.name)).toEqual(['Sipho Nkosi']);
    expect((await admin.agent.get('/api/external/branches/B9/students')).status).toBe(404);
    const students = await admin.agent.get('/api/external/students?search=lerato&status=active');
    expect(students.body.students.map((s: any) => s.id)).toEqual(['S1']);
    expect(stub.requests.at(-1)!.path).toBe('/students?search=lerato&status=active&page=1&pageSize=50');
  });

  it('POST /payments › validated here first, forwarded with the Idempotency-Key, a double submit recorded once', async () => {
    await connect();
    const invalid = await admin.agent.post('/api/external/payments').send({ studentId: 'S1', amount: '1.999' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.fields.amount).toBe('Amount can have at most 2 decimal places');
    const before = stub.payments.length;
    const key = 'double-submit-0001';
    const body = { studentId: 'S1', amount: 250, description: 'Books' };
    const a = await admin.agent.post('/api/external/payments').set('Idempotency-Key', key).send(body);
    const b = await admin.agent.post('/api/external/payments').set('Idempotency-Key', key).send(body);
    expect(a.status).toBe(201);
    expect(b.status).toBe(200);
    expect(b.body.payment.id).toBe(a.body.payment.id);
    expect(stub.payments.length).toBe(before + 1);
    expect(stub.payments.at(-1)).toMatchObject({ amount: '250.00', currency: 'ZAR', method: 'card', studentName: 'Lerato Dube' });
    expect(stub.requests.at(-1)!.headers['idempotency-key']).toMatch(/:double-submit-0001$/);

    const unknown = await admin.agent.post('/api/external/payments').send({ studentId: 'S404', amount: '5' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.fields.studentId).toBe('Student not found');

    const list = await admin.agent.get('/api/external/payments');
    expect(list.body.totals).toEqual([{ currency: 'ZAR', amount: '250.00', count: 1 }]);
  });

  it('paging › passed to the remote; a remote that sends every row (no total) is paged here, totals over every row', async () => {
    await connect();
    for (const amount of ['10', '20', '30']) expect((await admin.agent.post('/api/external/payments').send({ studentId: 'S2', amount })).status).toBe(201);
    const all = stub.payments.length;
    const page = await admin.agent.get('/api/external/payments?page=2&pageSize=2');
    expect(stub.requests.at(-1)!.path).toBe('/payments?page=2&pageSize=2');
    expect(page.body).toMatchObject({ total: all, page: 2, pageSize: 2, pages: Math.ceil(all / 2) });
    expect(page.body.payments.map((p: any) => p.id)).toEqual([...stub.payments].reverse().slice(2, 4).map((p) => p.id));
    const sum = stub.payments.reduce((n, p) => n + Number(p.amount), 0).toFixed(2);
    expect(page.body.totals).toEqual([{ currency: 'ZAR', amount: sum, count: all }]);
    const csv = (await admin.agent.get('/api/external/payments.csv')).text.trimEnd().split('\n');
    expect(csv).toHaveLength(all + 1);
    const students = await admin.agent.get('/api/external/students?pageSize=1&page=2');
    expect(students.body).toMatchObject({ total: 2, pages: 2 });
    expect(students.body.students.map((s: any) => s.id)).toEqual(['S2']);
  });

  it('remote session gone › 401 external_login_required and the portal forgets it', async () => {
    await connect();
    stub.tokens.clear();
    const res = await admin.agent.get('/api/external/branches');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('external_login_required');
    expect((await admin.agent.get('/api/external/me')).body).toMatchObject({ user: null });
  });

  it('remote failing with 500 › 502 with a clear message', async () => {
    await connect();
    stub.mode = 'error';
    try {
      const res = await admin.agent.get('/api/external/branches');
      expect(res.status).toBe(502);
      expect(res.body.error).toEqual({ code: 'external_unavailable', message: 'Could not connect to external API' });
    } finally { stub.mode = 'ok'; }
  });

  it('remote slow › 504 in under 5 s while the portal keeps answering', async () => {
    await connect();
    stub.mode = 'slow'; stub.delayMs = 15_000;
    try {
      const started = Date.now();
      const slow = admin.agent.get('/api/external/payments');
      const portal = await t.request().get('/api/courses');
      expect(portal.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(2000);
      const res = await slow;
      const took = Date.now() - started;
      expect(res.status).toBe(504);
      expect(res.body.error.code).toBe('external_timeout');
      expect(took).toBeLessThan(5000);
      const health = await admin.agent.get('/api/external/health');
      expect(health.status).toBe(504);
    } finally { stub.mode = 'ok'; }
  }, 20_000);

  it('remote down › health and data answer 502 "Could not connect to external API" at once', async () => {
    await connect();
    await stub.close();
    const started = Date.now();
    const health = await admin.agent.get('/api/external/health');
    expect(health.status).toBe(502);
    expect(health.body.error.message).toBe('Could not connect to external API');
    const data = await admin.agent.get('/api/external/students');
    expect(data.status).toBe(502);
    expect(Date.now() - started).toBeLessThan(2000);
    expect((await t.request().get('/api/courses')).status).toBe(200);
  });
});
