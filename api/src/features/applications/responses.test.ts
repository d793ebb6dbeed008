/**
 * Response contracts (issue #15 point 3): real answers of the applicant and admin endpoints parse with the
 * schemas in api/contracts/, so the islands' types describe what the API really sends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signUpStudent, signInAdmin, insertUpload, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';
import { ApplicationDetailSchema, ApplicationListSchema, UploadViewSchema } from '#contracts/application-views.ts';
import { ReportsSchema } from '#contracts/reports.ts';
import { StudentsPageSchema } from '#contracts/students.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

/** The schema's first problem as 'path: message', or null when `body` matches. */
function mismatch(schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } }, body: unknown): string | null {
  const r = schema.safeParse(body);
  return r.success ? null : r.error!.issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`)[0]!;
}

describe(`response contracts (${DB_KIND})`, () => {
  it('GET /api/applications, GET /api/applications/:id and GET /api/uploads match their contracts, for the student and for an admin', async () => {
    const s = await signUpStudent(t);
    const idDocument = await insertUpload(t, s.user.id);
    const transcripts = await insertUpload(t, s.user.id);
    const created = await s.agent.post('/api/applications').send(validApplication(1, { idDocument, transcripts }));
    expect(created.status).toBe(201);
    const id = created.body.application.id as number;

    const list = await s.agent.get('/api/applications');
    expect(mismatch(ApplicationListSchema, list.body)).toBeNull();
    expect(list.body.applications[0].payment.last4).toMatch(/^\d{4}$/);
    const detail = await s.agent.get(`/api/applications/${id}`);
    expect(mismatch(ApplicationDetailSchema, detail.body)).toBeNull();
    expect(Object.keys(detail.body.documents)).toEqual(expect.arrayContaining(['idDocument', 'transcripts']));
    const uploads = await s.agent.get('/api/uploads');
    for (const u of uploads.body.uploads) expect(mismatch(UploadViewSchema, u)).toBeNull();

    const { agent: admin } = await signInAdmin(t);
    expect((await admin.put(`/api/admin/applications/${id}/status`).send({ status: 'under_review', notes: 'Checking' })).status).toBe(200);
    const adminDetail = await admin.get(`/api/applications/${id}`);
    expect(mismatch(ApplicationDetailSchema, adminDetail.body)).toBeNull();
    expect(adminDetail.body.timeline.map((e: { toStatus: string }) => e.toStatus)).toEqual(['pending', 'under_review']);
  });

  it('GET /api/admin/reports and GET /api/admin/students match their contracts', async () => {
    const s = await signUpStudent(t);
    const { agent: admin } = await signInAdmin(t);
    const reports = await admin.get('/api/admin/reports');
    expect(reports.status).toBe(200);
    expect(mismatch(ReportsSchema, reports.body)).toBeNull();
    const students = await admin.get(`/api/admin/students?q=${encodeURIComponent(s.email)}`);
    expect(mismatch(StudentsPageSchema, students.body)).toBeNull();
    expect(students.body.students.map((x: { email: string }) => x.email)).toEqual([s.email]);
  });
});
