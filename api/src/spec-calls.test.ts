/**
 * Spec §7 as written (issue #14 point 2): every write call of the §7 table answers 2xx when sent exactly the
 * payload the table documents, by the role that uses it. POST /api/applications has its own file
 * (features/applications/spec-body.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signUpStudent, signInAdmin, uniqueEmail, DB_KIND, type TestApp } from './test/harness.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const VALID_SA_ID = '0104125800086';
const course = { title: 'Short Course in Bookkeeping', description: 'Ledgers, trial balance and VAT returns for small businesses.', level: 'certificate', duration: 6, department: 'Business', tuitionFee: 'R 6 500', startDate: '2027-02-01' };

describe(`spec §7 calls with their documented payloads (${DB_KIND})`, () => {
  it('auth calls › register (registration object), login {email, password}, me, reset-password {email}, logout', async () => {
    const email = uniqueEmail('spec');
    const agent = t.request();
    const reg = await agent.post('/api/colfront/auth/register').send({ firstName: 'Thandi', lastName: 'Mokoena', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', role: 'student', terms: true });
    expect(reg.status).toBe(201);
    expect(reg.body.user).toMatchObject({ email, role: 'student' });
    const login = await t.request().post('/api/colfront/auth/login').send({ email, password: 'secret123' });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ user: { email }, token: expect.any(String) });
    expect((await agent.get('/api/colfront/auth/me')).body.user.email).toBe(email);
    expect((await agent.get('/api/auth/me')).body.user.email).toBe(email);
    expect((await t.request().post('/api/colfront/auth/reset-password').send({ email })).status).toBeLessThan(300);
    expect((await agent.post('/api/colfront/auth/logout')).status).toBeLessThan(300);
    expect((await agent.post('/api/auth/logout')).status).toBeLessThan(300);
  });

  it('POST /api/auth/comprehensive-register › the full registration payload of spec §3', async () => {
    const res = await t.request().post('/api/auth/comprehensive-register').send({
      firstName: 'Rudzani', lastName: 'Netshiozwi', email: uniqueEmail('full'), password: 'secret123', confirmPassword: 'secret123', phone: '0821234567',
      dateOfBirth: '2001-04-12', nationality: 'za', idNumber: VALID_SA_ID, addressLine1: '12 Church Street', addressLine2: '', city: 'Thohoyandou',
      state: 'Limpopo', postalCode: '0950', country: 'za', courseId: 1,
      academicHistory: { highSchool: { name: 'Mbilwi Secondary', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', qualification: 'NSC', grade: '72%' } },
      emergencyContactName: 'Mashudu Netshiozwi', emergencyContactPhone: '0827654321', emergencyContactRelation: 'Mother', termsAndConditions: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.user.dateOfBirth).toBe('2001-04-12');
  });

  it('GET /api/colfront/health › status and message', async () => {
    const res = await t.request().get('/api/colfront/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: expect.any(String), message: expect.any(String) });
  });

  it('courses and announcements › POST/PUT course fields; POST {title, content, imageUrl, active, sendNotification}; PUT; notify with an empty body; DELETE', async () => {
    const admin = await signInAdmin(t);
    const created = await admin.agent.post('/api/courses').send(course);
    expect(created.status).toBe(201);
    const id = created.body.course.id;
    expect((await admin.agent.put(`/api/courses/${id}`).send({ ...course, duration: 12 })).status).toBe(200);
    const ann = await admin.agent.post('/api/announcements').send({ title: 'Open day', content: 'Visit the Siloam campus on Saturday from 09:00.', imageUrl: '', active: true, sendNotification: false });
    expect(ann.status).toBe(201);
    const annId = ann.body.announcement.id;
    expect((await admin.agent.put(`/api/announcements/${annId}`).send({ title: 'Open day moved', content: 'Visit the Siloam campus on Sunday from 09:00.', imageUrl: null, active: true })).status).toBe(200);
    expect((await admin.agent.post(`/api/announcements/${annId}/notify`).send()).status).toBeLessThan(300);
    expect((await admin.agent.get('/api/admin/announcements')).status).toBe(200);
    expect((await admin.agent.delete(`/api/announcements/${annId}`)).status).toBeLessThan(300);
  });

  it('PUT /api/admin/applications/{id}/status {status, notes} and PUT /api/notifications/{id}/read with no payload', async () => {
    const admin = await signInAdmin(t);
    const s = await signUpStudent(t);
    await s.agent.put('/api/profile').send({ firstName: 'Thandi', lastName: 'Mokoena', phone: '0821234567', nationality: 'za', idNumber: VALID_SA_ID, addressLine1: '12 Church Street', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za' });
    const pdf = `data:application/pdf;base64,${Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64')}`;
    const app = await s.agent.post('/api/applications').send({ userId: s.user.id, courseId: 1, academicHistory: { highSchool: { name: 'Mbilwi Secondary', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', qualification: 'NSC', grade: '72%' } }, documents: { idDocument: pdf, transcripts: pdf }, status: 'pending', paymentStatus: 'completed', paymentAmount: '50.00' });
    expect(app.status).toBe(201);
    const status = await admin.agent.put(`/api/admin/applications/${app.body.application.id}/status`).send({ status: 'under_review', notes: 'Checking documents' });
    expect(status.status).toBe(200);
    const notes = (await s.agent.get('/api/colfront/notifications')).body.notifications;
    expect(notes.length).toBeGreaterThan(0);
    const read = await s.agent.put(`/api/notifications/${notes[0].id}/read`);
    expect(read.status).toBe(200);
    expect((await s.agent.get('/api/colfront/applications')).body.applications).toHaveLength(1);
  });

  it('POST /api/assessment-centre › the assessment fields of spec §3', async () => {
    const d = new Date(Date.now() + 14 * 86_400_000);
    while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
    const res = await t.request().post('/api/assessment-centre').send({
      firstName: 'Thandi', lastName: 'Mokoena', email: uniqueEmail('assess'), phone: '0821234567', dateOfBirth: '2001-04-12', idNumber: VALID_SA_ID,
      preferredCampus: 'siloam', courseInterest: 'business', assessmentType: 'skills', preferredDate: d.toISOString().slice(0, 10), preferredTime: 'morning',
      educationLevel: 'grade-12',
    });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  });

  it('POST /api/external/payments › {studentId, amount, currency, method, description, reference} after the external login', async () => {
    const email = uniqueEmail('ext');
    const admin = await signInAdmin(t, email, 'admin-pass-123');
    expect((await admin.agent.post('/api/external/login').send({ email, password: 'admin-pass-123' })).status).toBe(200);
    const branches = (await admin.agent.get('/api/external/branches')).body.branches;
    const student = await admin.agent.post('/api/external/students').send({ name: 'Walk In', email: uniqueEmail('walkin'), branchId: branches[0].id, course: 'Bookkeeping' });
    expect(student.status).toBe(201);
    const pay = await admin.agent.post('/api/external/payments').send({ studentId: student.body.student.id, amount: '1500.00', currency: 'ZAR', method: 'cash', description: 'Registration fee', reference: 'RCPT-1' });
    expect(pay.status, JSON.stringify(pay.body)).toBe(201);
    expect((await admin.agent.get(`/api/external/branches/${branches[0].id}/students`)).status).toBe(200);
    expect((await admin.agent.get('/api/external/payments')).body.payments.length).toBeGreaterThan(0);
  });
});
