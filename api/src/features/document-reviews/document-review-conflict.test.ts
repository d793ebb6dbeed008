import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { documentReviews } from '../../db/schema/applications.ts';
import { notifications, smsOutbox } from '../../db/schema/messaging.ts';
import { startTestApp, signUpStudent, signInAdmin, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';
import { mailsTo } from '../../test/mail.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const pdf = () => Buffer.concat([Buffer.from('%PDF-1.4\n%'), crypto.randomBytes(200), Buffer.from('\n%%EOF')]);

async function applicant() {
  const s = await signUpStudent(t);
  const up = async (name: string) => (await s.agent.post('/api/uploads').attach('file', pdf(), name)).body.upload.id as string;
  const res = await s.agent.post('/api/applications').send(validApplication(1, { idDocument: await up('id.pdf'), transcripts: await up('matric.pdf') }));
  if (res.status !== 201) throw new Error(`submit failed ${res.status} ${JSON.stringify(res.body)}`);
  return { ...s, app: res.body.application.id as number };
}
const item = (body: any, slot: string) => body.items.find((i: any) => i.slot === slot);

describe(`document review conflicts (${DB_KIND})`, () => {
  it('PUT /api/admin/applications/:id/documents/:slot › a decision on the state another admin already changed is a 409 naming them; nothing is recorded or sent', async () => {
    const s = await applicant();
    const a = await signInAdmin(t);
    const b = await signInAdmin(t);
    const url = `/api/admin/applications/${s.app}/documents/idDocument`;
    const shown = item((await b.agent.get(`/api/applications/${s.app}/checklist`)).body, 'idDocument');
    expect(shown.state).toBe('received');

    expect((await a.agent.put(url).send({ status: 'verified', uploadId: shown.upload.id, expectedState: 'received' })).status).toBe(200);
    // A's double click (the same decision from the same screen) is still fine.
    expect((await a.agent.put(url).send({ status: 'verified', uploadId: shown.upload.id, expectedState: 'received' })).status).toBe(200);

    const stale = await b.agent.put(url).send({ status: 'rejected', reason: 'Blurry.', uploadId: shown.upload.id, expectedState: 'received' });
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toBe(`This document was already marked Verified by ${a.user.firstName} ${a.user.lastName}`.trim() + ' — reload to see it.');
    const now = (await b.agent.get(`/api/applications/${s.app}/checklist`)).body;
    expect(item(now, 'idDocument').state).toBe('verified');
    expect((await t.database.db.select().from(documentReviews).where(eq(documentReviews.applicationId, s.app))).length).toBe(1);
    expect((await t.database.db.select().from(notifications).where(eq(notifications.userId, s.user.id))).filter((n) => n.message.includes('was not accepted'))).toEqual([]);
    expect((await t.database.db.select().from(smsOutbox).where(and(eq(smsOutbox.userId, s.user.id), eq(smsOutbox.kind, 'document_rejected'))))).toEqual([]);
    expect((await mailsTo(t, s.email)).filter((m) => /needs replacing/.test(m.subject ?? ''))).toEqual([]);

    // Reloaded, B sees Verified and may still overrule it.
    const overrule = await b.agent.put(url).send({ status: 'rejected', reason: 'Blurry.', uploadId: shown.upload.id, expectedState: 'verified' });
    expect(overrule.status).toBe(200);
    expect(item(overrule.body, 'idDocument').state).toBe('rejected');
  });

  it('GET /api/applications/:id/checklist › the history names each reviewer with their e-mail for admins (two admins may share a name); the applicant sees neither', async () => {
    const s = await applicant();
    const a = await signInAdmin(t);
    expect((await a.agent.put(`/api/admin/applications/${s.app}/documents/idDocument`).send({ status: 'verified' })).status).toBe(200);
    const [seen] = (await a.agent.get(`/api/applications/${s.app}/checklist`)).body.history;
    expect(seen).toMatchObject({ reviewer: `${a.user.firstName} ${a.user.lastName}`.trim(), reviewerEmail: a.user.email });
    const [theirs] = (await s.agent.get(`/api/applications/${s.app}/checklist`)).body.history;
    expect(theirs.reviewer).toBeUndefined();
    expect(theirs.reviewerEmail).toBeUndefined();
  });

  it('PUT /api/admin/applications/:id/documents/:slot › expectedState is optional (older callers) and checked when given', async () => {
    const s = await applicant();
    const a = await signInAdmin(t);
    const url = `/api/admin/applications/${s.app}/documents/transcripts`;
    const bad = await a.agent.put(url).send({ status: 'verified', expectedState: 'missing' });
    expect([bad.status, bad.body.error?.fields]).toEqual([400, { expectedState: 'Reload to see the document' }]);
    expect((await a.agent.put(url).send({ status: 'verified' })).status).toBe(200);
    expect((await a.agent.put(url).send({ status: 'rejected', reason: 'Not certified.' })).status).toBe(200);
  });
});
