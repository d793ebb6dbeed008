import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, signInAdmin, uniqueEmail, DB_KIND, type TestApp } from '../../test/harness.ts';

// Volume audit: the payments page summed its totals from a list capped at 5 000 rows (R 7 500 000 shown for 10 000
// payments worth R 15 000 000), the CSV had the same 5 000 rows, and the students list stopped at 1 000 without paging.
let t: TestApp;
let admin: Awaited<ReturnType<typeof signInAdmin>>;
const ADMIN_EMAIL = uniqueEmail('ext-volume');
const ADMIN_PASSWORD = 'admin-pass-123';

beforeAll(async () => {
  t = await startTestApp();
  admin = await signInAdmin(t, ADMIN_EMAIL, ADMIN_PASSWORD);
  expect((await admin.agent.post('/api/external/login').send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).status).toBe(200);
  // 1 050 students at Siloam (names sort as numbered), 10 000 payments of R 1 500.00, one a minute, the newest last.
  await t.database.db.execute(sql`
    insert into external_students (name, email, campus, course, status, enrollment_date)
    select 'Volume Student ' || lpad(g::text, 4, '0'), 'volume' || g || '@example.com', 'siloam', 'Diploma in Nursing', 'active', '2026-01-15'
    from generate_series(1, 1050) g`);
  await t.database.db.execute(sql`
    insert into external_payments (reference, student_id, amount, currency, method, date, status, branch_name)
    select 'VOL-' || lpad(g::text, 5, '0'), (select min(id) from external_students) + (g % 1050), 1500.00, 'ZAR', 'card',
      timestamptz '2026-01-01T00:00:00Z' + g * interval '1 minute', 'completed', 'Siloam'
    from generate_series(1, 10000) g`);
});
afterAll(async () => { await t.close(); });

describe(`external system at college volume (${DB_KIND})`, () => {
  it('GET /payments › totals of every payment, not of the rows on the page; the list pages newest first', async () => {
    const first = await admin.agent.get('/api/external/payments');
    expect(first.status).toBe(200);
    expect(first.body.totals).toEqual([{ currency: 'ZAR', amount: '15000000.00', count: 10000 }]);
    expect(first.body).toMatchObject({ total: 10000, page: 1, pageSize: 50, pages: 200 });
    expect(first.body.payments).toHaveLength(50);
    expect(first.body.payments[0].reference).toBe('VOL-10000');
    const last = await admin.agent.get('/api/external/payments?page=100&pageSize=100');
    expect(last.body.payments.map((p: any) => p.reference).slice(-2)).toEqual(['VOL-00002', 'VOL-00001']);
    expect(last.body.totals).toEqual(first.body.totals);
    expect((await admin.agent.get('/api/external/payments?pageSize=500')).status).toBe(400);
  });

  it('GET /payments.csv › every payment, newest first, each once, with the header once', async () => {
    const res = await admin.agent.get('/api/external/payments.csv');
    expect(res.status).toBe(200);
    expect(res.text.startsWith('\uFEFF')).toBe(true); // the UTF-8 BOM, for Excel (external/names.test.ts)
    const lines = res.text.slice(1).trimEnd().split('\n');
    expect(lines[0]).toBe('Reference,Date (SAST),Student,Student ID,Branch,Amount,Currency,Method,Status,Description');
    const refs = lines.slice(1).map((l) => l.split(',')[0]);
    expect(refs).toHaveLength(10000);
    expect(new Set(refs).size).toBe(10000);
    expect(refs[0]).toBe('VOL-10000');
    expect(refs.at(-1)).toBe('VOL-00001');
    expect(refs.every((r, i) => i === 0 || refs[i - 1] > r)).toBe(true);
  });

  it('GET /students › pages past 1 000 students with the total; the branch tab pages too', async () => {
    const first = await admin.agent.get('/api/external/students?search=volume%20student');
    expect(first.body).toMatchObject({ total: 1050, page: 1, pageSize: 50, pages: 21 });
    expect(first.body.students[0].name).toBe('Volume Student 0001');
    const last = await admin.agent.get('/api/external/students?search=volume%20student&page=21');
    expect(last.body.students.map((s: any) => s.name)).toEqual(Array.from({ length: 50 }, (_, i) => `Volume Student ${1001 + i}`));
    const siloam = (await admin.agent.get('/api/external/branches')).body.branches.find((b: any) => b.name === 'Siloam');
    const tab = await admin.agent.get(`/api/external/branches/${siloam.id}/students?page=11&pageSize=100`);
    expect(tab.body).toMatchObject({ total: 1050, page: 11, pages: 11 });
    expect(tab.body.students.at(-1).name).toBe('Volume Student 1050');
  });

  it('a page past the last (page 30 of 21, kept in a URL) answers the last page: its rows and page = pages', async () => {
    const students = await admin.agent.get('/api/external/students?search=volume%20student&page=30');
    expect(students.body).toMatchObject({ total: 1050, page: 21, pageSize: 50, pages: 21 });
    expect(students.body.students.map((s: any) => s.name)).toEqual(Array.from({ length: 50 }, (_, i) => `Volume Student ${1001 + i}`));
    const siloam = (await admin.agent.get('/api/external/branches')).body.branches.find((b: any) => b.name === 'Siloam');
    const tab = await admin.agent.get(`/api/external/branches/${siloam.id}/students?page=12&pageSize=100`);
    expect(tab.body).toMatchObject({ total: 1050, page: 11, pages: 11 });
    expect(tab.body.students).toHaveLength(50);
    const payments = await admin.agent.get('/api/external/payments?page=250');
    expect(payments.body).toMatchObject({ total: 10000, page: 200, pageSize: 50, pages: 200 });
    expect(payments.body.payments.at(-1).reference).toBe('VOL-00001');
    expect(payments.body.totals).toEqual([{ currency: 'ZAR', amount: '15000000.00', count: 10000 }]);
  });
});
