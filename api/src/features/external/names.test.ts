/**
 * Names as people really type them (names audit), in the external system's local driver: students and accepted
 * applications found without a name's Tshivenda or accented letters, and the payments CSV opening in Excel with its
 * letters intact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signUpStudent, signInAdmin, insertUpload, validApplication, uniqueEmail, DB_KIND, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInAdmin>>;
const ADMIN_EMAIL = uniqueEmail('ext-names');
const ADMIN_PASSWORD = 'admin-pass-123';

beforeAll(async () => {
  t = await startTestApp();
  admin = await signInAdmin(t, ADMIN_EMAIL, ADMIN_PASSWORD);
  expect((await admin.agent.post('/api/external/login').send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).status).toBe(200);
});
afterAll(async () => { await t.close(); });

const student = (name: string) => admin.agent.post('/api/external/students')
  .send({ name, email: uniqueEmail('walkin'), branchId: '1', course: 'Certificate in Bookkeeping' });

describe(`external system, names as typed (${DB_KIND})`, () => {
  it('GET /api/external/students › finds Tshivenda and accented names typed without their letters', async () => {
    const ids: Record<string, string> = {};
    for (const [key, name] of [['thilivhali', 'Ṱhilivhali Ṋemudzivhadi'], ['mukhethwa', 'Mukhethwa Ḓavhana'], ['siobhan', 'Siobhán O’Neill']]) {
      const res = await student(name!);
      expect(res.status).toBe(201);
      ids[key!] = res.body.student.id;
    }
    const search = async (q: string) => (await admin.agent.get('/api/external/students').query({ search: q })).body.students.map((s: any) => s.id);
    expect(await search('Nemudzivhadi')).toEqual([ids.thilivhali]);
    expect(await search('thilivhali')).toEqual([ids.thilivhali]);
    expect(await search('davhana')).toEqual([ids.mukhethwa]);
    expect(await search("o'neill")).toEqual([ids.siobhan]);
    expect(await search('Siobhan')).toEqual([ids.siobhan]);
    expect(await search('％％')).toEqual([]);
  });

  it('GET /api/external/enrolable-applications › finds an accepted applicant by a name typed without its letters', async () => {
    const s = await signUpStudent(t, { firstName: 'Ṱhilivhali', lastName: 'Ṋemudzivhadi' });
    const docs = { idDocument: await insertUpload(t, s.user.id), transcripts: await insertUpload(t, s.user.id) };
    const applied = await s.agent.post('/api/applications').send({ ...validApplication(1, docs), email: s.email, firstName: 'Ṱhilivhali', lastName: 'Ṋemudzivhadi' });
    expect(applied.status).toBe(201);
    const id = applied.body.application.id;
    expect((await admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'accepted' })).status).toBe(200);
    const find = async (q: string) => (await admin.agent.get('/api/external/enrolable-applications').query({ q })).body.applications.map((a: any) => a.id);
    expect(await find('nemudzivhadi')).toEqual([id]);
    expect(await find('Thilivhali Nemudzivhadi')).toEqual([id]);
  });

  it('GET /api/external/payments.csv › starts with a UTF-8 BOM (Excel) and the Tshivenda name round-trips', async () => {
    const enrolled = await student('Ṱhilivhali Ṋemudzivhadi');
    expect((await admin.agent.post('/api/external/payments').send({ studentId: enrolled.body.student.id, amount: '250', description: 'Ṱhuṱhuwedzo' })).status).toBe(201);
    const res = await admin.agent.get('/api/external/payments.csv').buffer(true).parse((r: any, cb: (e: Error | null, b: Buffer) => void) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(res.status).toBe(200);
    const body = res.body as Buffer;
    expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = body.subarray(3).toString('utf8').trim().split('\n');
    expect(lines[0]).toBe('Reference,Date (SAST),Student,Student ID,Branch,Amount,Currency,Method,Status,Description');
    expect(lines.find((l) => l.includes(`,${enrolled.body.student.id},`))).toContain('Ṱhilivhali Ṋemudzivhadi,');
    expect(lines.find((l) => l.includes(`,${enrolled.body.student.id},`))).toMatch(/,Ṱhuṱhuwedzo$/);
  });
});

