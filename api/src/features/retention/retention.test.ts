import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { startTestApp, signUpStudent, signInAdmin, insertUpload, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';
import { applications, applicationStatusHistory, documentReviews, payments } from '../../db/schema/applications.ts';
import { contactMessages, assessmentBookings, mailOutbox, smsOutbox } from '../../db/schema/messaging.ts';
import { applyRetention, RETENTION_DAYS } from './retention.service.ts';
import { ERASED_REVIEW_REASON } from '../erasure/erasure.repo.ts';
import { startServer } from '../../server.ts';
import { PRIVACY_NOTICE_VERSION } from '../auth/auth.service.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3600_000);

describe(`retention (${DB_KIND}, privacy audit F5: what the privacy notice promises)`, () => {
  it('deletes contact messages after two years, bookings after one, finished mail and SMS after 90 days; keeps younger and queued rows', async () => {
    const db = t.database.db;
    const tag = `ret-${Date.now()}`;
    const contact = (days: number) => ({ firstName: 'Old', lastName: tag, email: `${tag}@example.com`, message: `${days} days`, createdAt: daysAgo(days) });
    const booking = (days: number) => ({ data: { firstName: 'Old', specialNeeds: 'I use a wheelchair' }, email: `${tag}@example.com`, preferredDate: '2024-01-01', createdAt: daysAgo(days) });
    const mail = (days: number, status: 'sent' | 'failed' | 'pending') => ({ to: `${tag}@example.com`, subject: `${status} ${days}`, text: 'x', status, createdAt: daysAgo(days) });
    const sms = (days: number, status: 'sent' | 'failed' | 'skipped' | 'pending') => ({ to: '+27820000000', body: tag, kind: 'receipt', status, createdAt: daysAgo(days) });
    await db.insert(contactMessages).values([contact(RETENTION_DAYS.contactMessages + 1), contact(RETENTION_DAYS.contactMessages - 1)]);
    await db.insert(assessmentBookings).values([booking(RETENTION_DAYS.assessmentBookings + 1), booking(RETENTION_DAYS.assessmentBookings - 1)]);
    await db.insert(mailOutbox).values([mail(91, 'sent'), mail(91, 'failed'), mail(91, 'pending'), mail(89, 'sent')]);
    await db.insert(smsOutbox).values([sms(91, 'sent'), sms(91, 'failed'), sms(91, 'skipped'), sms(91, 'pending'), sms(89, 'sent')]);

    const first = await applyRetention(db);
    expect(first).toMatchObject({ contactMessages: 1, assessmentBookings: 1, mail: 2, sms: 3 });
    expect((await db.select({ m: contactMessages.message }).from(contactMessages).where(eq(contactMessages.lastName, tag))).map((r) => r.m)).toEqual([`${RETENTION_DAYS.contactMessages - 1} days`]);
    expect(await db.select().from(assessmentBookings).where(eq(assessmentBookings.email, `${tag}@example.com`))).toHaveLength(1);
    expect((await db.select({ s: mailOutbox.subject }).from(mailOutbox).where(eq(mailOutbox.to, `${tag}@example.com`)).orderBy(mailOutbox.id)).map((r) => r.s)).toEqual(['pending 91', 'sent 89']);
    expect((await db.select({ s: smsOutbox.status }).from(smsOutbox).where(eq(smsOutbox.body, tag)).orderBy(smsOutbox.id)).map((r) => r.s)).toEqual(['pending', 'sent']);
    // Again, and on two nodes at once: nothing more to do, no error.
    const again = await Promise.all([applyRetention(db), applyRetention(db)]);
    for (const r of again) expect(r).toEqual({ contactMessages: 0, assessmentBookings: 0, rejectedApplications: 0, mail: 0, sms: 0 });
  });

  it('redacts an unsuccessful application a year after its last change as Erase does; a younger one and other statuses stay', async () => {
    const db = t.database.db;
    const admin = await signInAdmin(t);
    const apply = async (courseId: number) => {
      const s = await signUpStudent(t);
      const idDocument = await insertUpload(t, s.user.id);
      const transcripts = await insertUpload(t, s.user.id);
      const res = await s.agent.post('/api/applications').send(validApplication(courseId, { idDocument, transcripts }));
      expect(res.status).toBe(201);
      return { s, id: res.body.application.id as number, idDocument };
    };
    const old = await apply(1);
    const young = await apply(1);
    const accepted = await apply(1);
    for (const [a, status] of [[old, 'rejected'], [young, 'rejected'], [accepted, 'accepted']] as const) {
      expect((await admin.agent.put(`/api/admin/applications/${a.id}/status`).send({ status, notes: `Phoned Thandi about ${a.id}` })).status).toBe(200);
    }
    await db.insert(documentReviews).values({ applicationId: old.id, slot: 'idDocument', uploadId: old.idDocument, status: 'rejected', reason: 'Blurry scan of Thandi\'s ID', createdAt: daysAgo(RETENTION_DAYS.rejectedApplications + 2) });
    await db.update(applicationStatusHistory).set({ createdAt: daysAgo(RETENTION_DAYS.rejectedApplications + 2) }).where(inArray(applicationStatusHistory.applicationId, [old.id, accepted.id]));
    // The APS and verdict an application with NSC results stores (worked out from the academic history).
    await db.update(applications).set({ aps: 31, eligible: false, eligibilityReasons: ['Mathematics 45 % — 50 % needed'] }).where(inArray(applications.id, [old.id, young.id]));
    await db.update(applications).set({ updatedAt: daysAgo(RETENTION_DAYS.rejectedApplications + 1) }).where(eq(applications.id, old.id));
    await db.update(applications).set({ updatedAt: daysAgo(RETENTION_DAYS.rejectedApplications - 1) }).where(eq(applications.id, young.id));
    await db.update(applications).set({ updatedAt: daysAgo(800) }).where(eq(applications.id, accepted.id));

    const [r1, r2] = await Promise.all([applyRetention(db), applyRetention(db)]);
    expect(r1!.rejectedApplications + r2!.rejectedApplications).toBe(1);

    // The application record as an admin sees it (its answers and history; the account itself stays the person's).
    const view = async (id: number) => {
      const body = (await admin.agent.get(`/api/admin/applications/${id}`)).body;
      return JSON.stringify([body.application, (body.history ?? []).map((h: { notes: unknown }) => h.notes)]);
    };
    const oldView = await view(old.id);
    expect(oldView).not.toMatch(/Thandi|Mokoena|0821234567|Mbilwi|Phoned/);
    expect(oldView).toContain('Erased');
    const [row] = await db.select().from(applications).where(eq(applications.id, old.id));
    expect(row).toMatchObject({ status: 'rejected', personal: { firstName: 'Erased', lastName: 'applicant' }, academicHistory: {}, documents: {}, notes: null, aps: null, eligible: null, eligibilityReasons: [] });
    // What the privacy notice says stays: the payment's amount, method, reference and status.
    expect((await db.select().from(payments).where(eq(payments.applicationId, old.id)))[0]).toMatchObject({ amount: expect.any(String), method: expect.any(String), reference: expect.any(String), status: expect.any(String) });
    const notes = await db.select({ n: applicationStatusHistory.notes }).from(applicationStatusHistory).where(eq(applicationStatusHistory.applicationId, old.id));
    expect(notes.every((h) => h.n === null)).toBe(true);
    expect((await db.select({ r: documentReviews.reason }).from(documentReviews).where(eq(documentReviews.applicationId, old.id)))[0]!.r).toBe(ERASED_REVIEW_REASON);
    expect((await db.select({ l: payments.last4 }).from(payments).where(eq(payments.applicationId, old.id)))[0]!.l).toBeNull();
    // The person's account and their other data are not touched; the younger rejection and the acceptance keep everything.
    expect((await old.s.agent.get('/api/profile')).status).toBe(200);
    for (const a of [young, accepted]) expect(await view(a.id)).toContain('Mbilwi');
    expect((await db.select({ aps: applications.aps }).from(applications).where(eq(applications.id, young.id)))[0]!.aps).toBe(31);
    const kept = await db.select({ p: applications.personal }).from(applications).where(inArray(applications.id, [young.id, accepted.id]));
    expect(kept.every((k) => (k.p as { firstName?: string }).firstName === 'Thandi')).toBe(true);
    // Picked once: a later sweep (a year on, too) leaves it.
    expect((await applyRetention(db)).rejectedApplications).toBe(0);
    expect((await db.execute(sql`SELECT count(*)::int AS n FROM applications WHERE id = ${old.id} AND updated_at > now() - interval '1 hour'`) as any).rows[0].n).toBe(1);
  });
});

describe(`retention of a rejected application still being handled (${DB_KIND}, review)`, () => {
  it('a year-old rejection whose document was reviewed, or whose status history moved, within the year is kept whole', async () => {
    const db = t.database.db;
    const admin = await signInAdmin(t);
    const ids: number[] = [];
    for (let i = 0; i < 2; i++) {
      const s = await signUpStudent(t);
      const idDocument = await insertUpload(t, s.user.id);
      const transcripts = await insertUpload(t, s.user.id);
      const res = await s.agent.post('/api/applications').send(validApplication(1, { idDocument, transcripts }));
      expect((await admin.agent.put(`/api/admin/applications/${res.body.application.id}/status`).send({ status: 'rejected' })).status).toBe(200);
      ids.push(res.body.application.id);
      if (i === 0) {
        await db.update(applicationStatusHistory).set({ createdAt: daysAgo(RETENTION_DAYS.rejectedApplications + 5) }).where(eq(applicationStatusHistory.applicationId, res.body.application.id));
        await db.insert(documentReviews).values({ applicationId: res.body.application.id, slot: 'idDocument', uploadId: idDocument, status: 'rejected', reason: 'Please send a clearer scan', createdAt: daysAgo(7) });
      }
    }
    await db.update(applications).set({ updatedAt: daysAgo(RETENTION_DAYS.rejectedApplications + 1) }).where(inArray(applications.id, ids));
    await applyRetention(db);
    const rows = await db.select({ id: applications.id, p: applications.personal }).from(applications).where(inArray(applications.id, ids)).orderBy(applications.id);
    expect(rows.map((r) => (r.p as { firstName?: string }).firstName)).toEqual(['Thandi', 'Thandi']);
  });
});

describe(`retention counts from the database's clock, not the node's (${DB_KIND}, security review)`, () => {
  it('a node whose clock runs two years fast deletes and redacts nothing fresh, and warns about its clock', async () => {
    const db = t.database.db;
    const tag = `skew-${Date.now()}`;
    const admin = await signInAdmin(t);
    const s = await signUpStudent(t);
    const idDocument = await insertUpload(t, s.user.id);
    const res = await s.agent.post('/api/applications').send(validApplication(1, { idDocument, transcripts: await insertUpload(t, s.user.id) }));
    expect((await admin.agent.put(`/api/admin/applications/${res.body.application.id}/status`).send({ status: 'rejected' })).status).toBe(200);
    // created_at as the database sets it: just now.
    await db.insert(contactMessages).values({ firstName: 'Fresh', lastName: tag, email: `${tag}@example.com`, message: 'Sent a minute ago' });
    await db.insert(assessmentBookings).values({ data: { firstName: 'Fresh' }, email: `${tag}@example.com`, preferredDate: '2030-01-01' });
    await db.insert(mailOutbox).values({ to: `${tag}@example.com`, subject: 'sent just now', text: 'x', status: 'sent' });
    await db.insert(smsOutbox).values({ to: '+27820000001', body: tag, kind: 'receipt', status: 'sent' });

    const twoYearsFast = new Date(Date.now() + 2 * 366 * 24 * 3600_000);
    const warn = vi.spyOn(console, 'warn');
    let warned: string[];
    try {
      await applyRetention(db, twoYearsFast);
      warned = warn.mock.calls.map((c) => String(c[0])).filter((l) => l.startsWith('[privacy]'));
    } finally { warn.mockRestore(); }
    expect(await db.select().from(contactMessages).where(eq(contactMessages.lastName, tag))).toHaveLength(1);
    expect(await db.select().from(assessmentBookings).where(eq(assessmentBookings.email, `${tag}@example.com`))).toHaveLength(1);
    expect(await db.select().from(mailOutbox).where(eq(mailOutbox.to, `${tag}@example.com`))).toHaveLength(1);
    expect(await db.select().from(smsOutbox).where(eq(smsOutbox.body, tag))).toHaveLength(1);
    const [app] = await db.select({ p: applications.personal }).from(applications).where(eq(applications.id, res.body.application.id));
    expect((app!.p as { firstName?: string }).firstName).toBe('Thandi');
    expect(warned).toEqual([
      expect.stringMatching(/^\[privacy\] retention: this node's clock is \d+ minutes ahead of the database's; cutoffs follow the database's clock/),
    ]);
  });
});

describe('retention on a running server (PGlite)', () => {
  it('the server sweeps at start (and hourly after): a contact message past two years is gone once it is up', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'college-retention-'));
    const env = { DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', SITE_BUILD: 'never', SESSION_SECRET: 'retention-test-secret-0123456789' } as NodeJS.ProcessEnv;
    try {
      const first = await startServer(env);
      await first.database.db.insert(contactMessages).values({ firstName: 'Old', lastName: 'Sender', email: 'old.sender@example.com', message: 'From long ago', createdAt: daysAgo(RETENTION_DAYS.contactMessages + 30) });
      await first.close();
      const node = await startServer(env);
      try {
        const left = () => node.database.db.select().from(contactMessages).where(eq(contactMessages.email, 'old.sender@example.com'));
        for (let i = 0; i < 200 && (await left()).length; i++) await new Promise((r) => setTimeout(r, 50)); // only between polls of a condition
        expect(await left()).toEqual([]);
      } finally { await node.close(); }
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  }, 120_000);
});

describe('the privacy notice and the code agree', () => {
  it('content/legal/privacy.md states the periods RETENTION_DAYS carries out, in its current version', () => {
    const notice = fs.readFileSync(new URL('../../../../content/legal/privacy.md', import.meta.url), 'utf8');
    const words: Record<number, string> = { 730: 'two years', 365: 'one year', 90: '90 days' };
    expect(notice).toContain(`**Contact messages** are deleted ${words[RETENTION_DAYS.contactMessages]} after you sent them`);
    expect(notice).toContain(`are deleted ${words[RETENTION_DAYS.assessmentBookings]} after you made them`);
    expect(notice).toContain(`**Unsuccessful applications** are kept for ${words[RETENTION_DAYS.rejectedApplications]} after the last change`);
    expect(notice).toContain(`is deleted ${words[RETENTION_DAYS.messages]} after the message was sent`);
    // What redactApplications removes and keeps (the test above checks the rows; the erasure paragraph lists the same).
    const unsuccessful = notice.split('\n').find((l) => l.startsWith('- **Unsuccessful applications**')) ?? '';
    expect(unsuccessful).toContain('Then your answers, academic history and the eligibility check worked out from your results, the application\'s documents (unless another of your applications or a saved draft uses them), staff notes, the reasons given for rejecting documents and the last digits of your card are removed;');
    expect(unsuccessful).toContain('only the course, status, dates, status history, whether each document was verified or rejected, and the payment amount, method, reference and status stay');
    expect(notice).toContain('for each application only its course, status, dates, status history, whether each document was verified or rejected, and its payment amount, method, reference and status;');
    expect(notice).toContain(`version: "${PRIVACY_NOTICE_VERSION}"`);
  });
});
