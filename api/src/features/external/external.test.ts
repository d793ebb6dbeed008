import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, signUpStudent, signInAdmin, insertUpload, validApplication, uniqueEmail, DB_KIND, type TestApp } from '../../test/harness.ts';
import { sql } from 'drizzle-orm';
import { ensureAdmin } from '../auth/auth.service.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInAdmin>>;
const ADMIN_EMAIL = uniqueEmail('ext-admin');
const ADMIN_PASSWORD = 'admin-pass-123';

beforeAll(async () => {
  t = await startTestApp();
  admin = await signInAdmin(t, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => { await t.close(); });

/**
 * The latest 22:30 UTC before now, and the South African day it is (00:30 SAST, the next UTC day): a moment when the
 * UTC date and the college's date differ. Up to 24 h ago, so a test signs in a session of its own under that clock:
 * the shared admin session, touched at a moment 12+ hours back, answered 401 to every later test (from 10:30 UTC on).
 */
function lateEveningUtc(): { at: Date; utcDay: string; saDay: string } {
  const at = new Date(); at.setUTCHours(22, 30, 0, 0);
  if (at.getTime() > Date.now()) at.setUTCDate(at.getUTCDate() - 1);
  return { at, utcDay: at.toISOString().slice(0, 10), saDay: new Date(at.getTime() + 86_400_000).toISOString().slice(0, 10) };
}

/** `id` written in letters (1203 → 'bcad'): a unique surname made only of what a name may hold (person-name.ts). */
const lettersOf = (id: number) => String(id).replace(/\d/g, (d) => String.fromCharCode(97 + Number(d)));

/** A student's application for course 1, accepted (or left pending) by the admin; returns its id. */
async function applicationWithStatus(status: 'accepted' | 'pending', courseId = 1): Promise<number> {
  const s = await signUpStudent(t);
  const docs = { idDocument: await insertUpload(t, s.user.id), transcripts: await insertUpload(t, s.user.id) };
  const res = await s.agent.post('/api/applications').send({ ...validApplication(courseId, docs), email: s.email, firstName: 'Naledi', lastName: `Zulu-${lettersOf(s.user.id)}` });
  expect(res.status).toBe(201);
  const id = res.body.application.id;
  if (status === 'accepted') expect((await admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'accepted' })).status).toBe(200);
  return id;
}

async function connect(agent = admin.agent) {
  const res = await agent.post('/api/external/login').send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  expect(res.status).toBe(200);
  return res;
}

const ROUTES: [string, string][] = [
  ['get', '/api/external/health'], ['post', '/api/external/login'], ['post', '/api/external/logout'], ['get', '/api/external/me'],
  ['get', '/api/external/branches'], ['get', '/api/external/branches/1/students'], ['get', '/api/external/students'],
  ['post', '/api/external/students'], ['post', '/api/external/students/from-application/1'], ['get', '/api/external/enrolable-applications'],
  ['get', '/api/external/payments'], ['get', '/api/external/payments.csv'], ['post', '/api/external/payments'],
];

describe(`external system, local driver (${DB_KIND})`, () => {
  it('every /api/external route › 401 for a visitor, 403 for a student', async () => {
    const student = await signUpStudent(t);
    for (const [method, path] of ROUTES) {
      const anon = await (t.request() as any)[method](path).send({});
      expect(anon.status, `${method} ${path} anonymous`).toBe(401);
      const denied = await (student.agent as any)[method](path).send({ email: student.email, password: student.password });
      expect(denied.status, `${method} ${path} student`).toBe(403);
      expect(denied.body.error.code).toBe('forbidden');
    }
  });

  it('GET /api/external/health › status OK for an admin without an external login', async () => {
    const res = await admin.agent.get('/api/external/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'OK', driver: 'local' });
  });

  it('data routes › 401 external_login_required until the admin logs in to the external system', async () => {
    const fresh = await signInAdmin(t);
    for (const path of ['/api/external/branches', '/api/external/students', '/api/external/payments']) {
      const res = await fresh.agent.get(path);
      expect(res.status, path).toBe(401);
      expect(res.body.error.code).toBe('external_login_required');
    }
    const pay = await fresh.agent.post('/api/external/payments').send({ studentId: '1', amount: '10' });
    expect(pay.body.error.code).toBe('external_login_required');
  });

  it('GET /api/external/me › 200 {user: null} while not connected (the pages\' connection check, not an error)', async () => {
    const fresh = await signInAdmin(t);
    const me = await fresh.agent.get('/api/external/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ user: null, driver: 'local' });
  });

  it('POST /api/external/login › accepts only the signed-in admin\'s own portal password', async () => {
    const wrong = await admin.agent.post('/api/external/login').send({ email: ADMIN_EMAIL, password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toMatchObject({ code: 'external_login_failed', message: 'Invalid email or password' });
    const otherEmail = uniqueEmail('other-admin');
    await ensureAdmin(t.database.db, otherEmail, 'other-pass-123');
    const someoneElse = await admin.agent.post('/api/external/login').send({ email: otherEmail, password: 'other-pass-123' });
    expect(someoneElse.status).toBe(401);
    const bad = await admin.agent.post('/api/external/login').send({ email: 'nope', password: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields.email).toBe('Please enter a valid email address');

    const ok = await connect();
    expect(ok.body.user).toMatchObject({ email: ADMIN_EMAIL });
    const me = await admin.agent.get('/api/external/me');
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(ADMIN_EMAIL);
  });

  it('external session › ends with external logout and with the portal session', async () => {
    const a = await signInAdmin(t, uniqueEmail('ext-a'), 'admin-pass-456');
    const email = (await a.agent.get('/api/auth/me')).body.user.email;
    expect((await a.agent.post('/api/external/login').send({ email, password: 'admin-pass-456' })).status).toBe(200);
    expect((await a.agent.get('/api/external/branches')).status).toBe(200);
    await a.agent.post('/api/external/logout');
    expect((await a.agent.get('/api/external/branches')).body.error.code).toBe('external_login_required');

    expect((await a.agent.post('/api/external/login').send({ email, password: 'admin-pass-456' })).status).toBe(200);
    await a.agent.post('/api/auth/logout');
    expect((await a.agent.get('/api/external/branches')).status).toBe(401);
    await a.agent.post('/api/auth/login').send({ email, password: 'admin-pass-456' });
    const again = await a.agent.get('/api/external/branches');
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe('external_login_required');
  });

  it('branches › are the four campuses with established year and a live count of active students', async () => {
    await connect();
    const before = (await admin.agent.get('/api/external/branches')).body.branches;
    expect(before.map((b: any) => b.name)).toEqual(['Tshikombani', 'Siloam', 'Biaba Likhade', 'Tshitavha']);
    expect(before[0]).toMatchObject({ established: 2008, location: expect.stringContaining('Thohoyandou') });
    const siloam = before.find((b: any) => b.name === 'Siloam');

    const appId = await applicationWithStatus('accepted');
    const enrol = await admin.agent.post(`/api/external/students/from-application/${appId}`).send({ branchId: siloam.id });
    expect(enrol.status).toBe(201);
    expect(enrol.body.student).toMatchObject({ campus: 'Siloam', status: 'active', course: expect.any(String) });

    const after = (await admin.agent.get('/api/external/branches')).body.branches;
    expect(after.find((b: any) => b.name === 'Siloam').studentCount).toBe(siloam.studentCount + 1);
    const tab = await admin.agent.get(`/api/external/branches/${siloam.id}/students`);
    expect(tab.status).toBe(200);
    expect(tab.body.students.map((s: any) => s.id)).toContain(enrol.body.student.id);
    expect((await admin.agent.get('/api/external/branches/999/students')).status).toBe(404);
    expect((await admin.agent.get('/api/external/branches/x%20y/students')).status).toBe(400);
  });

  it('POST /students/from-application/:id › idempotent; refuses pending (409) and unknown (404) applications', async () => {
    await connect();
    const appId = await applicationWithStatus('accepted');
    const first = await admin.agent.post(`/api/external/students/from-application/${appId}`).send({});
    expect(first.status).toBe(201);
    expect(first.body.student.name).toMatch(/^Naledi Zulu/);
    expect(first.body.student.campus).toBe('Tshikombani');
    const second = await admin.agent.post(`/api/external/students/from-application/${appId}`).send({});
    expect(second.status).toBe(200);
    expect(second.body.student.id).toBe(first.body.student.id);
    const all = (await admin.agent.get('/api/external/students').query({ search: first.body.student.email })).body.students;
    expect(all).toHaveLength(1);

    const pending = await applicationWithStatus('pending', 2);
    const refused = await admin.agent.post(`/api/external/students/from-application/${pending}`).send({});
    expect(refused.status).toBe(409);
    expect((await admin.agent.post('/api/external/students/from-application/99999').send({})).status).toBe(404);
  });

  it('GET /enrolable-applications › finds any accepted application by APP-id, name or e-mail, and leaves out the enrolled', async () => {
    await connect();
    const oldest = await applicationWithStatus('accepted');
    const enrolled = await applicationWithStatus('accepted');
    const pending = await applicationWithStatus('pending');
    // 100 newer acceptances: the picker used to offer only the 100 newest, so `oldest` could not be chosen.
    await t.database.db.execute(sql`
      with u as (insert into users (email, password_hash, first_name, last_name)
        select 'later' || g || '.' || ${Date.now()} || '@example.com', 'x', 'Later', 'Applicant' from generate_series(1, 100) g returning id)
      insert into applications (user_id, course_id, status, payment_amount, created_at) select u.id, 1, 'accepted', 50, now() + interval '1 day' from u`);
    expect((await admin.agent.post(`/api/external/students/from-application/${enrolled}`).send({})).status).toBe(201);
    const find = async (q: string) => (await admin.agent.get('/api/external/enrolable-applications').query({ q })).body;
    const byRef = await find(`APP-${oldest}`);
    expect(byRef.applications.map((a: any) => a.id)).toEqual([oldest]);
    expect(byRef.applications[0]).toMatchObject({ name: expect.any(String), email: expect.stringContaining('@') });
    expect((await find(String(oldest))).applications.map((a: any) => a.id)).toEqual([oldest]);
    expect((await find(byRef.applications[0].email.toUpperCase())).applications.map((a: any) => a.id)).toEqual([oldest]);
    expect((await find(`APP-${enrolled}`)).total).toBe(0);
    expect((await find(`APP-${pending}`)).total).toBe(0);
    const newest = await find('');
    expect(newest.applications).toHaveLength(20);
    expect(newest.total).toBeGreaterThanOrEqual(101);
    expect(newest.applications.map((a: any) => a.id)).not.toContain(enrolled);
  });

  it('enrolment date › the day in South Africa when the student is enrolled (from an application or walked in), not the UTC day', async () => {
    const appId = await applicationWithStatus('accepted');
    const { at, utcDay, saDay } = lateEveningUtc();
    vi.useFakeTimers({ toFake: ['Date'], now: at });
    try {
      const late = await signInAdmin(t, ADMIN_EMAIL, ADMIN_PASSWORD);
      await connect(late.agent);
      const enrolled = await late.agent.post(`/api/external/students/from-application/${appId}`).send({});
      expect(enrolled.status).toBe(201);
      expect(enrolled.body.student.enrollmentDate, `UTC day ${utcDay}`).toBe(saDay);
      const walkIn = await late.agent.post('/api/external/students').send({ name: 'Late Enrolment', email: uniqueEmail('late'), branchId: '1', course: 'Certificate in Bookkeeping' });
      expect(walkIn.status).toBe(201);
      expect(walkIn.body.student.enrollmentDate, `UTC day ${utcDay}`).toBe(saDay);
    } finally { vi.useRealTimers(); }
  });

  it('GET /students › searches case-insensitively and filters by status', async () => {
    await connect();
    const mk = (name: string, status: string) => admin.agent.post('/api/external/students')
      .send({ name, email: uniqueEmail('walkin'), branchId: '1', course: 'Certificate in Bookkeeping', status });
    expect((await mk('Ayanda Khumalo', 'graduated')).status).toBe(201);
    expect((await mk('Ayanda Mthembu', 'withdrawn')).status).toBe(201);
    const search = (await admin.agent.get('/api/external/students?search=ayanda')).body.students;
    expect(search.map((s: any) => s.name).sort()).toEqual(['Ayanda Khumalo', 'Ayanda Mthembu']);
    const graduated = (await admin.agent.get('/api/external/students?search=AYANDA&status=graduated')).body.students;
    expect(graduated.map((s: any) => s.name)).toEqual(['Ayanda Khumalo']);
    expect((await admin.agent.get('/api/external/students?search=%25%25')).body.students).toEqual([]);
    const badStatus = await admin.agent.get('/api/external/students?status=expelled');
    expect(badStatus.status).toBe(400);
  });

  describe('payments', () => {
    let studentId: string;
    beforeAll(async () => {
      await connect();
      const res = await admin.agent.post('/api/external/students').send({ name: 'Payment Student', email: uniqueEmail('payer'), branchId: '2', course: 'Diploma in Nursing' });
      studentId = res.body.student.id;
    });

    it('POST /payments › §5 messages for missing student, amount and method', async () => {
      const res = await admin.agent.post('/api/external/payments').send({ method: '' });
      expect(res.status).toBe(400);
      expect(res.body.error.fields).toMatchObject({ studentId: 'Student is required', amount: 'Amount is required', method: 'Payment method is required' });
    });

    it('POST /payments › refuses amounts ≤ 0, with more than two decimals, or not numbers; and unknown students', async () => {
      const cases: [unknown, string][] = [[0, 'Amount must be greater than 0'], ['-5', 'Amount must be greater than 0'],
        ['10.123', 'Amount can have at most 2 decimal places'], [1.005, 'Amount can have at most 2 decimal places'], ['ten', 'Amount must be a number'], ['', 'Amount is required']];
      for (const [amount, message] of cases) {
        const res = await admin.agent.post('/api/external/payments').send({ studentId, amount });
        expect(res.status, String(amount)).toBe(400);
        expect(res.body.error.fields.amount).toBe(message);
      }
      const unknown = await admin.agent.post('/api/external/payments').send({ studentId: '987654', amount: '10' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.fields.studentId).toBe('Student not found');
      expect((await admin.agent.get('/api/external/payments')).body.payments.filter((p: any) => p.studentId === studentId)).toHaveLength(0);
    });

    it('POST /payments › defaults to ZAR and card; shows student and branch; totals per currency', async () => {
      const res = await admin.agent.post('/api/external/payments').send({ studentId, amount: '1500.5', description: 'Tuition' });
      expect(res.status).toBe(201);
      expect(res.body.payment).toMatchObject({ studentId, amount: '1500.50', currency: 'ZAR', method: 'card', studentName: 'Payment Student', branchName: 'Siloam', status: 'completed', description: 'Tuition' });
      expect(res.body.payment.reference).toMatch(/^EXT-/);
      await admin.agent.post('/api/external/payments').send({ studentId, amount: 0.1, method: 'cash' });
      await admin.agent.post('/api/external/payments').send({ studentId, amount: 0.2, method: 'cash' });
      await admin.agent.post('/api/external/payments').send({ studentId, amount: '20', currency: 'usd', method: 'transfer', reference: 'BANK-1' });
      const list = await admin.agent.get('/api/external/payments');
      expect(list.body.payments[0].reference).toBe('BANK-1');
      expect(list.body.totals).toEqual([{ currency: 'ZAR', amount: '1500.80', count: 3 }, { currency: 'USD', amount: '20.00', count: 1 }]);
    });

    it('POST /payments › a double submit with one Idempotency-Key is recorded once; key reuse for another payment is 409', async () => {
      const key = `pay-${Date.now()}-abcdef`;
      const body = { studentId, amount: '333.33', method: 'mobile' };
      const [a, b] = await Promise.all([
        admin.agent.post('/api/external/payments').set('Idempotency-Key', key).send(body),
        admin.agent.post('/api/external/payments').set('Idempotency-Key', key).send(body),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 201]);
      expect(a.body.payment.id).toBe(b.body.payment.id);
      const viaBody = await admin.agent.post('/api/external/payments').send({ ...body, idempotencyKey: key });
      expect(viaBody.status).toBe(200);
      expect(viaBody.headers['idempotent-replayed']).toBe('true');
      const list = (await admin.agent.get('/api/external/payments')).body.payments.filter((p: any) => p.amount === '333.33');
      expect(list).toHaveLength(1);
      const reuse = await admin.agent.post('/api/external/payments').set('Idempotency-Key', key).send({ ...body, amount: '1' });
      expect(reuse.status).toBe(409);
      const short = await admin.agent.post('/api/external/payments').set('Idempotency-Key', 'x').send(body);
      expect(short.status).toBe(400);
    });

    it('POST /payments › amounts typed the South African way are accepted and stored with two decimals', async () => {
      const cases: [string, string][] = [['1 250,00', '1250.00'], ['1,250.00', '1250.00'], ['R1 250.50', '1250.50'],
        ['1\u2009250,5', '1250.50'], ['1,25', '1.25'], ['R 40', '40.00']];
      for (const [amount, stored] of cases) {
        const res = await admin.agent.post('/api/external/payments').send({ studentId, amount, reference: `SA-${stored}` });
        expect(res.status, amount).toBe(201);
        expect(res.body.payment.amount, amount).toBe(stored);
      }
      const refused: [string, string][] = [['1,250', 'Amount can have at most 2 decimal places'], ['12 50', 'Amount must be a number'],
        ['R', 'Amount must be a number'], ['0x10', 'Amount must be a number'], ['1e3', 'Amount must be a number'], ['R-5', 'Amount must be greater than 0']];
      for (const [amount, message] of refused) {
        const res = await admin.agent.post('/api/external/payments').send({ studentId, amount });
        expect(res.status, amount).toBe(400);
        expect(res.body.error.fields.amount, amount).toBe(message);
      }
    });

    it('POST /payments › only the currencies the form offers are accepted', async () => {
      const res = await admin.agent.post('/api/external/payments').send({ studentId, amount: '10', currency: 'XYZ' });
      expect(res.status).toBe(400);
      expect(res.body.error.fields.currency).toBe('Currency must be one of ZAR, USD, EUR, GBP, BWP, NAD, LSL, SZL, ZWL');
      const bwp = await admin.agent.post('/api/external/payments').send({ studentId, amount: '10', currency: 'bwp' });
      expect(bwp.status).toBe(201);
      expect(bwp.body.payment.currency).toBe('BWP');
    });

    it('GET /payments.csv › one line per payment with a header, injection-safe cells', async () => {
      const five = await admin.agent.post('/api/external/payments').send({ studentId, amount: '5', description: '=HYPERLINK("x")' });
      // 00:30 SAST on 1 November: the file shows the South African date and time, not '2026-10-31T22:30:00.000Z'.
      await t.database.db.execute(sql`update external_payments set date = '2026-10-31T22:30:00Z' where reference = ${five.body.payment.reference}`);
      const res = await admin.agent.get('/api/external/payments.csv');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.headers['content-disposition']).toMatch(/attachment; filename="external-payments-\d{4}-\d{2}-\d{2}\.csv"/);
      const lines = res.text.trim().split('\n');
      expect(lines[0]).toBe('Reference,Date (SAST),Student,Student ID,Branch,Amount,Currency,Method,Status,Description');
      const count = (await admin.agent.get('/api/external/payments')).body.total;
      expect(lines).toHaveLength(count + 1);
      const row = lines.find((l) => l.startsWith(`${five.body.payment.reference},`))!;
      expect(row).toContain(`,2026-11-01 00:30,Payment Student,${studentId},Siloam,5.00,ZAR,Card,completed,"'=HYPERLINK(""x"")"`);
    });

    it('GET /payments.csv › the file is named by the day in South Africa, not the UTC day', async () => {
      const { at, utcDay, saDay } = lateEveningUtc();
      vi.useFakeTimers({ toFake: ['Date'], now: at });
      try {
        const late = await signInAdmin(t, ADMIN_EMAIL, ADMIN_PASSWORD);
        await connect(late.agent);
        const res = await late.agent.get('/api/external/payments.csv');
        expect(res.status).toBe(200);
        expect(res.headers['content-disposition'], `UTC day ${utcDay}`).toBe(`attachment; filename="external-payments-${saDay}.csv"`);
      } finally { vi.useRealTimers(); }
    });
  });
});
