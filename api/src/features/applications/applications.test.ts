import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestApp, signUpStudent, signInAdmin, insertUpload, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';
import { applications, applicationStatusHistory } from '../../db/schema/applications.ts';
import { notifications } from '../../db/schema/messaging.ts';
import { mailsTo } from '../../test/mail.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

async function applyAs(student: Awaited<ReturnType<typeof signUpStudent>>, courseId = 1, extra: Record<string, unknown> = {}) {
  const idDocument = await insertUpload(t, student.user.id);
  const transcripts = await insertUpload(t, student.user.id);
  return student.agent.post('/api/applications').send({ ...validApplication(courseId, { idDocument, transcripts }), ...extra });
}

describe(`applications (${DB_KIND})`, () => {
  it('POST /api/applications › the server sets status pending, fee 50.00 and paymentStatus, whatever the body says', async () => {
    const s = await signUpStudent(t);
    const res = await applyAs(s, 1, { status: 'accepted', paymentAmount: '0.01', paymentStatus: 'refunded', userId: 999 });
    expect(res.status).toBe(201);
    expect(res.body.application).toMatchObject({ status: 'pending', paymentAmount: '50.00', paymentStatus: 'completed', userId: s.user.id, progress: 20 });
    expect(res.body.application.course.name).toBe(res.body.application.course.title);
  });

  it('POST /api/applications › writes history, a notification and a queued e-mail with it', async () => {
    const s = await signUpStudent(t);
    const res = await applyAs(s, 2);
    const id = res.body.application.id;
    const history = await t.database.db.select().from(applicationStatusHistory).where(eq(applicationStatusHistory.applicationId, id));
    expect(history.map((h) => h.toStatus)).toEqual(['pending']);
    const notes = await t.database.db.select().from(notifications).where(eq(notifications.userId, s.user.id));
    expect(notes[0].message).toContain(`APP-${id}`);
    // Besides the e-mail verification link every new account gets (issue #12), exactly one mail: the receipt.
    const mails = (await mailsTo(t, s.email)).filter((m) => !m.subject.startsWith('Please confirm your e-mail'));
    expect(mails.length).toBe(1);
    expect(mails[0].text).toContain(`APP-${id}`);
  });

  it('POST /api/applications › refuses a second active application for the same course with 409', async () => {
    const s = await signUpStudent(t);
    expect((await applyAs(s, 3)).status).toBe(201);
    const again = await applyAs(s, 3);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('You already have an active application for this course.');
    const rows = await t.database.db.select().from(applications).where(eq(applications.userId, s.user.id));
    expect(rows.length).toBe(1);
  });

  it('POST /api/applications › unknown course is 404; bad fields are 400 with spec messages; nothing is written', async () => {
    const s = await signUpStudent(t);
    expect((await applyAs(s, 99999)).status).toBe(404);
    const bad = await s.agent.post('/api/applications').send({ courseId: 'x', firstName: 'A', dateOfBirth: '12/04/2001', academicHistory: { highSchool: {} } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toMatchObject({
      courseId: 'Please select a course',
      dateOfBirth: 'Please enter a valid date in YYYY-MM-DD format',
      'academicHistory.highSchool.name': 'High school name is required',
    });
    for (const [dateOfBirth, message] of [
      ['2031-02-30', 'Please enter a valid date in YYYY-MM-DD format'], ['1999-13-45', 'Please enter a valid date in YYYY-MM-DD format'],
      ['0000-00-00', 'Please enter a valid date in YYYY-MM-DD format'], ['2999-01-01', 'Please enter a valid date of birth'],
    ]) {
      const res = await applyAs(s, 1, { dateOfBirth });
      expect(res.status, dateOfBirth).toBe(400);
      expect(res.body.error.fields, dateOfBirth).toEqual({ dateOfBirth: message });
    }
    const rows = await t.database.db.select().from(applications).where(eq(applications.userId, s.user.id));
    expect(rows.length).toBe(0);
  });

  it("POST /api/applications › refuses documents uploaded by someone else", async () => {
    const a = await signUpStudent(t);
    const b = await signUpStudent(t);
    const foreign = await insertUpload(t, a.user.id);
    const own = await insertUpload(t, b.user.id);
    const res = await b.agent.post('/api/applications').send(validApplication(1, { idDocument: foreign, transcripts: own }));
    expect(res.status).toBe(400);
    expect(res.body.error.fields['documents.idDocument']).toBeTruthy();
  });

  it('GET /api/applications › a student reads only their own; anonymous gets 401', async () => {
    const a = await signUpStudent(t);
    const b = await signUpStudent(t);
    await applyAs(a, 4);
    await applyAs(b, 4);
    const listA = await a.agent.get('/api/colfront/applications');
    expect(listA.status).toBe(200);
    expect(listA.body.applications.every((x: any) => x.userId === a.user.id)).toBe(true);
    expect(listA.body.applications.length).toBe(1);
    expect((await t.request().get('/api/applications')).status).toBe(401);
    const other = listA.body.applications[0].id;
    expect((await b.agent.get(`/api/applications/${other}`)).status).toBe(404);
  });

  it('PUT /api/admin/applications/:id/status › admin only; keeps history; student sees the new status without internal notes', async () => {
    const s = await signUpStudent(t);
    const id = (await applyAs(s, 5)).body.application.id;
    expect((await s.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'accepted' })).status).toBe(403);
    expect((await t.request().put(`/api/admin/applications/${id}/status`).send({ status: 'accepted' })).status).toBe(401);
    const admin = await signInAdmin(t);
    const res = await admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'accepted', notes: 'internal: strong matric results' });
    expect(res.status).toBe(200);
    expect(res.body.application.status).toBe('accepted');
    const mine = await s.agent.get('/api/applications');
    expect(mine.body.applications[0].status).toBe('accepted');
    expect(JSON.stringify(mine.body)).not.toContain('internal: strong');
    const history = await t.database.db.select().from(applicationStatusHistory).where(eq(applicationStatusHistory.applicationId, id));
    expect(history.map((h) => [h.fromStatus, h.toStatus])).toEqual([[null, 'pending'], ['pending', 'accepted']]);
    expect((await admin.agent.put('/api/admin/applications/999999/status').send({ status: 'accepted' })).status).toBe(404);
    expect((await admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'approved' })).status).toBe(400);
  });
});

describe(`status decisions made twice or at once (${DB_KIND})`, () => {
  const statusNotes = async (userId: number) => (await t.database.db.select().from(notifications).where(eq(notifications.userId, userId)))
    .filter((n) => n.message.includes(' is now: '));
  const historyOf = async (id: number) => (await t.database.db.select().from(applicationStatusHistory).where(eq(applicationStatusHistory.applicationId, id))
    .orderBy(applicationStatusHistory.id)).map((h) => [h.fromStatus, h.toStatus]);

  it('PUT /api/admin/applications/:id/status › two admins deciding from the same screen (expectedStatus): one wins, the other gets 409 naming the new status; the student hears one decision', async () => {
    const s = await signUpStudent(t);
    const id = (await applyAs(s, 10)).body.application.id;
    const a = await signInAdmin(t);
    const b = await signInAdmin(t);
    const [ra, rb] = await Promise.all([
      a.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'rejected', expectedStatus: 'pending' }).then((r) => r),
      b.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'accepted', expectedStatus: 'pending' }).then((r) => r),
    ]);
    expect([ra.status, rb.status].sort()).toEqual([200, 409]);
    const [won, lost] = ra.status === 200 ? [ra, rb] : [rb, ra];
    const final = won.body.application.status as string;
    expect(lost.body.error.message).toBe(`This application is now ${final === 'rejected' ? 'Rejected' : 'Accepted'} — someone changed it since you opened it. Reload to see the latest.`);
    expect(await historyOf(id)).toEqual([[null, 'pending'], ['pending', final]]);
    expect((await statusNotes(s.user.id)).length).toBe(1);
    // A stale tab that still shows Pending is refused too; one showing the current status goes through.
    expect((await a.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'under_review', expectedStatus: 'pending' })).status).toBe(409);
    expect((await a.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'under_review', expectedStatus: final })).status).toBe(200);
    expect((await a.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'accepted', expectedStatus: 'approved' })).status).toBe(400);
  });

  it('PUT /api/admin/applications/:id/status › the same status ten times at once writes one history row and sends one notification; a repeat with notes keeps the notes only', async () => {
    const s = await signUpStudent(t);
    const id = (await applyAs(s, 11)).body.application.id;
    const admin = await signInAdmin(t);
    const answers = await Promise.all(Array.from({ length: 10 }, () => admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'under_review' }).then((r) => r)));
    expect(answers.every((r) => r.status === 200 && r.body.application.status === 'under_review')).toBe(true);
    expect(await historyOf(id)).toEqual([[null, 'pending'], ['pending', 'under_review']]);
    expect((await statusNotes(s.user.id)).length).toBe(1);
    const noted = await admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'under_review', notes: 'internal: waiting for the school' });
    expect(noted.body.application.notes).toBe('internal: waiting for the school');
    expect(await historyOf(id)).toEqual([[null, 'pending'], ['pending', 'under_review'], ['under_review', 'under_review']]);
    expect((await statusNotes(s.user.id)).length).toBe(1);
  });
});

describe(`application detail and missing documents (${DB_KIND})`, () => {
  it('POST /api/applications › a double-clicked submit (two at once) creates one application', async () => {
    const s = await signUpStudent(t);
    const idDocument = await insertUpload(t, s.user.id);
    const transcripts = await insertUpload(t, s.user.id);
    const body = validApplication(6, { idDocument, transcripts });
    const results = await Promise.all([s.agent.post('/api/applications').send(body), s.agent.post('/api/applications').send(body)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const rows = await t.database.db.select().from(applications).where(eq(applications.userId, s.user.id));
    expect(rows.length).toBe(1);
  });

  it('POST /api/applications › the payment keeps method, last four digits and a reference, never the card number or CVC', async () => {
    const s = await signUpStudent(t);
    const id = (await applyAs(s, 7)).body.application.id;
    const res = await s.agent.get(`/api/applications/${id}`);
    expect(res.body.payment).toMatchObject({ method: 'card', last4: '4242', amount: '50.00', status: 'completed', reference: expect.stringMatching(/^PAY-/) });
    const { payments } = await import('../../db/schema/applications.ts');
    const dump = JSON.stringify([await t.database.db.select().from(payments), await t.database.db.select().from(applications)]);
    expect(dump).not.toContain('4242424242424242');
    expect(dump).not.toMatch(/"cardCvc"|"123"/);
  });

  it('GET /api/applications/:id › timeline with dates (no internal notes for the student), documents and payment; others get 404', async () => {
    const s = await signUpStudent(t);
    const other = await signUpStudent(t);
    const id = (await applyAs(s, 8)).body.application.id;
    const admin = await signInAdmin(t);
    await admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'under_review', notes: 'internal: check matric' });
    const res = await s.agent.get(`/api/colfront/applications/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.timeline.map((h: any) => h.toStatus)).toEqual(['pending', 'under_review']);
    expect(res.body.timeline.every((h: any) => !Number.isNaN(Date.parse(h.createdAt)))).toBe(true);
    expect(JSON.stringify(res.body)).not.toContain('internal: check');
    expect(res.body.documents.idDocument).toMatchObject({ name: 'doc.pdf', mime: 'application/pdf' });
    expect(res.body.documents.englishProficiency).toBeUndefined();
    expect((await other.agent.get(`/api/applications/${id}`)).status).toBe(404);
    const asAdmin = await admin.agent.get(`/api/applications/${id}`);
    expect(asAdmin.body.timeline[1].notes).toBe('internal: check matric');
  });

  it('PUT /api/applications/:id/documents › only while documents_required, only the owner, only own uploads; back to under_review with history', async () => {
    const s = await signUpStudent(t);
    const other = await signUpStudent(t);
    const id = (await applyAs(s, 9)).body.application.id;
    const mat = await insertUpload(t, s.user.id, 'matric.pdf');
    expect((await s.agent.put(`/api/applications/${id}/documents`).send({ documents: { englishProficiency: mat } })).status).toBe(409);
    const admin = await signInAdmin(t);
    await admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'documents_required' });
    const otherUpload = await insertUpload(t, other.user.id);
    expect((await other.agent.put(`/api/applications/${id}/documents`).send({ documents: { englishProficiency: otherUpload } })).status).toBe(404);
    expect((await s.agent.put(`/api/applications/${id}/documents`).send({ documents: { englishProficiency: otherUpload } })).status).toBe(400);
    expect((await s.agent.put(`/api/applications/${id}/documents`).send({ documents: {} })).status).toBe(400);
    const ok = await s.agent.put(`/api/applications/${id}/documents`).send({ documents: { englishProficiency: mat } });
    expect(ok.status).toBe(200);
    expect(ok.body.application).toMatchObject({ status: 'under_review', documents: { englishProficiency: mat } });
    expect(ok.body.application.documents.idDocument).toBeTruthy();
    const detail = await s.agent.get(`/api/applications/${id}`);
    expect(detail.body.timeline.map((h: any) => h.toStatus)).toEqual(['pending', 'documents_required', 'under_review']);
    expect(detail.body.documents.englishProficiency.name).toBe('matric.pdf');
  });
});
