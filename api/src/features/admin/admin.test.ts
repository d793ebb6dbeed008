import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, signUpStudent, signInAdmin, insertUpload, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';
import { notifications } from '../../db/schema/messaging.ts';
import { erasureRequests } from '../../db/schema/users.ts';
import { eq } from 'drizzle-orm';
import { mailsTo } from '../../test/mail.ts';
import { fillWeeks } from './admin.service.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInAdmin>>;
let student: Awaited<ReturnType<typeof signUpStudent>>;

async function apply(s: Awaited<ReturnType<typeof signUpStudent>>, courseId: number): Promise<number> {
  const idDocument = await insertUpload(t, s.user.id, 'id.pdf');
  const transcripts = await insertUpload(t, s.user.id, 'matric.pdf');
  const res = await s.agent.post('/api/applications').send(validApplication(courseId, { idDocument, transcripts }));
  if (res.status !== 201) throw new Error(`apply failed ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.application.id;
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await signInAdmin(t);
  student = await signUpStudent(t, { firstName: 'Lerato', lastName: 'Nemukula' });
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

/** Every admin route this feature adds: [method, path, body]. */
const ADMIN_ROUTES: [string, string, unknown?][] = [
  ['get', '/api/admin/applications'],
  ['get', '/api/admin/applications/export.csv'],
  ['post', '/api/admin/applications/bulk', { ids: [1], status: 'accepted' }],
  ['get', '/api/admin/applications/1'],
  ['put', '/api/admin/applications/1/status', { status: 'accepted' }],
  ['get', '/api/admin/stats'],
  ['get', '/api/admin/reports'],
  ['get', '/api/admin/students'],
  ['get', '/api/admin/settings'],
  ['put', '/api/admin/settings', { applicationFee: '60.00', officeEmail: 'x@example.com', accreditationNumber: 'X', portalAccessUrl: 'https://x.example/' }],
  ['get', '/api/admin/site-build'],
  ['get', '/api/admin/announcements'],
  ['post', '/api/announcements', { title: 'Hello there', content: 'Some long enough content' }],
  ['put', '/api/announcements/1', { title: 'Hello there', content: 'Some long enough content' }],
  ['delete', '/api/announcements/1'],
  ['post', '/api/announcements/1/notify', {}],
  ['post', '/api/courses', { title: 'X' }],
  ['put', '/api/courses/1', { title: 'X' }],
  ['post', '/api/courses/1/activate', {}],
  ['post', '/api/courses/1/deactivate', {}],
];

describe(`admin API guards (${DB_KIND})`, () => {
  it('every admin route › 401 for a logged-out caller and 403 for a student, changing nothing', async () => {
    const before = await t.request().get('/api/announcements');
    for (const [method, path, body] of ADMIN_ROUTES) {
      const anon = await (t.request() as any)[method](path).send(body ?? undefined);
      expect(anon.status, `${method} ${path} anonymous`).toBe(401);
      const asStudent = await (student.agent as any)[method](path).send(body ?? undefined);
      expect(asStudent.status, `${method} ${path} student`).toBe(403);
      expect(asStudent.body.error.message).toBe('You need admin privileges to access this page');
    }
    const after = await t.request().get('/api/announcements');
    expect(after.body.announcements).toEqual(before.body.announcements);
    const course = await t.request().get('/api/courses/1');
    expect(course.body.course.isActive).toBe(true);
  });
});

describe(`admin applications (${DB_KIND})`, () => {
  it('GET /api/admin/applications › filters by status, course and search, sorts and paginates', async () => {
    const other = await signUpStudent(t, { firstName: 'Zanele', lastName: 'Aphane' });
    const a1 = await apply(student, 1);
    const a2 = await apply(student, 2);
    const a3 = await apply(other, 1);
    await admin.agent.put(`/api/admin/applications/${a2}/status`).send({ status: 'under_review' }).expect(200);

    const all = await admin.agent.get('/api/admin/applications?pageSize=2&sort=id&dir=asc');
    expect(all.status).toBe(200);
    expect(all.body.total).toBeGreaterThanOrEqual(3);
    expect(all.body.applications).toHaveLength(2);
    expect(all.body.applications[0].id).toBeLessThan(all.body.applications[1].id);
    const page2 = await admin.agent.get('/api/admin/applications?pageSize=2&sort=id&dir=asc&page=2');
    expect(page2.body.applications[0].id).toBeGreaterThan(all.body.applications[1].id);

    const pending = await admin.agent.get('/api/admin/applications?status=pending&pageSize=100');
    expect(pending.body.applications.map((a: any) => a.id)).toEqual(expect.arrayContaining([a1, a3]));
    expect(pending.body.applications.every((a: any) => a.status === 'pending')).toBe(true);

    const byCourse = await admin.agent.get('/api/admin/applications?courseId=2&pageSize=100');
    expect(byCourse.body.applications.map((a: any) => a.id)).toEqual([a2]);

    const byName = await admin.agent.get('/api/admin/applications?q=zanele');
    expect(byName.body.applications.map((a: any) => a.id)).toEqual([a3]);
    expect(byName.body.applications[0].applicant.name).toBe('Zanele Aphane');
    const byAppId = await admin.agent.get(`/api/admin/applications?q=APP-${a2}`);
    expect(byAppId.body.applications.map((a: any) => a.id)).toEqual([a2]);

    const byApplicant = await admin.agent.get('/api/admin/applications?sort=applicant&dir=asc&pageSize=100');
    const names = byApplicant.body.applications.map((a: any) => a.applicant.name.split(' ')[1]);
    expect(names).toEqual([...names].sort());

    const bad = await admin.agent.get('/api/admin/applications?status=nope&sort=evil');
    expect(bad.status).toBe(400);
  });

  it('GET /api/admin/applications/:id › applicant, academic history, documents, payment and history; 404 unknown', async () => {
    const id = await apply(student, 3);
    await admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'documents_required', notes: 'Need certified ID' }).expect(200);
    const res = await admin.agent.get(`/api/admin/applications/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.applicant.email).toBe(student.email);
    expect(res.body.application.academicHistory.highSchool.name).toBe('Mbilwi Secondary');
    expect(res.body.documents.map((d: any) => d.label)).toEqual(['ID Document', 'Qualifications Documents']);
    expect(res.body.documents[0].url).toMatch(/^\/api\/uploads\//);
    expect(res.body.payment).toMatchObject({ status: 'completed', amount: '50.00', last4: '4242' });
    expect(res.body.history.map((h: any) => [h.fromStatus, h.toStatus])).toEqual([[null, 'pending'], ['pending', 'documents_required']]);
    expect(res.body.history[1]).toMatchObject({ notes: 'Need certified ID', changedBy: { id: admin.user.id } });
    expect((await admin.agent.get('/api/admin/applications/999999')).status).toBe(404);
    expect((await admin.agent.put('/api/admin/applications/999999/status').send({ status: 'accepted' })).status).toBe(404);
  });

  it('GET /api/admin/applications/:id › each status change names its admin with their e-mail (two admins may share a name); the student\'s own views carry no staff e-mail', async () => {
    const s = await signUpStudent(t, { firstName: 'Ndivhuwo', lastName: 'Mudau' });
    const id = await apply(s, 1);
    const second = await signInAdmin(t);
    await second.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'under_review' }).expect(200);
    const res = await admin.agent.get(`/api/admin/applications/${id}`);
    expect(res.body.history[1].changedBy).toEqual({
      id: second.user.id, name: `${second.user.firstName} ${second.user.lastName}`.trim(), email: second.user.email,
    });
    const own = await s.agent.get(`/api/applications/${id}`);
    expect(own.status).toBe(200);
    expect(own.body.timeline.map((h: any) => h.toStatus)).toEqual(['pending', 'under_review']);
    expect(JSON.stringify(own.body)).not.toContain(second.user.email);
    const exported = await s.agent.get('/api/profile/export');
    expect(exported.status).toBe(200);
    expect(exported.text).not.toContain(second.user.email);
  });

  it('PUT /api/admin/applications/:id/status › two admins at once: both changes are in the history', async () => {
    const id = await apply(student, 4);
    const second = await signInAdmin(t);
    const [r1, r2] = await Promise.all([
      admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'under_review', notes: 'first admin' }),
      second.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'rejected', notes: 'second admin' }),
    ]);
    expect([r1.status, r2.status]).toEqual([200, 200]);
    const res = await admin.agent.get(`/api/admin/applications/${id}`);
    const changes = res.body.history.slice(1);
    expect(changes.map((h: any) => h.notes).sort()).toEqual(['first admin', 'second admin']);
    // Serialised: the second change starts from the first one's result, so the chain is unbroken.
    expect(changes[0].fromStatus).toBe('pending');
    expect(changes[1].fromStatus).toBe(changes[0].toStatus);
    expect(res.body.application.status).toBe(changes[1].toStatus);
  });

  it('POST /api/admin/applications/bulk › approves pending ones and reports each item on its own', async () => {
    const s = await signUpStudent(t);
    const p1 = await apply(s, 5);
    const p2 = await apply(s, 6);
    const decided = await apply(s, 7);
    await admin.agent.put(`/api/admin/applications/${decided}/status`).send({ status: 'rejected' }).expect(200);
    const res = await admin.agent.post('/api/admin/applications/bulk').send({ ids: [p1, p2, decided, 999999], status: 'accepted' });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { id: p1, ok: true, status: 'accepted' },
      { id: p2, ok: true, status: 'accepted' },
      { id: decided, ok: false, status: 'rejected', error: 'Only pending applications can be approved or rejected from the list' },
      { id: 999999, ok: false, error: 'Application not found' },
    ]);
    const notes = await t.database.db.select().from(notifications).where(eq(notifications.userId, s.user.id));
    expect(notes.filter((n) => n.message.includes('Accepted'))).toHaveLength(2);
    const mails = await mailsTo(t, s.email);
    expect(mails.map((m) => m.subject).filter((x) => /^APP-\d+: (Accepted|Rejected)$/.test(x)).sort())
      .toEqual([`APP-${p1}: Accepted`, `APP-${p2}: Accepted`, `APP-${decided}: Rejected`].sort());
    expect((await admin.agent.post('/api/admin/applications/bulk').send({ ids: [], status: 'accepted' })).body.error.fields.ids).toBe('Select at least one application');
    expect((await admin.agent.post('/api/admin/applications/bulk').send({ ids: [p1], status: 'pending' })).status).toBe(400);
  });

  it('GET /api/admin/applications/export.csv › the current filter as CSV with APP- ids, formulas defused', async () => {
    const evil = await signUpStudent(t, { firstName: 'Formula', lastName: 'Evil' });
    const id = await apply(evil, 8);
    // Forms refuse such a name now (person-name.ts), but a row written before that rule, or by another system, still
    // reaches the export: it must stay defused.
    await t.database.db.execute(sql`update users set first_name = '=HYPERLINK("x")' where id = ${evil.user.id}`);
    const res = await admin.agent.get('/api/admin/applications/export.csv?q=evil');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="applications-/);
    const lines = res.text.trim().split('\n');
    expect(lines[0]).toBe('Application ID,Applicant,Email,Course,Department,Status,Payment status,Payment amount,Submitted (SAST),Updated (SAST),APS,Eligible,Eligibility notes');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`APP-${id},`);
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"") Evil"`);
  });

  it('GET /api/admin/applications/export.csv › submitted and updated are South African date and time, not UTC ISO', async () => {
    const s = await signUpStudent(t, { firstName: 'Midnight', lastName: 'Sastime' });
    const id = await apply(s, 3);
    await t.database.db.execute(sql`update applications set created_at = '2026-10-31T22:30:00Z', updated_at = '2026-11-01T09:05:00Z' where id = ${id}`);
    const res = await admin.agent.get('/api/admin/applications/export.csv?q=sastime');
    const lines = res.text.trim().split('\n');
    expect(lines[0]).toContain(',Submitted (SAST),Updated (SAST),');
    expect(lines[1]).toContain(',2026-11-01 00:30,2026-11-01 11:05,');
    expect(lines[1]).not.toContain('2026-10-31T22:30');
  });

  it('GET /api/admin/applications/export.csv › the payment status reads as on the screens ("Pending", "Completed"), not the raw value', async () => {
    const s = await signUpStudent(t, { firstName: 'Unpaid', lastName: 'Paylabel' });
    const id = await apply(s, 3);
    await t.database.db.execute(sql`update applications set status = 'under_review', payment_status = 'pending' where id = ${id}`);
    const lines = (await admin.agent.get('/api/admin/applications/export.csv?q=paylabel')).text.trim().split('\n');
    expect(lines[1]).toContain(',Under Review,Pending,');
  });

  it('GET /api/admin/applications/export.csv › the file is named by the day in South Africa, not the UTC day', async () => {
    const { at, utcDay, saDay } = lateEveningUtc();
    vi.useFakeTimers({ toFake: ['Date'], now: at });
    try {
      const late = await signInAdmin(t);
      const res = await late.agent.get('/api/admin/applications/export.csv?q=evil');
      expect(res.status).toBe(200);
      expect(res.headers['content-disposition'], `UTC day ${utcDay}`).toBe(`attachment; filename="applications-${saDay}.csv"`);
    } finally { vi.useRealTimers(); }
  });
});

describe(`admin dashboard, reports, students, settings (${DB_KIND})`, () => {
  it('GET /api/admin/stats › totals, rates, fees to two decimals, 5 recent, 4 courses, four departments', async () => {
    const res = await admin.agent.get('/api/admin/stats');
    expect(res.status).toBe(200);
    const s = res.body;
    const total = Object.values(s.totals.byStatus as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(s.totals.applications).toBe(total);
    expect(Object.keys(s.totals.byStatus).sort()).toEqual(['accepted', 'documents_required', 'payment_pending', 'pending', 'rejected', 'under_review']);
    const { accepted, rejected } = s.totals.byStatus;
    expect(s.acceptanceRate).toBeCloseTo((accepted / total) * 100, 1);
    expect(s.completionRate).toBeCloseTo(((accepted + rejected) / total) * 100, 1);
    const [{ fees }] = (await t.database.db.execute(sql`select sum(payment_amount)::text as fees from applications where payment_status = 'completed'`) as any).rows;
    expect(s.feesCollected).toBe(Number(fees).toFixed(2));
    expect(s.feesCollected).toMatch(/^\d+\.\d{2}$/);
    expect(s.recentApplications).toHaveLength(5);
    expect(s.courses).toHaveLength(4);
    expect(s.departments.map((d: any) => d.name)).toEqual(['Business', 'Technology', 'Healthcare', 'Arts and Design']);
    expect(s.totals.students).toBeGreaterThanOrEqual(4);
  });

  it('PUT …/status payment_pending › the payment is pending again (application and payment row) and leaves "Fees collected"; moving on gives it back', async () => {
    const s = await signUpStudent(t);
    const id = await apply(s, 5);
    const fees = async () => Number((await admin.agent.get('/api/admin/stats')).body.feesCollected);
    const weekFees = async () => (await admin.agent.get('/api/admin/reports')).body.feesPerWeek.reduce((a: number, w: any) => a + Number(w.fees), 0);
    const detail = async () => (await admin.agent.get(`/api/admin/applications/${id}`)).body;
    const paid = await detail();
    expect(paid.application.paymentStatus).toBe('completed');
    expect(paid.payment.status).toBe('completed');
    const amount = Number(paid.application.paymentAmount);
    expect(amount).toBeGreaterThan(0);
    const [before, beforeWeeks] = [await fees(), await weekFees()];
    await admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'payment_pending' }).expect(200);
    const pending = await detail();
    expect(pending.application.paymentStatus).toBe('pending');
    expect(pending.payment.status).toBe('pending');
    expect(await fees()).toBeCloseTo(before - amount, 2);
    expect(await weekFees()).toBeCloseTo(beforeWeeks - amount, 2);
    await admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'under_review' }).expect(200);
    const moved = await detail();
    expect(moved.application.paymentStatus).toBe('completed');
    expect(moved.payment.status).toBe('completed');
    expect(await fees()).toBeCloseTo(before, 2);
  });

  it('GET /api/admin/reports › by status, course, department, week, acceptance over time and fees', async () => {
    const res = await admin.agent.get('/api/admin/reports');
    expect(res.status).toBe(200);
    const r = res.body;
    expect(r.byStatus).toHaveLength(6);
    const total = r.byStatus.reduce((a: number, b: any) => a + b.count, 0);
    expect(r.byCourse.reduce((a: number, b: any) => a + b.count, 0)).toBe(total);
    expect(r.byDepartment.reduce((a: number, b: any) => a + b.count, 0)).toBe(total);
    expect(r.perWeek.reduce((a: number, b: any) => a + b.count, 0)).toBe(total);
    expect(r.acceptanceOverTime[0]).toHaveProperty('rate');
    expect(r.feesCollected).toMatch(/^\d+\.\d{2}$/);
  });

  it('GET /api/admin/reports › weeks are South African weeks: Monday 00:30 SAST counts in that Monday\'s week, with its fee', async () => {
    const week = (r: any, w: string) => ({
      count: r.perWeek.find((x: any) => x.week === w)?.count ?? 0,
      fees: Number(r.feesPerWeek.find((x: any) => x.week === w)?.fees ?? 0),
    });
    const before = (await admin.agent.get('/api/admin/reports')).body;
    const s = await signUpStudent(t);
    const mondayEarly = await apply(s, 1); // Monday 23 November 2026, 00:30 SAST
    const sundayLate = await apply(s, 2); // Sunday 22 November 2026, 23:30 SAST
    await t.database.db.execute(sql`update applications set created_at = '2026-11-22T22:30:00Z', payment_status = 'completed', payment_amount = 50 where id = ${mondayEarly}`);
    await t.database.db.execute(sql`update applications set created_at = '2026-11-22T21:30:00Z', payment_status = 'pending' where id = ${sundayLate}`);
    const after = (await admin.agent.get('/api/admin/reports')).body;
    expect(week(after, '2026-11-23').count - week(before, '2026-11-23').count).toBe(1);
    expect(week(after, '2026-11-23').fees - week(before, '2026-11-23').fees).toBeCloseTo(50, 2);
    expect(week(after, '2026-11-16').count - week(before, '2026-11-16').count).toBe(1);
    expect(week(after, '2026-11-16').fees - week(before, '2026-11-16').fees).toBeCloseTo(0, 2);
  });

  it('GET /api/admin/reports › weeks without applications are there with zeros, so the charts show the quiet weeks', async () => {
    const s = await signUpStudent(t);
    const june = await apply(s, 4);
    await t.database.db.execute(sql`update applications set created_at = '2026-06-01T10:00:00Z' where id = ${june}`); // a Monday, SAST
    const r = (await admin.agent.get('/api/admin/reports')).body;
    const weeks = r.perWeek.map((w: any) => w.week);
    for (let i = 1; i < weeks.length; i++) {
      expect(Date.parse(`${weeks[i]}T00:00:00Z`) - Date.parse(`${weeks[i - 1]}T00:00:00Z`), `${weeks[i - 1]} → ${weeks[i]}`).toBe(7 * 86_400_000);
    }
    expect(weeks[0] <= '2026-06-01').toBe(true);
    expect(r.perWeek.find((w: any) => w.week === '2026-06-08')).toEqual({ week: '2026-06-08', count: 0 });
    expect(r.feesPerWeek.find((w: any) => w.week === '2026-06-08')).toEqual({ week: '2026-06-08', fees: '0.00' });
    expect(r.acceptanceOverTime.find((w: any) => w.week === '2026-06-08')).toEqual({ week: '2026-06-08', accepted: 0, total: 0, rate: 0 });
    expect(r.acceptanceOverTime.map((w: any) => w.week)).toEqual(weeks);
    expect(r.feesPerWeek.map((w: any) => w.week)).toEqual(weeks);
  });

  it('fillWeeks › fills the gaps through the current South African week (Monday 00:30 SAST is already the new week)', () => {
    const row = (week: string, total: number) => ({ week, total, accepted: 0, decided: 0, fees: '1.00' });
    const zero = (week: string) => ({ week, total: 0, accepted: 0, decided: 0, fees: '0.00' });
    // Sunday 22:30 UTC = Monday 30 November 2026, 00:30 SAST.
    expect(fillWeeks([row('2026-11-09', 2), row('2026-11-23', 1)], new Date('2026-11-29T22:30:00Z')))
      .toEqual([row('2026-11-09', 2), zero('2026-11-16'), row('2026-11-23', 1), zero('2026-11-30')]);
    expect(fillWeeks([row('2026-11-09', 2)], new Date('2026-11-10T10:00:00Z'))).toEqual([row('2026-11-09', 2)]);
    expect(fillWeeks([], new Date())).toEqual([]);
  });

  it('GET /api/admin/students › real users with their applications and erasure requests, searchable', async () => {
    await t.database.db.insert(erasureRequests).values({ userId: student.user.id, reason: 'Please delete my data' });
    const res = await admin.agent.get('/api/admin/students?q=nemukula');
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(1);
    const s = res.body.students[0];
    expect(s).toMatchObject({ name: 'Lerato Nemukula', email: student.email, phone: '0821234567' });
    expect(s.applications.length).toBeGreaterThanOrEqual(3);
    expect(s.applications[0].id).toEqual(expect.any(Number));
    expect(s.erasureRequests).toEqual([expect.objectContaining({ status: 'open', reason: 'Please delete my data' })]);
    expect(JSON.stringify(res.body)).not.toMatch(/password/i);
    const none = await admin.agent.get('/api/admin/students?q=nobody-like-this');
    expect(none.body).toEqual({ total: 0, students: [] });
  });

  it('GET/PUT /api/admin/settings › defaults, validation messages, saved values and a rebuild request', async () => {
    const first = await admin.agent.get('/api/admin/settings');
    expect(first.body.settings).toEqual({ applicationFee: '50.00', officeEmail: 'info@college.example', accreditationNumber: 'DHET 2008/HE07/001', portalAccessUrl: 'https://portal.college.example/' });
    const bad = await admin.agent.put('/api/admin/settings').send({ applicationFee: 'free', officeEmail: 'nope', accreditationNumber: '', portalAccessUrl: 'javascript:alert(1)' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({
      applicationFee: 'Application fee must be an amount like 50.00', officeEmail: 'Please enter a valid email address',
      accreditationNumber: 'Accreditation number is required', portalAccessUrl: 'Please enter a valid URL',
    });
    const before = t.contentChanges.length;
    const ok = await admin.agent.put('/api/admin/settings').send({ applicationFee: '75.5', officeEmail: 'Office@College.example', accreditationNumber: 'DHET 2030/X', portalAccessUrl: 'https://lms.college.example/' });
    expect(ok.status).toBe(200);
    expect(ok.body.settings).toEqual({ applicationFee: '75.50', officeEmail: 'office@college.example', accreditationNumber: 'DHET 2030/X', portalAccessUrl: 'https://lms.college.example/' });
    expect((await admin.agent.get('/api/admin/settings')).body.settings.applicationFee).toBe('75.50');
    expect(t.contentChanges.slice(before)).toEqual(['settings updated']);
    const applicant = await signUpStudent(t);
    const docs = { idDocument: await insertUpload(t, applicant.user.id), transcripts: await insertUpload(t, applicant.user.id) };
    const submitted = await applicant.agent.post('/api/applications').send(validApplication(6, docs));
    expect(submitted.status).toBe(201);
    expect(submitted.body.application.paymentAmount).toBe('75.50');
  });

  it('GET /api/admin/site-build › null when no builder runs (API tests)', async () => {
    const res = await admin.agent.get('/api/admin/site-build');
    expect(res.body).toEqual({ build: null, building: false });
  });
});

describe(`public settings (${DB_KIND})`, () => {
  it('GET /api/settings › anyone reads the accreditation number and portal URL an admin saved, never the fee or office e-mail', async () => {
    const admin = await signInAdmin(t);
    await admin.agent.put('/api/admin/settings').send({ applicationFee: '50.00', officeEmail: 'office@college.example', accreditationNumber: 'DHET 2031/NEW', portalAccessUrl: 'https://lms.college.example/' });
    const res = await t.request().get('/api/settings');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ settings: { accreditationNumber: 'DHET 2031/NEW', portalAccessUrl: 'https://lms.college.example/' } });
  });
});
