import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { startTestApp, signUpStudent, signInAdmin, insertUpload, validApplication, DB_KIND, type TestApp } from '../test/harness.ts';
import { smsOutbox } from '../db/schema/messaging.ts';
import { drainSmsOutbox, drainSmsOutboxPass, MAX_ATTEMPTS, queueSms, resumeSms, SMS_SENT_BODY, SMS_SUPERSEDED, SMS_UNSENT_BODY, smsPausedUntil, startSmsWorker, toE164 } from './sms-outbox.ts';
import { bulkSmsDriver, fileSmsDriver, type SmsDriver } from './sms-drivers.ts';
import { startBulkSmsStub, type BulkSmsStub } from '../test/bulksms.stub.ts';
import { documentRejectedSms, gsm7Length, receiptSms, statusSms, toGsm7 } from './sms-text.ts';
import { siteOrigin } from '../mail/links.ts';

const SECRET = 'webhook-secret-0123456789';
let t: TestApp;
let stub: BulkSmsStub;
let http: SmsDriver;
beforeAll(async () => {
  t = await startTestApp({ SMS_WEBHOOK_SECRET: SECRET, PUBLIC_URL: 'https://vsc.example' });
  stub = await startBulkSmsStub();
  http = bulkSmsDriver({ baseUrl: stub.url, username: 'stub-token-id', password: 'stub-token-secret', timeoutMs: 2000 });
});
afterAll(async () => { await stub.close(); await t.close(); });

let n = 0;
/** A valid, unique South African mobile number in national format, and its E.164 form. */
function phone() { const local = `082${String(process.pid % 1000).padStart(3, '0')}${String(++n).padStart(4, '0')}`; return { local, e164: `+27${local.slice(1)}` }; }

async function student() {
  const p = phone();
  const s = await signUpStudent(t, { phone: p.local });
  return { ...s, phone: p.e164 };
}
async function apply(s: Awaited<ReturnType<typeof student>>, courseId = 1) {
  const idDocument = await insertUpload(t, s.user.id);
  const transcripts = await insertUpload(t, s.user.id);
  const res = await s.agent.post('/api/applications').send(validApplication(courseId, { idDocument, transcripts }));
  expect(res.status).toBe(201);
  return res.body.application.id as number;
}
const rowsTo = (to: string) => t.database.db.select().from(smsOutbox).where(eq(smsOutbox.to, to)).orderBy(smsOutbox.id);
/** Makes every waiting row due now (skips the back-off wait). */
const dueNow = () => t.database.db.execute(sql`UPDATE sms_outbox SET locked_until = NULL WHERE status = 'pending'`);
/** Marks everything queued so far as sent, so a test's drain only sees its own rows. */
const clearQueue = () => t.database.db.execute(sql`UPDATE sms_outbox SET status = 'skipped' WHERE status = 'pending'`);

describe('SMS text (GSM-7, one segment)', () => {
  it('normalises South African numbers to E.164 and refuses what is not a phone number', () => {
    expect(toE164('082 123 4567')).toBe('+27821234567');
    expect(toE164('+27 82 123 4567')).toBe('+27821234567');
    expect(toE164('0027821234567')).toBe('+27821234567');
    expect(toE164('12345')).toBeNull();
    expect(toE164('')).toBeNull();
  });

  it('accepts mobile numbers only: a landline or a share-call number cannot receive an SMS (names audit)', () => {
    expect(toE164('072 123 4567')).toBe('+27721234567');
    expect(toE164('060 123 4567')).toBe('+27601234567');
    expect(toE164('+27 82 123 4567')).toBe('+27821234567');
    expect(toE164('015 962 1234')).toBeNull();
    expect(toE164('011 123 4567')).toBeNull();
    expect(toE164('0861 123 456')).toBeNull();
    expect(toE164('0800 123 456')).toBeNull();
  });

  it('transliterates curly quotes, accents and emoji, and keeps every message within 160 characters with APP-id and link', () => {
    expect(toGsm7('Zoë’s “course” 🎓 – café')).toBe(`Zoe's "course" - cafe`);
    const link = 'https://vsc.example/applications/123456';
    const long = 'Advanced Diploma in Information Technology: Software Development, Networks and Cloud “Systems” 🎓 '.repeat(3);
    for (const text of [receiptSms(123456, long, link), statusSms(123456, 'documents_required', link), documentRejectedSms(123456, 'ID document', long, link)]) {
      expect(gsm7Length(text)).toBeLessThanOrEqual(160);
      expect(text).toContain('APP-123456');
      expect(text).toContain(link);
      expect(text).toMatch(/Reply STOP to opt out$/);
      expect(text).toMatch(/^[\x20-\x7E]+$/);
    }
    expect(receiptSms(7, 'Software Development', 'https://vsc.example/applications/7')).toBe('VSC: we received application APP-7 for Software Development. Track it: https://vsc.example/applications/7 Reply STOP to opt out');
  });
});

/**
 * Length audit (issue #17): gsm7Length added the multipart headers' bits of every segment, so any text over 160 counted
 * about 7 septets per segment too many, and fit cut far too much (a rejection reason of "Not cer...." in a 146-character
 * SMS, or no reason at all with APP-12345 and a 33-character PUBLIC_URL).
 */
describe('SMS length: septets counted exactly, every message filled up to 160', () => {
  const reason = 'Not certified: the copy of your matric certificate must be certified by a commissioner of oaths within the last three months, please ask the police station.';

  it('counts one septet per basic character and two per extension character, headers never', () => {
    expect(gsm7Length('a'.repeat(170))).toBe(170);
    expect(gsm7Length('a'.repeat(160))).toBe(160);
    expect(gsm7Length('{}[]~|^\\€')).toBe(18);
    expect(gsm7Length('Zoë 🎓')).toBe(Infinity);
  });

  it('a long reason fills the SMS up to exactly 160 septets, cut after a whole word with "..." and no full stop after it', () => {
    const link = 'https://vsc.example/applications/3';
    const text = documentRejectedSms(3, 'Qualifications Documents', 'x'.repeat(300), link);
    expect(gsm7Length(text)).toBe(160);
    const words = documentRejectedSms(3, 'Qualifications Documents', reason, link);
    expect(gsm7Length(words)).toBeLessThanOrEqual(160);
    expect(gsm7Length(words)).toBeGreaterThan(160 - 'commissioner'.length - 1);
    expect(words).toMatch(/^VSC: APP-3 Qualifications Documents not accepted: Not certified: the copy (\w+ )*\w+\.\.\. Upload again: https:\/\/vsc\.example\/applications\/3 Reply STOP to opt out$/);
    expect(words).not.toContain('....');
    // Extension characters count two: the cut still lands on 159 or 160, never over.
    const ext = gsm7Length(documentRejectedSms(3, 'ID Document', '{'.repeat(120), link));
    expect([159, 160]).toContain(ext);
    expect(receiptSms(7, 'Software Development '.repeat(10), 'https://vsc.example/applications/7')).toMatch(/^VSC: we received application APP-7 for Software Development (Software|Development)( \w+)*\.\.\. Track it: /);
  });

  it('APP-12345 with a 33-character PUBLIC_URL keeps a meaningful part of the reason', () => {
    const link = 'https://apply.vhembecollege.ac.za/applications/12345';
    const text = documentRejectedSms(12345, 'Qualifications Documents', reason, link);
    expect(gsm7Length(text)).toBeLessThanOrEqual(160);
    expect(text).toMatch(/ (not accepted|rejected): Not certified: the copy\b/);
    expect(text).toContain(link);
    expect(text).toMatch(/Reply STOP to opt out$/);
  });
});

/**
 * Every kind with a 60-character PUBLIC_URL and APP-123456 (issue #17 audit): the status label was cut ("is now
 * Documents..."), the course or the reason vanished, and a "Qualifications Documents" rejection was 171 characters,
 * so it was not sent at all. A message now falls back to shorter wording before it gives up its variable part.
 */
describe('SMS kinds with a 60-character PUBLIC_URL and APP-123456', () => {
  const origin = `https://admissions-and-registration.${'v'.repeat(10)}-college.ac.za`;
  const link = `${origin}/applications/123456`;
  const labels: Record<string, string> = { pending: 'Pending', under_review: 'Under Review', documents_required: 'Documents Required', payment_pending: 'Payment Pending', accepted: 'Accepted', rejected: 'Rejected' };
  const reason = 'Not certified by a commissioner of oaths, and the page with your results is missing.';
  const texts = [
    ['receipt', receiptSms(123456, 'Bachelor of Science in Information Systems', link)],
    ...Object.keys(labels).map((s) => [`status ${s}`, statusSms(123456, s, link)]),
    ['rejected ID', documentRejectedSms(123456, 'ID Document', reason, link)],
    ['rejected qualifications', documentRejectedSms(123456, 'Qualifications Documents', reason, link)],
  ] as const;

  it('each keeps APP-id, the link and "Reply STOP to opt out" within 160 septets', () => {
    expect(origin).toHaveLength(60);
    for (const [kind, text] of texts) {
      expect(gsm7Length(text), `${kind}: ${text}`).toBeLessThanOrEqual(160);
      expect(text, kind).toContain('APP-123456');
      expect(text, kind).toContain(` ${link} `);
      expect(text, kind).toMatch(/ Reply STOP to opt out$/);
    }
  });

  it('a status says the whole label; a receipt keeps part of the course; a rejection names the document and part of the reason', () => {
    for (const [status, label] of Object.entries(labels)) expect(statusSms(123456, status, link)).toContain(` is now ${label}. `);
    expect(texts[0][1]).toMatch(/APP-123456 received: Bachelor\b/);
    expect(documentRejectedSms(123456, 'ID Document', reason, link)).toMatch(/^VSC: APP-123456 ID Document rejected: Not certified\b/);
    expect(documentRejectedSms(123456, 'Qualifications Documents', reason, link)).toMatch(/^VSC: APP-123456 Qualifications Documents rejected/);
  });
});

describe(`SMS through the outbox (${DB_KIND})`, () => {
  it('queues a receipt on submit and one SMS per real status change, to the E.164 number, in the same transaction', async () => {
    const s = await student();
    const id = await apply(s);
    const admin = await signInAdmin(t);
    expect((await admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'under_review' })).status).toBe(200);
    expect((await admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'under_review', notes: 'same status' })).status).toBe(200);
    expect((await admin.agent.post('/api/admin/applications/bulk').send({ ids: [id], status: 'accepted' })).status).toBe(200);
    const rows = await rowsTo(s.phone);
    expect(rows.map((r) => r.kind)).toEqual(['receipt', 'status']);
    expect(rows[0]!.body).toContain(`APP-${id}`);
    expect(rows[0]!.body).toContain(`https://vsc.example/applications/${id}`);
    expect(rows[1]!.body).toContain('is now Under Review');
    expect(rows.every((r) => r.userId === s.user.id && r.applicationId === id && r.status === 'pending')).toBe(true);
  });

  it('a rejected document (admin review, #16) queues one SMS naming the document, the reason and the link; a verification queues none', async () => {
    const s = await student();
    const id = await apply(s, 11);
    const admin = await signInAdmin(t);
    expect((await admin.agent.put(`/api/admin/applications/${id}/documents/transcripts`).send({ status: 'verified' })).status).toBe(200);
    expect((await admin.agent.put(`/api/admin/applications/${id}/documents/idDocument`).send({ status: 'rejected', reason: 'The photo is too blurry to read.' })).status).toBe(200);
    const rows = await rowsTo(s.phone);
    expect(rows.map((r) => r.kind)).toEqual(['receipt', 'document_rejected']);
    expect(rows[1]!.body).toBe(`VSC: APP-${id} ID Document not accepted: The photo is too blurry to read. Upload again: https://vsc.example/applications/${id} Reply STOP to opt out`);
    expect(gsm7Length(rows[1]!.body)).toBeLessThanOrEqual(160);
  });

  it('Documents Required right after a document rejection queues no second SMS (admin-day audit: two within 30 s); without one it does, and other statuses always do', async () => {
    const admin = await signInAdmin(t);
    const s = await student();
    const id = await apply(s, 11);
    expect((await admin.agent.put(`/api/admin/applications/${id}/documents/idDocument`).send({ status: 'rejected', reason: 'The photo is too blurry to read.' })).status).toBe(200);
    expect((await admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'documents_required', notes: '' })).status).toBe(200);
    expect((await rowsTo(s.phone)).map((r) => r.kind)).toEqual(['receipt', 'document_rejected']);
    expect((await admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'under_review', notes: '' })).status).toBe(200);
    expect((await rowsTo(s.phone)).map((r) => r.kind)).toEqual(['receipt', 'document_rejected', 'status']);

    const other = await student();
    const plain = await apply(other, 11);
    expect((await admin.agent.put(`/api/admin/applications/${plain}/status`).send({ status: 'documents_required', notes: '' })).status).toBe(200);
    expect((await rowsTo(other.phone)).map((r) => r.kind)).toEqual(['receipt', 'status']);

    // A rejection SMS that finally failed reached nobody: Documents Required then texts (security audit LOW).
    const third = await student();
    const failedFirst = await apply(third, 11);
    expect((await admin.agent.put(`/api/admin/applications/${failedFirst}/documents/idDocument`).send({ status: 'rejected', reason: 'The photo is too blurry to read.' })).status).toBe(200);
    await t.database.db.update(smsOutbox).set({ status: 'failed' }).where(and(eq(smsOutbox.applicationId, failedFirst), eq(smsOutbox.kind, 'document_rejected')));
    expect((await admin.agent.put(`/api/admin/applications/${failedFirst}/status`).send({ status: 'documents_required', notes: '' })).status).toBe(200);
    expect((await rowsTo(third.phone)).map((r) => r.kind)).toEqual(['receipt', 'document_rejected', 'status']);
  });

  it('a landline: nothing is queued, and the walk-in desk is told the SMS could not be sent (no_phone)', async () => {
    const landline = await signUpStudent(t, { phone: '015 962 1234' });
    await apply({ ...landline, phone: '+27159621234' });
    const rows = await t.database.db.select().from(smsOutbox).where(eq(smsOutbox.userId, landline.user.id));
    expect(rows).toEqual([]);
    const { agent } = await signInAdmin(t);
    const walkIn = await agent.post('/api/admin/walk-in/applicants')
      .send({ firstName: 'Mpho', lastName: 'Ndlovu', email: `landline.${Date.now()}@example.com`, phone: '0861 123 456', campusId: 2, privacyConsent: true });
    expect(walkIn.status).toBe(201);
    expect(walkIn.body.sms).toBe('no_phone');
    expect(await t.database.db.select().from(smsOutbox).where(eq(smsOutbox.userId, walkIn.body.applicant.id))).toEqual([]);
  });

  it('a failed application write leaves no SMS behind (duplicate application → 409, nothing queued)', async () => {
    const s = await student();
    await apply(s, 2);
    const idDocument = await insertUpload(t, s.user.id);
    const res = await s.agent.post('/api/applications').send(validApplication(2, { idDocument, transcripts: idDocument }));
    expect(res.status).toBe(409);
    expect((await rowsTo(s.phone)).length).toBe(1);
  });

  it('the file driver writes one JSON file {to, body, …} per message and marks it sent once', async () => {
    await clearQueue();
    const s = await student();
    const id = await apply(s, 3);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sms-file-'));
    expect(await drainSmsOutbox(t.database.db, fileSmsDriver(dir))).toBe(1);
    expect(await drainSmsOutbox(t.database.db, fileSmsDriver(dir))).toBe(0);
    const files = fs.readdirSync(dir);
    expect(files).toHaveLength(1);
    const msg = JSON.parse(fs.readFileSync(path.join(dir, files[0]!), 'utf8'));
    expect(msg).toMatchObject({ to: s.phone, kind: 'receipt', applicationId: id });
    expect(msg.body).toContain(`APP-${id}`);
    expect((await rowsTo(s.phone))[0]).toMatchObject({ status: 'sent', attempts: 1 });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the http driver sends BulkSMS [{to, body}] with basic auth and keeps the gateway id', async () => {
    await clearQueue();
    const s = await student();
    await apply(s, 4);
    expect(await drainSmsOutbox(t.database.db, http)).toBe(1);
    const got = stub.received.find((m) => m.to === s.phone)!;
    expect(got.body).toMatch(/^VSC: we received application APP-\d+/);
    expect((await rowsTo(s.phone))[0]).toMatchObject({ status: 'sent', providerId: got.id });
  });

  it('a gateway outage (503) is retried with back-off and then delivered once; wrong credentials are retried, not dropped', async () => {
    await clearQueue();
    const s = await student();
    await apply(s, 5);
    stub.failNext(503);
    expect(await drainSmsOutbox(t.database.db, http)).toBe(0);
    let [row] = await rowsTo(s.phone);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: 'BulkSMS 503 Service Unavailable' });
    expect(row!.lockedUntil!.getTime()).toBeGreaterThan(Date.now() + 5_000);
    expect(await drainSmsOutbox(t.database.db, http)).toBe(0);
    const wrong = bulkSmsDriver({ baseUrl: stub.url, username: 'stub-token-id', password: 'wrong' });
    await dueNow();
    expect(await drainSmsOutbox(t.database.db, wrong)).toBe(0);
    [row] = await rowsTo(s.phone);
    expect(row).toMatchObject({ status: 'pending', attempts: 2 });
    expect(row!.lastError).toMatch(/^BulkSMS 401/);
    await dueNow();
    resumeSms(http);
    expect(await drainSmsOutbox(t.database.db, http)).toBe(1);
    expect(stub.received.filter((m) => m.to === s.phone)).toHaveLength(1);
  });

  it('a permanent refusal (400 invalid number) is recorded as failed at once; repeated outages fail after the last attempt', async () => {
    await clearQueue();
    const a = await student();
    await apply(a, 6);
    stub.failNext(400);
    expect(await drainSmsOutbox(t.database.db, http)).toBe(0);
    expect((await rowsTo(a.phone))[0]).toMatchObject({ status: 'failed', attempts: 1, lastError: 'BulkSMS 400 Bad Request' });

    const b = await student();
    await apply(b, 7);
    stub.failNext(500, MAX_ATTEMPTS);
    for (let i = 0; i < MAX_ATTEMPTS; i++) { await dueNow(); resumeSms(http); await drainSmsOutbox(t.database.db, http); }
    expect((await rowsTo(b.phone))[0]).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
    await dueNow();
    expect(await drainSmsOutbox(t.database.db, http)).toBe(0);
  });

  it('a sent SMS keeps no body (a walk-in\'s set-password link dies with it), nor one failed for good or skipped; number, kind, status and time stay (privacy audit F1)', async () => {
    await clearQueue();
    const { agent } = await signInAdmin(t);
    const p = phone();
    const created = await agent.post('/api/admin/walk-in/applicants').send({ firstName: 'Ḓivhani', lastName: 'Nemakonde', email: `walkin.${p.local}@example.com`, phone: p.local, campusId: 2, privacyConsent: true });
    expect(created.status).toBe(201);
    expect((await rowsTo(p.e164))[0]!.body).toMatch(/\/r#token=[\w-]{22}/);
    expect(await drainSmsOutbox(t.database.db, http)).toBe(1);
    expect(stub.received.find((m) => m.to === p.e164)!.body).toMatch(/\/r#token=/);
    const [sent] = await rowsTo(p.e164);
    expect(sent).toMatchObject({ to: p.e164, kind: 'set_password', status: 'sent', sentAt: expect.any(Date), body: SMS_SENT_BODY });

    const refused = await student();
    await apply(refused, 8);
    stub.failNext(400);
    expect(await drainSmsOutbox(t.database.db, http)).toBe(0);
    expect((await rowsTo(refused.phone))[0]).toMatchObject({ status: 'failed', body: SMS_UNSENT_BODY });

    const stopped = await student();
    await apply(stopped, 9);
    expect((await stopped.agent.put('/api/sms/preference').send({ optOut: true })).status).toBe(200);
    expect(await drainSmsOutbox(t.database.db, http)).toBe(0);
    expect((await rowsTo(stopped.phone))[0]).toMatchObject({ status: 'skipped', body: SMS_UNSENT_BODY });
  });

  it('two workers draining at once send every message exactly once (FOR UPDATE SKIP LOCKED)', async () => {
    await clearQueue();
    const s = await student();
    const before = stub.received.length;
    await t.database.db.transaction(async (tx) => {
      for (let i = 0; i < 60; i++) await queueSms(tx as any, { userId: s.user.id, applicationId: i, kind: 'status', body: `VSC: message ${i}` });
    });
    stub.delayMs = 5;
    const drainAll = async () => { let k = 0; for (let sent; (sent = await drainSmsOutbox(t.database.db, http, 7)) > 0;) k += sent; return k; };
    const [x, y] = await Promise.all([drainAll(), drainAll()]);
    stub.delayMs = 0;
    expect(x + y).toBe(60);
    const bodies = stub.received.slice(before).map((m) => m.body);
    expect(new Set(bodies).size).toBe(60);
    expect(bodies).toHaveLength(60);
  });
});

/**
 * Leases (operations audit, issue #17 "sent exactly once across nodes"): one 60 s lease covered a whole claimed batch
 * of 50 (up to 10 s each) and every claimed row was sent without checking it, so another node reclaimed and sent
 * again the rows of a slow batch; a stop waited for the whole batch. Deliveries are counted at the driver.
 */
describe(`SMS leases across workers (${DB_KIND})`, () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let deliveries: { worker: string; body: string }[] = [];
  /** Ids of the rows the last queue() wrote (a sent row's body is no longer its text, so rows are found by id). */
  let queuedIds: number[] = [];
  /** A gateway that takes `ms` per message, then records the delivery; `before(body)` runs as the send starts. */
  const slowDriver = (worker: string, ms: number, before?: (body: string) => Promise<void>): SmsDriver => ({
    name: `slow-${worker}`,
    send: async (msg) => { await before?.(msg.body); await sleep(ms); deliveries.push({ worker, body: msg.body }); return `${worker}-${deliveries.length}`; },
  });
  /** Queues `count` messages, each to its own number (one phone's messages are sent in order, never by two nodes at once). */
  async function queue(count: number): Promise<string[]> {
    await clearQueue();
    deliveries = [];
    const bodies = Array.from({ length: count }, (_, i) => `VSC: lease ${Date.now()} #${i}`);
    const rows = await t.database.db.insert(smsOutbox).values(bodies.map((body, i) => ({ to: phone().e164, body, kind: 'receipt', applicationId: i }))).returning({ id: smsOutbox.id });
    queuedIds = rows.map((r) => r.id).sort((a, b) => a - b);
    return bodies;
  }
  async function pollWhile(busy: () => boolean, driver: SmsDriver, leaseMs?: number): Promise<number> {
    let sent = 0;
    while (busy()) { sent += await drainSmsOutbox(t.database.db, driver, 50, { leaseMs }); await sleep(50); }
    for (let k; (k = await drainSmsOutbox(t.database.db, driver, 50, { leaseMs })) > 0;) sent += k;
    return sent;
  }
  async function expectEachDeliveredOnce(bodies: string[]): Promise<void> {
    const got = deliveries.map((d) => d.body).filter((b) => bodies.includes(b));
    expect(got.slice().sort()).toEqual(bodies.slice().sort());
    const rows = await t.database.db.select().from(smsOutbox).where(inArray(smsOutbox.id, queuedIds));
    expect(rows.map((r) => r.status)).toEqual(bodies.map(() => 'sent'));
  }

  it('a batch slower than its lease (1 s lease, 300 ms a message) while a second worker polls: every SMS delivered exactly once', async () => {
    const bodies = await queue(8);
    let aDone = false;
    const a = drainSmsOutbox(t.database.db, slowDriver('A', 300), 50, { leaseMs: 1000 }).finally(() => { aDone = true; });
    const bSent = await pollWhile(() => !aDone, slowDriver('B', 300), 1000);
    const aSent = await a;
    await expectEachDeliveredOnce(bodies);
    expect(bSent).toBeGreaterThan(0); // B did take over the rows whose lease ran out while A was busy
    expect(aSent + bSent).toBe(8);
  });

  it('rows whose 60 s lease ran out mid-batch (emulated: their locked_until moved into the past) are sent by the worker that reclaimed them, not both', async () => {
    const bodies = await queue(8);
    const expireLater = async (body: string) => {
      const i = bodies.indexOf(body);
      if (i === 2) await t.database.db.update(smsOutbox).set({ lockedUntil: sql`now() - interval '1 second'` }).where(inArray(smsOutbox.id, queuedIds.slice(i + 1)));
    };
    let aDone = false;
    const a = drainSmsOutbox(t.database.db, slowDriver('A', 200, expireLater)).finally(() => { aDone = true; });
    const bSent = await pollWhile(() => !aDone, slowDriver('B', 200));
    const aSent = await a;
    await expectEachDeliveredOnce(bodies);
    expect(bSent).toBeGreaterThan(0);
    expect(aSent + bSent).toBe(8);
  });

  it('stopping a worker mid-batch waits for the SMS in progress only and releases the rest, which a second worker sends at once, each once', async () => {
    const bodies = await queue(8);
    // A's second message is held at the driver until the test lets it go, so the stop comes while that send runs.
    const asked: string[] = [];
    let started!: () => void;
    const inProgress = new Promise<void>((resolve) => { started = resolve; });
    let letGo!: () => void;
    const gate = new Promise<void>((resolve) => { letGo = resolve; });
    const hold = async (body: string) => {
      asked.push(body);
      if (body === bodies[1]) { started(); await gate; }
    };
    const stopA = startSmsWorker(t.database.db, slowDriver('A', 0, hold), 10);
    await inProgress;
    let atStop: { asked: string[]; delivered: string[] } | null = null;
    const stopped = stopA().then(() => {
      atStop = { asked: [...asked], delivered: deliveries.filter((d) => d.worker === 'A').map((d) => d.body) };
    });
    letGo();
    await stopped;
    // When the stop resolved, the message in progress was delivered and the driver had been asked for no other
    // (the stop used to wait for the whole batch: all 8 delivered by A).
    expect(atStop).toEqual({ asked: bodies.slice(0, 2), delivered: bodies.slice(0, 2) });
    // No wait for the 60 s lease: the released rows are due again now, and B sends each of them once.
    expect(await drainSmsOutbox(t.database.db, slowDriver('B', 0))).toBe(6);
    expect(deliveries.filter((d) => d.worker === 'B').map((d) => d.body)).toEqual(bodies.slice(2));
    await expectEachDeliveredOnce(bodies);
    const rows = await t.database.db.select().from(smsOutbox).where(inArray(smsOutbox.id, queuedIds));
    expect(rows.map((r) => r.attempts)).toEqual(bodies.map(() => 1)); // a released claim is no attempt
  });

  it('one worker pass sends a backlog of 2.5 batches even when a message of the first batch is to a number that opted out', async () => {
    await clearQueue();
    deliveries = [];
    const [s, optedOut] = [await student(), await student()];
    const bodies = Array.from({ length: 125 }, (_, i) => `VSC: backlog ${s.user.id} #${i}`);
    await t.database.db.transaction(async (tx) => {
      for (const [i, body] of bodies.entries()) {
        await queueSms(tx as any, { userId: i === 3 ? optedOut.user.id : s.user.id, applicationId: i, kind: 'status', body });
      }
    });
    expect((await optedOut.agent.put('/api/sms/preference').send({ optOut: true })).body).toMatchObject({ optedOut: true });
    // The first batch sends 49 of its 50: the pass goes on because the claim was full (it used to stop at 49).
    expect(await drainSmsOutboxPass(t.database.db, slowDriver('A', 0))).toBe(124);
    expect(deliveries.map((d) => d.body).sort()).toEqual(bodies.filter((_, i) => i !== 3).sort());
    expect((await rowsTo(optedOut.phone)).map((r) => r.status)).toEqual(['skipped']);
  });
});

describe(`SMS opt-out (${DB_KIND})`, () => {
  it('an applicant who turns SMS off in the profile gets none; turning them on again resumes', async () => {
    const s = await student();
    expect((await s.agent.get('/api/sms/preference')).body).toEqual({ phone: s.phone, optedOut: false, stoppedByReply: false });
    const off = await s.agent.put('/api/sms/preference').send({ optOut: true });
    expect(off.body).toMatchObject({ optedOut: true });
    await apply(s, 8);
    expect(await rowsTo(s.phone)).toHaveLength(0);
    expect((await s.agent.put('/api/sms/preference').send({ optOut: 'yes' })).status).toBe(400);
    await s.agent.put('/api/sms/preference').send({ optOut: false });
    await apply(s, 9);
    expect(await rowsTo(s.phone)).toHaveLength(1);
  });

  it('replying STOP (BulkSMS webhook with the shared secret) stops SMS to that number, even one already queued', async () => {
    await clearQueue();
    const s = await student();
    await apply(s, 10);
    const hook = (body: object, secret = SECRET) => t.request().post(`/api/sms/inbound?secret=${secret}`).send(body);
    expect((await hook([{ type: 'RECEIVED', from: s.phone.slice(1), body: 'stop please' }], 'wrong-secret-0123456789')).status).toBe(401);
    expect((await t.request().post('/api/sms/inbound').send([{ from: s.phone, body: 'STOP' }])).status).toBe(401);
    expect((await hook({ body: 'STOP' })).status).toBe(400);
    const res = await hook([{ type: 'RECEIVED', from: s.phone.slice(1), body: ' Stop ' }, { type: 'RECEIVED', from: '27820000000', body: 'hello' }]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: 2, optedOut: 1, optedIn: 0 });
    expect(await drainSmsOutbox(t.database.db, http)).toBe(0);
    expect((await rowsTo(s.phone))[0]).toMatchObject({ status: 'skipped' });
    expect((await s.agent.get('/api/sms/preference')).body).toMatchObject({ optedOut: true, stoppedByReply: true });
    const admin = await signInAdmin(t);
    await admin.agent.put(`/api/admin/applications/${(await rowsTo(s.phone))[0]!.applicationId}/status`).send({ status: 'under_review' });
    expect(await rowsTo(s.phone)).toHaveLength(1);
  });

  it("a STOP reply is lifted only by a START reply from that phone, not by a profile (another account giving the same number, or the owner's own)", async () => {
    const owner = await student();
    const hook = (from: string, body: string) => t.request().post(`/api/sms/inbound?secret=${SECRET}`).send([{ type: 'RECEIVED', from, body }]);
    expect((await hook(owner.phone.slice(1), 'STOP')).body).toMatchObject({ optedOut: 1 });

    const other = await signUpStudent(t, { phone: `0${owner.phone.slice(3)}` });
    expect((await other.agent.get('/api/sms/preference')).body.phone).toBe(owner.phone);
    const lift = await other.agent.put('/api/sms/preference').send({ optOut: false });
    expect(lift.status).toBe(409);
    expect(lift.body.error.message).toBe('This number replied STOP. Reply START to any of our messages to receive SMS again.');
    expect((await owner.agent.put('/api/sms/preference').send({ optOut: false })).status).toBe(409);
    expect((await owner.agent.get('/api/sms/preference')).body).toMatchObject({ optedOut: true, stoppedByReply: true });
    await apply(owner, 11);
    expect((await rowsTo(owner.phone)).filter((r) => r.status !== 'skipped')).toHaveLength(0);
    await drainSmsOutbox(t.database.db, http);
    expect((await rowsTo(owner.phone)).every((r) => r.status === 'skipped')).toBe(true);

    expect((await hook(owner.phone.slice(1), 'START')).body).toMatchObject({ optedIn: 1 });
    expect((await owner.agent.get('/api/sms/preference')).body).toMatchObject({ optedOut: false, stoppedByReply: false });
  });

  it('a STOP reply with a full stop, other punctuation or case opts the number out ("Stop." from a phone); a sentence starting "Stopping" does not', async () => {
    const hook = (from: string, body: string) => t.request().post(`/api/sms/inbound?secret=${SECRET}`).send([{ type: 'RECEIVED', from, body }]);
    for (const body of ['Stop.', 'STOP.', 'stop!', ' Stop ', 'OPT-OUT', 'opt-out.', 'Unsubscribe!']) {
      const s = await student();
      expect((await hook(s.phone.slice(1), body)).body, body).toEqual({ received: 1, optedOut: 1, optedIn: 0 });
      expect((await s.agent.get('/api/sms/preference')).body, body).toMatchObject({ optedOut: true, stoppedByReply: true });
      expect((await hook(s.phone.slice(1), 'Start.')).body, body).toMatchObject({ optedIn: 1 });
    }
    for (const body of ['Stopping by tomorrow', 'Please stop', 'Stop-start']) {
      const s = await student();
      expect((await hook(s.phone.slice(1), body)).body, body).toEqual({ received: 1, optedOut: 0, optedIn: 0 });
      expect((await s.agent.get('/api/sms/preference')).body, body).toMatchObject({ optedOut: false });
    }
  });

  it('the webhook answers 404 when no secret is configured', async () => {
    const other = await startTestApp({}, { seed: false });
    try { expect((await other.request().post('/api/sms/inbound').send([{ from: '+27821234567', body: 'STOP' }])).status).toBe(404); }
    finally { await other.close(); }
  });

  it('the admin dashboard counts SMS sent, failed and opted out', async () => {
    const admin = await signInAdmin(t);
    const { sms } = (await admin.agent.get('/api/admin/stats')).body;
    const counts = (await t.database.db.execute(sql`SELECT status, count(*)::int AS n FROM sms_outbox GROUP BY status`) as any).rows as { status: string; n: number }[];
    const by = Object.fromEntries(counts.map((c) => [c.status, c.n]));
    expect(sms).toMatchObject({ sent: by.sent ?? 0, failed: by.failed ?? 0 });
    expect(sms.sent).toBeGreaterThanOrEqual(3);
    expect(sms.failed).toBeGreaterThanOrEqual(2);
    expect(sms.optedOut).toBeGreaterThanOrEqual(1);
  });
});

/**
 * Issue #17 SMS audit (two nodes on PostgreSQL against a BulkSMS-like stub): older status SMS after newer ones,
 * no pause on gateway failures (every queued message tried, Retry-After ignored, bad credentials retried 72 000 times),
 * a 201 with status FAILED recorded as sent, 8-digit ZA numbers accepted, opt-outs counted twice, and links from an
 * admin's reason copied into the SMS.
 */
describe(`SMS audit: order, gateway failures, answers (${DB_KIND})`, () => {
  afterEach(() => { resumeSms(http); });
  /** What the stub delivered to `to`, in the order it got them. */
  const deliveredTo = (to: string) => stub.received.filter((m) => m.to === to).map((m) => m.body);
  /** Queues `count` messages straight into the outbox, each to its own number; resolves to their numbers. */
  async function queueSpread(count: number): Promise<string[]> {
    const numbers = Array.from({ length: count }, () => phone().e164);
    await t.database.db.insert(smsOutbox).values(numbers.map((to, i) => ({ to, body: `VSC: spread ${i} ${to}`, kind: 'receipt' })));
    return numbers;
  }
  const rowsOf = (numbers: string[]) => t.database.db.select().from(smsOutbox).where(inArray(smsOutbox.to, numbers)).orderBy(smsOutbox.id);

  it('a status SMS that failed once is replaced by a newer status: the phone gets "Accepted" and never "Under Review" after it (F1)', async () => {
    await clearQueue();
    const s = await student();
    const id = await apply(s, 12);
    expect(await drainSmsOutbox(t.database.db, http)).toBe(1);
    const admin = await signInAdmin(t);
    expect((await admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'under_review' })).status).toBe(200);
    stub.failNext(500);
    expect(await drainSmsOutbox(t.database.db, http)).toBe(0);
    expect((await admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'accepted' })).status).toBe(200);
    resumeSms(http);
    await drainSmsOutbox(t.database.db, http);
    await dueNow();
    await drainSmsOutbox(t.database.db, http);
    const got = deliveredTo(s.phone);
    expect(got.map((b) => (b.includes(' received ') ? 'received' : b.match(/ is now ([\w ]+)\./)?.[1]))).toEqual(['received', 'Accepted']);
    expect((await rowsTo(s.phone)).map((r) => [r.kind, r.status, r.lastError])).toEqual([['receipt', 'sent', null], ['status', 'skipped', SMS_SUPERSEDED], ['status', 'sent', null]]);
  });

  it("one phone's messages go in queue order: while the oldest waits for its retry, no node sends the newer ones (F1)", async () => {
    await clearQueue();
    const to = phone().e164;
    const bodies = ['VSC: first', 'VSC: second', 'VSC: third'].map((b) => `${b} ${to}`);
    await t.database.db.insert(smsOutbox).values(bodies.map((body) => ({ to, body, kind: 'document_rejected' })));
    stub.failNext(503);
    expect(await drainSmsOutbox(t.database.db, http)).toBe(0);
    const otherNode = bulkSmsDriver({ baseUrl: stub.url, username: 'stub-token-id', password: 'stub-token-secret', timeoutMs: 2000 });
    expect(await drainSmsOutbox(t.database.db, otherNode)).toBe(0);
    expect(deliveredTo(to)).toEqual([]);
    await dueNow();
    expect(await drainSmsOutbox(t.database.db, otherNode)).toBe(3);
    expect(deliveredTo(to)).toEqual(bodies);
  });

  it('two nodes draining 60 messages to one phone deliver them in queue order, each once (F1: 521 inversions in 2 000)', async () => {
    await clearQueue();
    const to = phone().e164;
    const bodies = Array.from({ length: 60 }, (_, i) => `VSC: in order ${i} ${to}`);
    await t.database.db.insert(smsOutbox).values(bodies.map((body) => ({ to, body, kind: 'document_rejected' })));
    const other = bulkSmsDriver({ baseUrl: stub.url, username: 'stub-token-id', password: 'stub-token-secret', timeoutMs: 2000 });
    stub.delayMs = 3;
    // A node that finds nothing to send waits a little, as the worker's poll does (on PGlite a tight loop starves the stub).
    const drainAll = async (d: SmsDriver) => {
      let k = 0;
      for (let i = 0; i < 2000 && (await rowsOf([to])).some((r) => r.status === 'pending'); i++) {
        const sent = await drainSmsOutbox(t.database.db, d, 7);
        k += sent;
        if (!sent) await new Promise((r) => setTimeout(r, 10));
      }
      return k;
    };
    const [x, y] = await Promise.all([drainAll(http), drainAll(other)]);
    stub.delayMs = 0;
    expect(x + y).toBe(60);
    expect(deliveredTo(to)).toEqual(bodies);
  });

  it('a gateway outage (503) costs one gateway call and one log line per pause, not one per queued message; the others keep their attempts (F2)', async () => {
    await clearQueue();
    const numbers = await queueSpread(10);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      stub.failNext(503, 2);
      const calls0 = stub.calls;
      expect(await drainSmsOutboxPass(t.database.db, http)).toBe(0);
      expect(await drainSmsOutboxPass(t.database.db, http)).toBe(0);
      expect(stub.calls - calls0).toBe(1);
      const lines = warn.mock.calls.map((c) => String(c[0])).filter((l) => l.startsWith('[sms]'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^\[sms\] SMS gateway unavailable \(.*503.*\): sending paused on this node for 10 s; 9 claimed message\(s\) handed back/);
      const rows = await rowsOf(numbers);
      expect(rows.map((r) => r.attempts)).toEqual([1, ...Array(9).fill(0)]);
      expect(rows.every((r) => r.status === 'pending')).toBe(true);
      // Still down at the end of the pause: the next pause is twice as long.
      resumeSms(http, false);
      await dueNow();
      await drainSmsOutboxPass(t.database.db, http);
      expect(stub.calls - calls0).toBe(2);
      expect(smsPausedUntil(http)! - Date.now()).toBeGreaterThan(15_000);
    } finally { warn.mockRestore(); }
  });

  it('429 with Retry-After: 120 pauses sending for 120 s and the message waits as long (F2)', async () => {
    await clearQueue();
    const numbers = await queueSpread(5);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      stub.failNext(429, 1, '120');
      const calls0 = stub.calls;
      expect(await drainSmsOutboxPass(t.database.db, http)).toBe(0);
      expect(await drainSmsOutboxPass(t.database.db, http)).toBe(0);
      expect(stub.calls - calls0).toBe(1);
      expect(smsPausedUntil(http)! - Date.now()).toBeGreaterThan(110_000);
      const [first] = await rowsOf(numbers);
      expect(first!.lockedUntil!.getTime() - Date.now()).toBeGreaterThan(110_000);
      expect(warn.mock.calls.map((c) => String(c[0])).join('\n')).toContain("for 120 s (the gateway's Retry-After)");
    } finally { warn.mockRestore(); }
  });

  it('bad credentials (401): one gateway call and one error line naming SMS_USERNAME and SMS_PASSWORD, never their values (F2)', async () => {
    await clearQueue();
    const numbers = await queueSpread(10);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const wrong = bulkSmsDriver({ baseUrl: stub.url, username: 'stub-token-id', password: 'wrong-secret-x' });
    try {
      const calls0 = stub.calls;
      expect(await drainSmsOutboxPass(t.database.db, wrong)).toBe(0);
      expect(await drainSmsOutboxPass(t.database.db, wrong)).toBe(0);
      expect(stub.calls - calls0).toBe(1);
      const lines = error.mock.calls.map((c) => String(c[0])).filter((l) => l.startsWith('[sms]'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('check SMS_USERNAME and SMS_PASSWORD');
      expect(lines[0]).not.toContain('wrong-secret-x');
      expect((await rowsOf(numbers)).filter((r) => r.attempts > 0)).toHaveLength(1);
    } finally { error.mockRestore(); }
    expect(await drainSmsOutboxPass(t.database.db, http)).toBe(9);
  });

  it('a 201 whose message has status FAILED is recorded as failed, not sent (F3)', async () => {
    await clearQueue();
    const [to] = await queueSpread(1);
    stub.statusNext('FAILED');
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try { expect(await drainSmsOutbox(t.database.db, http)).toBe(0); } finally { error.mockRestore(); }
    expect((await rowsOf([to!]))[0]).toMatchObject({ status: 'failed', attempts: 1, body: SMS_UNSENT_BODY });
    expect((await rowsOf([to!]))[0]!.lastError).toMatch(/status FAILED BLOCKED/);
  });

  it('a 201 whose body cannot be matched to the messages counts them as sent, without an id: never sent again (review)', async () => {
    await clearQueue();
    const numbers = await queueSpread(3);
    stub.garbleNext();
    const before = stub.received.length;
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await drainSmsOutbox(t.database.db, http);
      resumeSms(http);
      await drainSmsOutboxPass(t.database.db, http);
    } finally { error.mockRestore(); }
    expect(stub.received.length - before).toBe(3);
    expect((await rowsOf(numbers)).map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
  });

  it('a South African number one digit short is not a mobile number (F4)', () => {
    expect(toE164('082123456')).toBeNull();
    expect(toE164('+27 82 123 456')).toBeNull();
    expect(toE164('08212345678')).toBeNull();
    expect(toE164('082 123 4567')).toBe('+27821234567');
  });

  it('"opted out" counts people: a STOP from a number no applicant has counts nobody, a person who did both counts once (F5)', async () => {
    const admin = await signInAdmin(t);
    const before = (await admin.agent.get('/api/admin/stats')).body.sms.optedOut as number;
    const hook = (from: string, body: string) => t.request().post(`/api/sms/inbound?secret=${SECRET}`).send([{ type: 'RECEIVED', from, body }]);
    expect((await hook(phone().e164.slice(1), 'STOP')).body).toMatchObject({ optedOut: 1 });
    const both = await student();
    expect((await both.agent.put('/api/sms/preference').send({ optOut: true })).status).toBe(200);
    expect((await hook(both.phone.slice(1), 'STOP')).body).toMatchObject({ optedOut: 1 });
    expect((await admin.agent.get('/api/admin/stats')).body.sms.optedOut).toBe(before + 1);
  });

  it("an admin's rejection reason goes into the SMS without its web addresses; the college's link stays (F6)", async () => {
    const s = await student();
    const id = await apply(s, 13);
    const admin = await signInAdmin(t);
    const reason = 'Blurry. Reset your password at https://evil.example/reset?u=1 or www.evil.co.za/login first.';
    expect((await admin.agent.put(`/api/admin/applications/${id}/documents/idDocument`).send({ status: 'rejected', reason })).status).toBe(200);
    const body = (await rowsTo(s.phone))[1]!.body;
    expect(body).not.toMatch(/evil|www\.|https:\/\/(?!vsc\.example\/)/);
    expect(body).toBe(`VSC: APP-${id} ID Document not accepted: Blurry. Reset your password at or first. Upload again: https://vsc.example/applications/${id} Reply STOP to opt out`);
  });
});

/** Audit item 7: one message per POST made one node send 181 SMS a minute through a gateway answering in 300 ms. */
describe(`SMS in BulkSMS requests of up to 50 (${DB_KIND})`, () => {
  afterEach(() => { resumeSms(http); });
  async function queueSpread(count: number, extra: string[] = []): Promise<string[]> {
    const numbers = [...Array.from({ length: count }, () => phone().e164), ...extra];
    await t.database.db.insert(smsOutbox).values(numbers.map((to, i) => ({ to, body: `VSC: many ${i} ${to}`, kind: 'receipt' })));
    return numbers;
  }
  const rowsOf = (numbers: string[]) => t.database.db.select().from(smsOutbox).where(inArray(smsOutbox.to, numbers)).orderBy(smsOutbox.id);

  it('sends 10 queued messages in one request and keeps each message its own gateway id', async () => {
    await clearQueue();
    const numbers = await queueSpread(10);
    const requests0 = stub.perRequest.length;
    expect(await drainSmsOutbox(t.database.db, http)).toBe(10);
    expect(stub.perRequest.slice(requests0)).toEqual([10]);
    const rows = await rowsOf(numbers);
    expect(rows.map((r) => r.status)).toEqual(numbers.map(() => 'sent'));
    expect(rows.map((r) => r.providerId)).toEqual(numbers.map((to) => stub.received.find((m) => m.to === to)!.id));
  });

  it('a message refused alone (status FAILED) fails for good while the others of its request are sent', async () => {
    await clearQueue();
    const numbers = await queueSpread(3);
    stub.statusNext('FAILED');
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try { expect(await drainSmsOutbox(t.database.db, http)).toBe(2); } finally { error.mockRestore(); }
    expect((await rowsOf(numbers)).map((r) => r.status)).toEqual(['failed', 'sent', 'sent']);
  });

  it('a request refused whole (400: one invalid number) is sent again one message at a time: only the bad number fails', async () => {
    await clearQueue();
    const numbers = await queueSpread(3, ['+12']);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try { expect(await drainSmsOutbox(t.database.db, http)).toBe(3); } finally { error.mockRestore(); }
    expect((await rowsOf(numbers)).map((r) => [r.to, r.status])).toEqual(numbers.map((to) => [to, to === '+12' ? 'failed' : 'sent']));
  });

  it('two messages to one phone never share a request, and go in queue order', async () => {
    await clearQueue();
    const to = phone().e164;
    await t.database.db.insert(smsOutbox).values([0, 1, 2].map((i) => ({ to, body: `VSC: same phone ${i} ${to}`, kind: 'document_rejected' })));
    const requests0 = stub.perRequest.length;
    expect(await drainSmsOutbox(t.database.db, http)).toBe(3);
    expect(stub.perRequest.slice(requests0)).toEqual([1, 1, 1]);
    expect(stub.received.filter((m) => m.to === to).map((m) => m.body)).toEqual([0, 1, 2].map((i) => `VSC: same phone ${i} ${to}`));
  });
});

/**
 * Review (MEDIUM): Documents Required right after a document rejection sends no status SMS while the rejection's SMS
 * stands, but during a gateway outage that SMS is still pending then; when it later failed for good nothing queued the
 * status SMS, and the phone got neither.
 */
describe(`SMS: a rejection SMS that fails for good after standing for Documents Required (${DB_KIND})`, () => {
  afterEach(() => { resumeSms(http); });
  const opts = () => ({ origin: siteOrigin(t.config) });
  const kinds = async (to: string) => (await rowsTo(to)).map((r) => [r.kind, r.status]);
  /** An application whose receipt is sent and whose ID document was rejected (its SMS queued, not sent). */
  async function rejected() {
    await clearQueue();
    const s = await student();
    const id = await apply(s, 11);
    expect(await drainSmsOutbox(t.database.db, http, 50, opts())).toBe(1);
    const admin = await signInAdmin(t);
    expect((await admin.agent.put(`/api/admin/applications/${id}/documents/idDocument`).send({ status: 'rejected', reason: 'The photo is too blurry to read.' })).status).toBe(200);
    return { s, id, admin };
  }
  /** Sends what is due now, ignoring pauses and back-off, until nothing is left to send. */
  async function drainAll() {
    for (let i = 0; i < 5; i++) { resumeSms(http); await dueNow(); await drainSmsOutbox(t.database.db, http, 50, opts()); }
  }

  it('the rejection SMS pending (gateway down) when the status changes, then failing for good: exactly one status SMS is queued afterwards and sent', async () => {
    const { s, id, admin } = await rejected();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      stub.failNext(503);
      expect(await drainSmsOutbox(t.database.db, http, 50, opts())).toBe(0);
      expect((await admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'documents_required', notes: '' })).status).toBe(200);
      expect(await kinds(s.phone)).toEqual([['receipt', 'sent'], ['document_rejected', 'pending']]);
      // The outage lasts through the last attempt (a day of retries, stood in for by the attempt count).
      await t.database.db.update(smsOutbox).set({ attempts: MAX_ATTEMPTS - 1 }).where(and(eq(smsOutbox.applicationId, id), eq(smsOutbox.kind, 'document_rejected')));
      stub.failNext(503);
      resumeSms(http);
      await dueNow();
      expect(await drainSmsOutbox(t.database.db, http, 50, opts())).toBe(0);
      expect(await kinds(s.phone)).toEqual([['receipt', 'sent'], ['document_rejected', 'failed'], ['status', 'pending']]);
      await drainAll();
    } finally { warn.mockRestore(); error.mockRestore(); }
    expect(await kinds(s.phone)).toEqual([['receipt', 'sent'], ['document_rejected', 'failed'], ['status', 'sent']]);
    const got = stub.received.filter((m) => m.to === s.phone).map((m) => m.body);
    expect(got).toHaveLength(2);
    expect(got[1]).toBe(statusSms(id, 'documents_required', `https://vsc.example/applications/${id}`));
  });

  it('two rejection SMS standing, both failing for good (one request, each refused): one status SMS, not two', async () => {
    const { s, id, admin } = await rejected();
    expect((await admin.agent.put(`/api/admin/applications/${id}/documents/transcripts`).send({ status: 'rejected', reason: 'Page two is missing.' })).status).toBe(200);
    expect((await admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'documents_required', notes: '' })).status).toBe(200);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      // One claim, one request per message (one phone's messages never share a request): the first refused while the
      // second still stands, then the second.
      stub.statusNext('FAILED', 2);
      expect(await drainSmsOutbox(t.database.db, http, 50, opts())).toBe(0);
      expect(await kinds(s.phone)).toEqual([['receipt', 'sent'], ['document_rejected', 'failed'], ['document_rejected', 'failed'], ['status', 'pending']]);
      await drainAll();
    } finally { error.mockRestore(); }
    expect(await kinds(s.phone)).toEqual([['receipt', 'sent'], ['document_rejected', 'failed'], ['document_rejected', 'failed'], ['status', 'sent']]);
  });

  it('the rejection SMS sent (at once, or after the outage): no status SMS at all', async () => {
    const first = await rejected();
    await drainAll();
    expect((await first.admin.agent.put(`/api/admin/applications/${first.id}/status`).send({ status: 'documents_required', notes: '' })).status).toBe(200);
    await drainAll();
    expect(await kinds(first.s.phone)).toEqual([['receipt', 'sent'], ['document_rejected', 'sent']]);

    const { s, id, admin } = await rejected();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      stub.failNext(503);
      expect(await drainSmsOutbox(t.database.db, http, 50, opts())).toBe(0);
      expect((await admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'documents_required', notes: '' })).status).toBe(200);
      await drainAll();
    } finally { warn.mockRestore(); }
    expect(await kinds(s.phone)).toEqual([['receipt', 'sent'], ['document_rejected', 'sent']]);
    expect(stub.received.filter((m) => m.to === s.phone)).toHaveLength(2);
  });

  it('Documents Required set before the rejection (its status SMS sent), the rejection SMS then failing for good: no second status SMS', async () => {
    await clearQueue();
    const s = await student();
    const id = await apply(s, 11);
    const admin = await signInAdmin(t);
    expect((await admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'documents_required', notes: '' })).status).toBe(200);
    await drainAll();
    expect((await admin.agent.put(`/api/admin/applications/${id}/documents/idDocument`).send({ status: 'rejected', reason: 'The photo is too blurry to read.' })).status).toBe(200);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      stub.failNext(400);
      await drainSmsOutbox(t.database.db, http, 50, opts());
      await drainAll();
    } finally { error.mockRestore(); }
    expect(await kinds(s.phone)).toEqual([['receipt', 'sent'], ['status', 'sent'], ['document_rejected', 'failed']]);
  });
});
