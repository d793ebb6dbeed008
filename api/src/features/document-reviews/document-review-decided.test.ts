import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { documentReviews } from '../../db/schema/applications.ts';
import { notifications, smsOutbox } from '../../db/schema/messaging.ts';
import { startTestApp, signUpStudent, signInAdmin, validApplication, DB_KIND, type SignedIn, type TestApp } from '../../test/harness.ts';
import { mailsTo } from '../../test/mail.ts';

let t: TestApp;
let admin: SignedIn;
beforeAll(async () => { t = await startTestApp(); admin = await signInAdmin(t); });
afterAll(async () => { await t.close(); });

const pdf = () => Buffer.concat([Buffer.from('%PDF-1.4\n%'), crypto.randomBytes(200), Buffer.from('\n%%EOF')]);

/** A student's application whose ID Document the admin rejected, then moved to `status`. */
async function rejectedThen(status: string) {
  const s = await signUpStudent(t);
  const up = async (name: string) => (await s.agent.post('/api/uploads').attach('file', pdf(), name)).body.upload.id as string;
  const idDoc = await up('id.pdf');
  const res = await s.agent.post('/api/applications').send(validApplication(1, { idDocument: idDoc, transcripts: await up('matric.pdf') }));
  if (res.status !== 201) throw new Error(`submit failed ${res.status} ${JSON.stringify(res.body)}`);
  const app = res.body.application.id as number;
  expect((await admin.agent.put(`/api/admin/applications/${app}/documents/idDocument`).send({ status: 'rejected', reason: 'Expired ID.' })).status).toBe(200);
  if (status !== 'pending') expect((await admin.agent.put(`/api/admin/applications/${app}/status`).send({ status })).status).toBe(200);
  return { ...s, app, idDoc, up };
}
const item = (body: any, slot: string) => body.items.find((i: any) => i.slot === slot);
const noticeCount = async (userId: number) => (await t.database.db.select().from(notifications).where(eq(notifications.userId, userId))).length;

describe(`document replacement on a decided application (${DB_KIND})`, () => {
  for (const decided of ['accepted', 'rejected']) {
    it(`PUT /api/applications/:id/documents/:slot › an application ${decided} is closed: replacing its rejected document is a 409 saying so; the slot keeps the rejected file and nothing is sent`, async () => {
      const s = await rejectedThen(decided);
      const fresh = await s.up('id-new.pdf');
      const mails = (await mailsTo(t, s.email)).length;
      const notices = await noticeCount(s.user.id);
      const res = await s.agent.put(`/api/applications/${s.app}/documents/idDocument`).send({ uploadId: fresh });
      expect([res.status, res.body.error]).toEqual([409, { code: 'conflict', message: 'This application has been decided, so its documents can no longer be replaced.' }]);
      expect(item((await s.agent.get(`/api/applications/${s.app}/checklist`)).body, 'idDocument')).toMatchObject({ state: 'rejected', upload: { id: s.idDoc } });
      expect((await mailsTo(t, s.email)).length).toBe(mails);
      expect(await noticeCount(s.user.id)).toBe(notices);
      // Still the owner's business only: another student gets the 404 as before, not the decided 409.
      const other = await signUpStudent(t);
      expect((await other.agent.put(`/api/applications/${s.app}/documents/idDocument`).send({ uploadId: fresh })).status).toBe(404);
    });
  }

  it('PUT /api/admin/applications/:id/documents/:slot › the answer says whether the application was decided when the review was recorded (the admin\'s toast reads it, not the panel\'s older copy)', async () => {
    const s = await rejectedThen('under_review');
    const url = `/api/admin/applications/${s.app}/documents/transcripts`;
    expect((await admin.agent.put(url).send({ status: 'rejected', reason: 'Blurred.' })).body.decided).toBe(false);
    // The same rejection again (a retry): nothing new is recorded, and it is still an open application.
    expect((await admin.agent.put(url).send({ status: 'rejected', reason: 'Blurred.' })).body.decided).toBe(false);
    expect((await admin.agent.put(`/api/admin/applications/${s.app}/status`).send({ status: 'rejected' })).status).toBe(200);
    expect((await admin.agent.put(url).send({ status: 'verified' })).body.decided).toBe(true);
  });

  for (const open of ['pending', 'under_review', 'payment_pending', 'documents_required']) {
    it(`PUT /api/applications/:id/documents/:slot › an application that is ${open} (open, spec §4) still takes the replacement`, async () => {
      const s = await rejectedThen(open);
      const fresh = await s.up('id-new.pdf');
      const res = await s.agent.put(`/api/applications/${s.app}/documents/idDocument`).send({ uploadId: fresh });
      expect(res.status).toBe(200);
      expect(item(res.body, 'idDocument')).toMatchObject({ state: 'received', upload: { id: fresh } });
    });
  }

  it('PUT /api/admin/applications/:id/documents/:slot › on a decided application the admin still verifies and rejects for the record; a rejection asks the applicant for nothing (no notice, e-mail or SMS)', async () => {
    const s = await rejectedThen('accepted');
    const url = `/api/admin/applications/${s.app}/documents/transcripts`;
    const mails = (await mailsTo(t, s.email)).length;
    const notices = await noticeCount(s.user.id);
    const sms = async () => (await t.database.db.select().from(smsOutbox).where(and(eq(smsOutbox.userId, s.user.id), eq(smsOutbox.kind, 'document_rejected')))).length;
    const smsBefore = await sms();
    const rej = await admin.agent.put(url).send({ status: 'rejected', reason: 'Not certified.' });
    expect(rej.status).toBe(200);
    expect(item(rej.body, 'transcripts')).toMatchObject({ state: 'rejected', reason: 'Not certified.' });
    expect(rej.body.decided).toBe(true);
    expect((await mailsTo(t, s.email)).length).toBe(mails);
    expect(await noticeCount(s.user.id)).toBe(notices);
    expect(await sms()).toBe(smsBefore);
    expect((await admin.agent.put(`/api/admin/applications/${s.app}/documents/idDocument`).send({ status: 'verified' })).status).toBe(200);
    expect((await t.database.db.select().from(documentReviews).where(eq(documentReviews.applicationId, s.app))).map((r) => [r.slot, r.status]))
      .toEqual([['idDocument', 'rejected'], ['transcripts', 'rejected'], ['idDocument', 'verified']]);
  });
});
