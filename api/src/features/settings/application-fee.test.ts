/**
 * The application fee an applicant is shown is the fee they are charged (audit: the wizard showed the constant
 * $50.00 while the server charged the admin setting, e.g. 75.50). Covers GET /api/settings/application-fee and the
 * `expectedFee` check of POST /api/applications and POST /api/admin/walk-in/applications. Its own app (and
 * database), since it changes the fee setting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestApp, signInAdmin, signUpStudent, insertUpload, uniqueEmail, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';
import { applications, payments } from '../../db/schema/applications.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const SETTINGS = { officeEmail: 'info@college.example', accreditationNumber: 'DHET 2008/HE07/001', portalAccessUrl: 'https://portal.college.example/' };
async function setFee(fee: string): Promise<void> {
  const admin = await signInAdmin(t);
  await admin.agent.put('/api/admin/settings').send({ ...SETTINGS, applicationFee: fee }).expect(200);
}
async function body(student: Awaited<ReturnType<typeof signUpStudent>>, extra: Record<string, unknown> = {}) {
  const idDocument = await insertUpload(t, student.user.id);
  const transcripts = await insertUpload(t, student.user.id);
  return { ...validApplication(1, { idDocument, transcripts }), ...extra };
}
const rowsOf = async (userId: number) => ({
  applications: (await t.database.db.select().from(applications).where(eq(applications.userId, userId))).length,
  payments: (await t.database.db.select().from(payments).where(eq(payments.userId, userId))).length,
});

describe(`application fee shown = fee charged (${DB_KIND})`, () => {
  it('GET /api/settings/application-fee › anonymous, the default 50.00, then the admin setting at once (not a cached copy)', async () => {
    const anon = t.request();
    const first = await anon.get('/api/settings/application-fee');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ applicationFee: '50.00' });
    expect(first.headers['cache-control']).toBe('no-cache');
    await setFee('75.5');
    expect((await anon.get('/api/settings/application-fee')).body).toEqual({ applicationFee: '75.50' });
    const s = await signUpStudent(t);
    expect((await s.agent.get('/api/settings/application-fee')).body).toEqual({ applicationFee: '75.50' });
    await setFee('50.00');
    expect((await anon.get('/api/settings/application-fee')).body).toEqual({ applicationFee: '50.00' });
  });

  it('POST /api/applications › a stale expectedFee (the admin changed the fee mid-draft) is 409 with the new fee; no application, no payment', async () => {
    const s = await signUpStudent(t);
    const draft = await body(s, { expectedFee: '50.00' });
    await setFee('75.5');
    const res = await s.agent.post('/api/applications').send(draft);
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({
      code: 'fee_changed', message: 'The application fee changed to $75.50. Please review and confirm the new fee.',
      fields: { 'payment.paymentTerms': 'The application fee changed to $75.50. Please review and confirm the new fee.' },
    });
    expect(await rowsOf(s.user.id)).toEqual({ applications: 0, payments: 0 });

    const again = await s.agent.post('/api/applications').send({ ...draft, expectedFee: '75.50' });
    expect(again.status).toBe(201);
    expect(again.body.application.paymentAmount).toBe('75.50');
    const [payment] = await t.database.db.select().from(payments).where(eq(payments.userId, s.user.id));
    expect(payment!.amount).toBe('75.50');
    await setFee('50.00');
  });

  it('POST /api/applications › expectedFee is compared as an amount (75.5 = 75.50); a malformed one is 400; without it the current fee is charged (older callers)', async () => {
    await setFee('75.50');
    const a = await signUpStudent(t);
    const ok = await a.agent.post('/api/applications').send(await body(a, { expectedFee: '75.5' }));
    expect(ok.status).toBe(201);
    expect(ok.body.application.paymentAmount).toBe('75.50');
    const b = await signUpStudent(t);
    const bad = await b.agent.post('/api/applications').send(await body(b, { expectedFee: 'free' }));
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ expectedFee: 'Application fee must be an amount like 50.00' });
    const old = await b.agent.post('/api/applications').send(await body(b));
    expect(old.status).toBe(201);
    expect(old.body.application.paymentAmount).toBe('75.50');
    await setFee('50.00');
  });

  it('POST /api/admin/walk-in/applications › the desk form’s stale fee is 409 and nothing is stored; the shown fee is 201 with that amount', async () => {
    const { agent } = await signInAdmin(t);
    const created = await agent.post('/api/admin/walk-in/applicants').send({ firstName: 'Mpho', lastName: 'Ndlovu', email: uniqueEmail('fee'), phone: '0721234567', campusId: 2, privacyConsent: true });
    expect(created.status).toBe(201);
    const applicant = created.body.applicant;
    const docs = { idDocument: await insertUpload(t, applicant.id), transcripts: await insertUpload(t, applicant.id) };
    const form = { ...validApplication(1, docs), applicantId: applicant.id, campusId: 2 };
    await setFee('60');
    const stale = await agent.post('/api/admin/walk-in/applications').send({ ...form, expectedFee: '50.00' });
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toBe('The application fee changed to $60.00. Please review and confirm the new fee.');
    expect(await rowsOf(applicant.id)).toEqual({ applications: 0, payments: 0 });
    const ok = await agent.post('/api/admin/walk-in/applications').send({ ...form, expectedFee: '60.00' });
    expect(ok.status).toBe(201);
    expect(ok.body.application.paymentAmount).toBe('60.00');
    await setFee('50.00');
  });
});
