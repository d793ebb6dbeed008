import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { documentReviews } from '../../db/schema/applications.ts';
import { notifications, smsOutbox } from '../../db/schema/messaging.ts';
import { startTestApp, signUpStudent, signInAdmin, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';
import { mailsTo, type DeliveredMail } from '../../test/mail.ts';

let t: TestApp;
let dataDir: string;
let courseId: number;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(`/tmp/college-reviews-test-${process.pid}-`);
  t = await startTestApp({ DATA_DIR: dataDir });
  courseId = (await t.request().get('/api/courses')).body.courses?.[0]?.id ?? (await t.request().get('/api/courses')).body[0].id;
});
afterAll(async () => { await t.close(); fs.rmSync(dataDir, { recursive: true, force: true }); });

const pdf = () => Buffer.concat([Buffer.from('%PDF-1.4\n%'), crypto.randomBytes(200), Buffer.from('\n%%EOF')]);

async function applicant() {
  const s = await signUpStudent(t);
  const up = async (name: string) => { const buf = pdf(); return { buf, id: (await s.agent.post('/api/uploads').attach('file', buf, name)).body.upload.id as string }; };
  const idDoc = await up('id.pdf');
  const transcripts = await up('transcripts.pdf');
  const res = await s.agent.post('/api/applications').send(validApplication(courseId, { idDocument: idDoc.id, transcripts: transcripts.id }));
  if (res.status !== 201) throw new Error(`submit failed ${res.status} ${JSON.stringify(res.body)}`);
  return { ...s, app: res.body.application.id as number, idDoc, transcripts, up };
}
const item = (body: any, slot: string) => body.items.find((i: any) => i.slot === slot);
const outboxTo = (email: string): Promise<DeliveredMail[]> => mailsTo(t, email);

describe(`document checklist (${DB_KIND})`, () => {
  it('GET /api/applications/:id/checklist › each slot shows received with size and SHA-256 as a receipt; missing slots say so', async () => {
    const s = await applicant();
    const res = await s.agent.get(`/api/applications/${s.app}/checklist`);
    expect(res.status).toBe(200);
    expect(item(res.body, 'idDocument')).toMatchObject({
      label: 'ID Document', state: 'received', reason: null,
      upload: { id: s.idDoc.id, name: 'id.pdf', size: s.idDoc.buf.length, sha256: crypto.createHash('sha256').update(s.idDoc.buf).digest('hex') },
    });
    expect(item(res.body, 'englishProficiency')).toMatchObject({ state: 'missing', upload: null });
    expect(res.body.history).toEqual([]);
    const other = await signUpStudent(t);
    expect((await other.agent.get(`/api/applications/${s.app}/checklist`)).status).toBe(404);
    expect((await t.request().get(`/api/applications/${s.app}/checklist`)).status).toBe(401);
  });

  it('PUT /api/admin/applications/:id/documents/:slot › verified and rejected show to the applicant; a rejection needs a reason and notifies by portal and e-mail', async () => {
    const s = await applicant();
    const admin = await signInAdmin(t);
    const bad = await admin.agent.put(`/api/admin/applications/${s.app}/documents/idDocument`).send({ status: 'rejected', reason: '  ' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields.reason).toBe('Please give a reason for rejecting this document');
    expect((await admin.agent.put(`/api/admin/applications/${s.app}/documents/passport`).send({ status: 'verified' })).status).toBe(400);
    expect((await admin.agent.put(`/api/admin/applications/${s.app}/documents/englishProficiency`).send({ status: 'verified' })).status).toBe(409);
    expect((await s.agent.put(`/api/admin/applications/${s.app}/documents/idDocument`).send({ status: 'verified' })).status).toBe(403);

    expect((await admin.agent.put(`/api/admin/applications/${s.app}/documents/transcripts`).send({ status: 'verified' })).status).toBe(200);
    const rej = await admin.agent.put(`/api/admin/applications/${s.app}/documents/idDocument`).send({ status: 'rejected', reason: 'The photo is too blurry to read.' });
    expect(rej.status).toBe(200);
    expect(item(rej.body, 'idDocument')).toMatchObject({ state: 'rejected', reason: 'The photo is too blurry to read.' });

    const mine = (await s.agent.get(`/api/applications/${s.app}/checklist`)).body;
    expect(item(mine, 'transcripts').state).toBe('verified');
    expect(item(mine, 'idDocument')).toMatchObject({ state: 'rejected', reason: 'The photo is too blurry to read.' });
    expect(mine.history[0].reviewer).toBeUndefined();
    const notes = (await s.agent.get('/api/notifications')).body.notifications;
    expect(notes.some((n: any) => n.message.includes('ID Document') && n.message.includes('The photo is too blurry to read.') && n.applicationId === s.app)).toBe(true);
    const mails = await outboxTo(s.email);
    expect(mails.some((m) => m.subject === `APP-${s.app}: ID Document needs replacing` && m.text.includes('The photo is too blurry to read.'))).toBe(true);
    // Verifying sends nothing.
    expect(mails.filter((m) => m.subject === `APP-${s.app}: ID Document needs replacing`).length).toBe(1);
  });

  it('GET /api/applications › rejectedDocuments names the slots whose current document was rejected, [] once replaced', async () => {
    const s = await applicant();
    const admin = await signInAdmin(t);
    const mine = async () => (await s.agent.get('/api/applications')).body.applications.find((a: any) => a.id === s.app);
    expect((await mine()).rejectedDocuments).toEqual([]);
    expect((await admin.agent.put(`/api/admin/applications/${s.app}/documents/idDocument`).send({ status: 'rejected', reason: 'Too blurry.' })).status).toBe(200);
    expect((await mine()).rejectedDocuments).toEqual(['idDocument']);
    const fresh = await s.up('id-again.pdf');
    expect((await s.agent.put(`/api/applications/${s.app}/documents/idDocument`).send({ uploadId: fresh.id })).status).toBe(200);
    expect((await mine()).rejectedDocuments).toEqual([]);
  });

  it('PUT /api/applications/:id/documents/:slot › the applicant replaces only a rejected document; the history keeps every review', async () => {
    const s = await applicant();
    const admin = await signInAdmin(t);
    const fresh = await s.up('id-new.pdf');
    expect((await s.agent.put(`/api/applications/${s.app}/documents/idDocument`).send({ uploadId: fresh.id })).status).toBe(409);
    await admin.agent.put(`/api/admin/applications/${s.app}/documents/idDocument`).send({ status: 'rejected', reason: 'Expired ID.' });
    await admin.agent.put(`/api/admin/applications/${s.app}/documents/transcripts`).send({ status: 'verified' });
    // Not a rejected one:
    expect((await s.agent.put(`/api/applications/${s.app}/documents/transcripts`).send({ uploadId: fresh.id })).status).toBe(409);
    // Someone else's upload, or someone else's application:
    const other = await signUpStudent(t);
    const foreign = (await other.agent.post('/api/uploads').attach('file', pdf(), 'x.pdf')).body.upload.id;
    expect((await s.agent.put(`/api/applications/${s.app}/documents/idDocument`).send({ uploadId: foreign })).status).toBe(400);
    expect((await other.agent.put(`/api/applications/${s.app}/documents/idDocument`).send({ uploadId: foreign })).status).toBe(404);

    const ok = await s.agent.put(`/api/applications/${s.app}/documents/idDocument`).send({ uploadId: fresh.id });
    expect(ok.status).toBe(200);
    expect(item(ok.body, 'idDocument')).toMatchObject({ state: 'received', reason: null, upload: { id: fresh.id, name: 'id-new.pdf' } });
    expect(item(ok.body, 'transcripts').state).toBe('verified');
    // Replaced once: a second try finds it no longer rejected.
    expect((await s.agent.put(`/api/applications/${s.app}/documents/idDocument`).send({ uploadId: (await s.up('again.pdf')).id })).status).toBe(409);

    await admin.agent.put(`/api/admin/applications/${s.app}/documents/idDocument`).send({ status: 'verified' });
    const seen = (await admin.agent.get(`/api/applications/${s.app}/checklist`)).body;
    expect(item(seen, 'idDocument').state).toBe('verified');
    expect(seen.history.map((h: any) => [h.slot, h.status, h.uploadId])).toEqual([
      ['idDocument', 'rejected', s.idDoc.id], ['transcripts', 'verified', s.transcripts.id], ['idDocument', 'verified', fresh.id],
    ]);
    expect(seen.history[0]).toMatchObject({ reason: 'Expired ID.' });
    expect(typeof seen.history[0].reviewer).toBe('string');
  });

  it('PUT /api/applications/:id/documents/:slot › "replacing" a rejected document with the same upload is a 409 with what to do; no mail or notification is sent', async () => {
    const s = await applicant();
    const admin = await signInAdmin(t);
    expect((await admin.agent.put(`/api/admin/applications/${s.app}/documents/idDocument`).send({ status: 'rejected', reason: 'Expired ID.' })).status).toBe(200);
    const mailsBefore = (await outboxTo(s.email)).length;
    const noticesBefore = (await t.database.db.select().from(notifications).where(eq(notifications.userId, s.user.id))).length;
    for (let i = 0; i < 3; i++) {
      const same = await s.agent.put(`/api/applications/${s.app}/documents/idDocument`).send({ uploadId: s.idDoc.id });
      expect(same.status).toBe(409);
      expect(same.body.error.message).toBe('Please upload a new document to replace the rejected one.');
    }
    expect((await outboxTo(s.email)).length).toBe(mailsBefore);
    expect((await t.database.db.select().from(notifications).where(eq(notifications.userId, s.user.id))).length).toBe(noticesBefore);
    expect(item((await s.agent.get(`/api/applications/${s.app}/checklist`)).body, 'idDocument').state).toBe('rejected');
    // A new upload still replaces it.
    expect((await s.agent.put(`/api/applications/${s.app}/documents/idDocument`).send({ uploadId: (await s.up('id-new.pdf')).id })).status).toBe(200);
  });

  it('PUT /api/admin/applications/:id/documents/:slot › a rejection of the file the admin opened, after the applicant replaced it, is a 409; the new file stays received and nothing is sent', async () => {
    const s = await applicant();
    const admin = await signInAdmin(t);
    const slow = await signInAdmin(t);
    // Both admins open the checklist and see the first ID document.
    const seen = item((await slow.agent.get(`/api/applications/${s.app}/checklist`)).body, 'idDocument').upload.id;
    expect(seen).toBe(s.idDoc.id);
    expect((await admin.agent.put(`/api/admin/applications/${s.app}/documents/idDocument`).send({ status: 'rejected', reason: 'Expired ID.', uploadId: seen })).status).toBe(200);
    const fresh = await s.up('id-new.pdf');
    expect((await s.agent.put(`/api/applications/${s.app}/documents/idDocument`).send({ uploadId: fresh.id })).status).toBe(200);

    const stale = await slow.agent.put(`/api/admin/applications/${s.app}/documents/idDocument`).send({ status: 'rejected', reason: 'Expired ID.', uploadId: seen });
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toBe('The applicant replaced this document since you opened it. Reload to see the new file.');
    const mine = (await s.agent.get(`/api/applications/${s.app}/checklist`)).body;
    expect(item(mine, 'idDocument')).toMatchObject({ state: 'received', upload: { id: fresh.id } });
    expect((await outboxTo(s.email)).filter((m) => m.subject === `APP-${s.app}: ID Document needs replacing`).length).toBe(1);
    expect((await t.database.db.select().from(smsOutbox).where(and(eq(smsOutbox.userId, s.user.id), eq(smsOutbox.kind, 'document_rejected')))).length).toBe(1);
    // Naming the new file, the review goes through.
    const ok = await slow.agent.put(`/api/admin/applications/${s.app}/documents/idDocument`).send({ status: 'verified', uploadId: fresh.id });
    expect(ok.status).toBe(200);
    expect(item(ok.body, 'idDocument').state).toBe('verified');
  });

  it('PUT /api/admin/applications/:id/documents/:slot › five identical rejections at once record one review and send one notification, one e-mail and one SMS', async () => {
    const s = await applicant();
    const admin = await signInAdmin(t);
    const body = { status: 'rejected', reason: 'The photo is too blurry to read.', uploadId: s.idDoc.id };
    const answers = await Promise.all(Array.from({ length: 5 }, () => admin.agent.put(`/api/admin/applications/${s.app}/documents/idDocument`).send(body).then((r) => r)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.every((r) => item(r.body, 'idDocument').state === 'rejected')).toBe(true);
    expect((await t.database.db.select().from(documentReviews).where(eq(documentReviews.applicationId, s.app))).length).toBe(1);
    const notes = await t.database.db.select().from(notifications).where(eq(notifications.userId, s.user.id));
    expect(notes.filter((n) => n.message.includes('was not accepted')).length).toBe(1);
    expect((await outboxTo(s.email)).filter((m) => m.subject === `APP-${s.app}: ID Document needs replacing`).length).toBe(1);
    expect((await t.database.db.select().from(smsOutbox).where(and(eq(smsOutbox.userId, s.user.id), eq(smsOutbox.kind, 'document_rejected')))).length).toBe(1);
    // Another reason, or verifying after all, is a new decision.
    expect((await admin.agent.put(`/api/admin/applications/${s.app}/documents/idDocument`).send({ ...body, reason: 'Expired ID.' })).status).toBe(200);
    expect((await admin.agent.put(`/api/admin/applications/${s.app}/documents/idDocument`).send({ status: 'verified', uploadId: s.idDoc.id })).status).toBe(200);
    expect((await admin.agent.put(`/api/admin/applications/${s.app}/documents/idDocument`).send({ status: 'verified', uploadId: s.idDoc.id })).status).toBe(200);
    const history = (await admin.agent.get(`/api/applications/${s.app}/checklist`)).body.history;
    expect(history.map((h: any) => [h.status, h.reason])).toEqual([['rejected', 'The photo is too blurry to read.'], ['rejected', 'Expired ID.'], ['verified', null]]);
  });
});
