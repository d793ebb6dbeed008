import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { startTestApp, signUpStudent, signInAdmin, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';
import { erasureRequests, users } from '../../db/schema/users.ts';
import { uploads } from '../../db/schema/applications.ts';
import { notifications, mailOutbox } from '../../db/schema/messaging.ts';
import { mailsTo } from '../../test/mail.ts';
import fs from 'node:fs';
import path from 'node:path';
import { fileMailer } from '../../mail/mailer.ts';
import { fileSmsDriver } from '../../sms/sms-drivers.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const b64 = (s: string) => Buffer.from(s).toString('base64');
let n = 0;

/** A student whose name, phone, ID number and emergency contact appear nowhere else, with an application (status changed once), a draft, an NSC result, a contact message from the verified address and an unfinished tus upload. */
async function studentWithApplication() {
  const tag = String.fromCharCode(97 + (process.pid % 26), 97 + (++n % 26)) + crypto.randomBytes(3).toString('hex').replace(/\d/g, (d) => String.fromCharCode(103 + Number(d)));
  const person = { firstName: `Qhawekazi${tag}`, lastName: `Ntshangase${tag}`, phone: `07398${String(Date.now()).slice(-5)}`, emergencyContactName: `Mlungisi${tag}` };
  const s = await signUpStudent(t, { firstName: person.firstName, lastName: person.lastName, phone: person.phone });
  const idNumber = '0104125800086';
  const put = await s.agent.put('/api/profile').send({ ...person, nationality: 'za', idNumber, addressLine1: `7 ${tag} Street`, addressLine2: '', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za', emergencyContactPhone: '0723334444', emergencyContactRelation: 'Sister' });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  expect((await s.agent.put('/api/profile/nsc-results').send({ nscResults: [{ subject: 'Mathematics', percent: 71 }] })).status).toBe(200);
  const up = async (name: string) => (await s.agent.post('/api/uploads').attach('file', PDF, name)).body.upload.id as string;
  const docs = { idDocument: await up('id.pdf'), transcripts: await up('results.pdf') };
  const res = await s.agent.post('/api/applications').send({ ...validApplication(1, docs), firstName: person.firstName, lastName: person.lastName, email: s.email, phone: person.phone });
  expect(res.status).toBe(201);
  expect((await s.agent.put('/api/applications/draft?key=general').send({ step: 1, data: { firstName: person.firstName, phone: person.phone } })).status).toBe(200);
  await t.database.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, s.user.id));
  expect((await t.request().post('/api/contact').send({ firstName: person.firstName, lastName: person.lastName, email: s.email, phone: person.phone, message: 'Please call me about my application.' })).status).toBeLessThan(300);
  const tus = await s.agent.post('/api/uploads/tus').set('Tus-Resumable', '1.0.0').set('Upload-Length', '5000').set('Upload-Metadata', `filename ${b64('matric.pdf')}`);
  expect(tus.status).toBe(201);
  expect((await t.request().post('/api/auth/login').send({ email: s.email, password: 'not-the-password' })).status).toBe(401);
  const del = await s.agent.post('/api/profile/delete').send({ password: s.password });
  expect(del.status).toBe(202);
  return { s, person, idNumber, applicationId: res.body.application.id as number, requestId: del.body.requestId as number, uploadIds: Object.values(docs), tusId: String(tus.headers.location).split('/').pop()! };
}

/** Every row of every table of the public schema, as JSON text, like a dump. */
async function dump(): Promise<{ table: string; row: Record<string, unknown>; text: string }[]> {
  const db = t.database.db;
  const tables = ((await db.execute(sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`)) as any).rows as { table_name: string }[];
  expect(tables.map((r) => r.table_name)).toEqual(expect.arrayContaining(['users', 'applications', 'mail_outbox', 'sms_outbox', 'session', 'registration_details', 'contact_messages', 'rate_limits']));
  const out: { table: string; row: Record<string, unknown>; text: string }[] = [];
  for (const { table_name } of tables) {
    const rows = ((await db.execute(sql.raw(`SELECT row_to_json(x)::text AS j FROM "${table_name}" x`))) as any).rows as { j: string }[];
    for (const { j } of rows) out.push({ table: table_name, row: JSON.parse(j), text: j.toLowerCase() });
  }
  return out;
}

describe(`admin erasure requests (${DB_KIND})`, () => {
  it('POST /api/admin/erasure-requests/:id erase › no trace of the person in any table; the application, its history and payment stay; the login is dead', async () => {
    const admin = await signInAdmin(t);
    const { s, person, idNumber, applicationId, requestId, uploadIds, tusId } = await studentWithApplication();
    expect((await admin.agent.put(`/api/admin/applications/${applicationId}/status`).send({ status: 'under_review', notes: '' })).status).toBe(200);
    const unique = [person.firstName, person.lastName, person.emergencyContactName, idNumber, person.phone, `+27${person.phone.slice(1)}`, s.email].map((v) => v.toLowerCase());
    expect((await dump()).filter((r) => unique.some((u) => r.text.includes(u))).length).toBeGreaterThan(5);
    const keys = (await t.database.db.select({ k: uploads.storedName }).from(uploads).where(eq(uploads.userId, s.user.id))).map((r) => r.k);
    expect(keys).toHaveLength(2);
    for (const k of keys) expect(await t.store.exists(k)).toBe(true);
    expect((await t.store.list('tus/')).filter((k) => k.includes(tusId))).toHaveLength(2);

    const res = await admin.agent.post(`/api/admin/erasure-requests/${requestId}`).send({ decision: 'erase' });
    expect(res.status).toBe(200);
    expect(res.body.request).toMatchObject({ id: requestId, status: 'done', resolvedAt: expect.any(String) });

    const rows = await dump();
    // The one exception: the confirmation mail's recipient (kept with its subject once delivered, as every mail).
    const traces = rows.filter((r) => {
      const text = r.table === 'mail_outbox' && r.row.subject === 'Your personal data has been erased' ? JSON.stringify({ ...r.row, to: '' }).toLowerCase() : r.text;
      return unique.some((u) => text.includes(u));
    }).map((r) => `${r.table}: ${r.text}`);
    expect(traces).toEqual([]);
    expect(rows.filter((r) => r.table === 'registration_details' && r.row.user_id === s.user.id)).toEqual([]);
    expect(rows.filter((r) => r.table === 'uploads' && uploadIds.includes(String(r.row.id)))).toEqual([]);
    for (const k of keys) expect(await t.store.exists(k)).toBe(false);
    expect((await t.store.list('tus/')).filter((k) => k.includes(tusId))).toEqual([]);

    const detail = await admin.agent.get(`/api/admin/applications/${applicationId}`);
    expect(detail.status).toBe(200);
    expect(detail.body.applicant).toMatchObject({ firstName: 'Erased', lastName: 'applicant', email: `erased-${s.user.id}@erased.invalid`, phone: null });
    expect(detail.body.application).toMatchObject({ status: 'under_review', courseId: 1, personal: { firstName: 'Erased', lastName: 'applicant' }, documents: {} });
    expect(detail.body.history.map((h: any) => h.toStatus)).toEqual(expect.arrayContaining(['pending', 'under_review']));
    expect(detail.body.payment).toMatchObject({ amount: expect.stringMatching(/^\d+\.\d\d$/), reference: expect.any(String), status: expect.any(String), last4: null });
    expect(detail.body.documents).toEqual([]);

    const mails = await mailsTo(t, s.email, 'Your personal data has been erased');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toMatch(/What we kept, and why/);

    expect((await s.agent.get('/api/auth/me')).status).toBe(401);
    expect((await t.request().get('/api/profile').set('Authorization', `Bearer ${s.token}`)).status).toBe(401);
    expect((await t.request().post('/api/auth/login').send({ email: s.email, password: s.password })).status).toBe(401);
    expect((await t.request().post('/api/auth/login').send({ email: `erased-${s.user.id}@erased.invalid`, password: s.password })).status).toBe(401);

    const again = await admin.agent.post(`/api/admin/erasure-requests/${requestId}`).send({ decision: 'decline', reason: 'Too late' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('This request was already done.');
    expect((await admin.agent.post(`/api/admin/erasure-requests/${requestId}`).send({ decision: 'erase' })).body.error.message).toBe('This request was already done.');
  });

  it('erase › the notes admins wrote on the application and its history and the document review reasons go; the decisions stay and the mail says so', async () => {
    const admin = await signInAdmin(t);
    const { s, person, idNumber, applicationId, requestId } = await studentWithApplication();
    const note = `Called ${person.phone} re ${person.firstName}`;
    expect((await admin.agent.put(`/api/admin/applications/${applicationId}/status`).send({ status: 'under_review', notes: note })).status).toBe(200);
    const reason = `Blurry scan of ${person.firstName}'s ID ${idNumber}`;
    expect((await admin.agent.put(`/api/admin/applications/${applicationId}/documents/idDocument`).send({ status: 'rejected', reason })).status).toBe(200);
    const read = async () => JSON.stringify([(await admin.agent.get(`/api/admin/applications/${applicationId}`)).body, (await admin.agent.get(`/api/applications/${applicationId}/checklist`)).body]);
    const before = await read();
    expect(before).toContain(note);
    expect(before).toContain(JSON.stringify(reason).slice(1, -1));

    expect((await admin.agent.post(`/api/admin/erasure-requests/${requestId}`).send({ decision: 'erase' })).status).toBe(200);
    const detail = await admin.agent.get(`/api/admin/applications/${applicationId}`);
    const after = (await read()).toLowerCase();
    for (const v of [person.firstName, person.phone, idNumber]) expect(after).not.toContain(v.toLowerCase());
    expect(detail.body.history.map((h: any) => h.toStatus)).toEqual(expect.arrayContaining(['pending', 'under_review']));
    const rows = (await dump()).filter((r) => ['applications', 'application_status_history', 'document_reviews'].includes(r.table) && r.row.application_id === applicationId || (r.table === 'applications' && r.row.id === applicationId));
    expect(rows.filter((r) => r.text.includes(person.firstName.toLowerCase()) || r.text.includes(idNumber))).toEqual([]);
    expect(rows.filter((r) => r.table === 'document_reviews')).toEqual([expect.objectContaining({ row: expect.objectContaining({ status: 'rejected', reason: '(reason removed when the applicant\'s data was erased)' }) })]);
    const mails = await mailsTo(t, s.email, 'Your personal data has been erased');
    expect(mails[0]!.text).toMatch(/removed the notes staff wrote on your applications and the reasons given for rejecting your documents/);
  });

  it('erase › the mail lists what stays of the payment as erasure.repo keeps it: amount, method, reference and status (the card\'s last digits go)', async () => {
    const admin = await signInAdmin(t);
    const { s, applicationId, requestId } = await studentWithApplication();
    expect((await admin.agent.post(`/api/admin/erasure-requests/${requestId}`).send({ decision: 'erase' })).status).toBe(200);
    const payment = (await admin.agent.get(`/api/admin/applications/${applicationId}`)).body.payment;
    expect(payment).toMatchObject({ amount: expect.any(String), method: expect.any(String), reference: expect.any(String), status: expect.any(String), last4: null });
    const [mail] = await mailsTo(t, s.email, 'Your personal data has been erased');
    expect(mail!.text.replace(/\s+/g, ' ')).toContain('and of its payment (amount, method, reference and status), without your name or details.');
  });

  it('erase › the person\'s own words on their erasure requests are cleared (a declined one\'s too, kept until then), and so is an admin\'s decline reason; the requests, their dates and decisions stay', async () => {
    const admin = await signInAdmin(t);
    const { s, person, requestId: first } = await studentWithApplication();
    const own = (id: number) => `I am ${person.firstName}; after my divorce from ${person.emergencyContactName} please delete everything (${id})`;
    const db = t.database.db;
    // What the request row holds when the person wrote their reason (older releases, the admin's students list shows it).
    await db.update(erasureRequests).set({ reason: own(1) }).where(eq(erasureRequests.id, first));
    const declineReason = `${person.firstName}, your bursary file with ${person.emergencyContactName} is open until March.`;
    const declined = await admin.agent.post(`/api/admin/erasure-requests/${first}`).send({ decision: 'decline', reason: declineReason });
    expect(declined.status).toBe(200);
    // Declined: the account lives on, and so does the person's reason.
    expect(declined.body.request.reason).toBe(own(1));
    const again = await s.agent.post('/api/profile/delete').send({ password: s.password });
    expect(again.status).toBe(202);
    const second = again.body.requestId as number;
    await db.update(erasureRequests).set({ reason: own(2) }).where(eq(erasureRequests.id, second));
    const before = await db.select().from(erasureRequests).where(eq(erasureRequests.userId, s.user.id)).orderBy(erasureRequests.id);

    const res = await admin.agent.post(`/api/admin/erasure-requests/${second}`).send({ decision: 'erase' });
    expect(res.status).toBe(200);
    expect(res.body.request).toMatchObject({ id: second, status: 'done', reason: null, resolvedAt: expect.any(String) });
    const after = await db.select().from(erasureRequests).where(eq(erasureRequests.userId, s.user.id)).orderBy(erasureRequests.id);
    expect(after).toEqual([
      { ...before[0]!, reason: null, decisionReason: null },
      { ...before[1]!, reason: null, status: 'done', resolvedAt: expect.any(Date) },
    ]);
    expect(after[0]).toMatchObject({ status: 'declined', decisionReason: null });
    const listed = await admin.agent.get(`/api/admin/students?q=${encodeURIComponent(`erased-${s.user.id}@`)}`);
    expect(listed.body.students.find((x: { id: number }) => x.id === s.user.id).erasureRequests).toEqual([
      expect.objectContaining({ id: second, status: 'done', reason: null }),
      expect.objectContaining({ id: first, status: 'declined', reason: null, decisionReason: null }),
    ]);
    expect(JSON.stringify((await dump()).filter((r) => r.table === 'erasure_requests').map((r) => r.row)).toLowerCase()).not.toContain(person.emergencyContactName.toLowerCase());
  });

  it('erase › a status change on the erased person\'s application afterwards adds no portal notification and queues no mail (erased_at, or an older release\'s erasure)', async () => {
    const admin = await signInAdmin(t);
    const { s, applicationId, requestId } = await studentWithApplication();
    expect((await admin.agent.post(`/api/admin/erasure-requests/${requestId}`).send({ decision: 'erase' })).status).toBe(200);
    const db = t.database.db;
    const sent = async () => ({
      notifications: (await db.select().from(notifications).where(eq(notifications.userId, s.user.id))).length,
      mail: (await db.select().from(mailOutbox).where(eq(mailOutbox.to, `erased-${s.user.id}@erased.invalid`))).length,
    });
    expect((await admin.agent.put(`/api/admin/applications/${applicationId}/status`).send({ status: 'under_review', notes: '' })).status).toBe(200);
    expect(await sent()).toEqual({ notifications: 0, mail: 0 });
    // The same row as a release before migration 0029 left it (no erased_at: LEGACY_ERASED_SQL).
    await db.update(users).set({ erasedAt: null }).where(eq(users.id, s.user.id));
    expect((await admin.agent.put(`/api/admin/applications/${applicationId}/status`).send({ status: 'rejected', notes: '' })).status).toBe(200);
    expect(await sent()).toEqual({ notifications: 0, mail: 0 });
    const detail = await admin.agent.get(`/api/admin/applications/${applicationId}`);
    expect(detail.body.application.status).toBe('rejected');
  });

  it('erase › the file drivers\' copies of the mail and SMS sent to the person (DATA_DIR/outbox, sms-outbox) are removed; others\' stay (privacy audit F8)', async () => {
    const admin = await signInAdmin(t);
    const { s, person, requestId } = await studentWithApplication();
    const outbox = path.join(t.config.dataDir, 'outbox');
    const smsDir = path.join(t.config.dataDir, 'sms-outbox');
    const mailer = fileMailer(outbox, 'admissions@college.example');
    const sms = fileSmsDriver(smsDir);
    const mine = `+27${person.phone.slice(1)}`;
    await mailer.send({ to: s.email, subject: 'Reset your password', text: 'https://college.example/reset-password#token=abc' });
    await mailer.send({ to: s.email.toUpperCase(), subject: 'Verify your e-mail address', text: 'https://college.example/verify#token=def' });
    await mailer.send({ to: `x${s.email}`, subject: 'Someone else', text: 'not theirs' });
    await sms.send({ to: mine, body: 'VSC: choose your password within 7 days: https://college.example/r#token=ghi' });
    await sms.send({ to: '+27821110000', body: 'VSC: someone else' });
    const count = () => ({ mail: fs.readdirSync(outbox).filter((n) => n.endsWith('.eml')).length, sms: fs.readdirSync(smsDir).filter((n) => n.endsWith('.json')).length });
    const before = count();

    expect((await admin.agent.post(`/api/admin/erasure-requests/${requestId}`).send({ decision: 'erase' })).status).toBe(200);
    expect(count()).toEqual({ mail: before.mail - 2, sms: before.sms - 1 });
    const left = [...fs.readdirSync(outbox).map((n) => fs.readFileSync(path.join(outbox, n), 'utf8')), ...fs.readdirSync(smsDir).map((n) => fs.readFileSync(path.join(smsDir, n), 'utf8'))];
    expect(left.filter((text) => text.includes('#token=abc') || text.includes('#token=def') || text.includes('#token=ghi'))).toEqual([]);
    expect(left.filter((text) => text.includes('not theirs') || text.includes('someone else'))).toHaveLength(2);
  });

  it('decline › needs a reason; stores it beside the request\'s own reason and mails it; the account keeps working; a second decision is 409', async () => {
    const admin = await signInAdmin(t);
    const { s, requestId } = await studentWithApplication();
    const missing = await admin.agent.post(`/api/admin/erasure-requests/${requestId}`).send({ decision: 'decline', reason: '  ' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields).toEqual({ reason: 'Please give the reason for declining' });
    expect((await admin.agent.post(`/api/admin/erasure-requests/${requestId}`).send({ decision: 'forget' })).status).toBe(400);
    expect((await admin.agent.post('/api/admin/erasure-requests/999999').send({ decision: 'erase' })).status).toBe(404);

    const reason = 'Your bursary application is under investigation; records must be kept until it closes.';
    const res = await admin.agent.post(`/api/admin/erasure-requests/${requestId}`).send({ decision: 'decline', reason });
    expect(res.status).toBe(200);
    const filed = 'Requested by the account holder from the profile page';
    expect(res.body.request).toMatchObject({ status: 'declined', reason: filed, decisionReason: reason, resolvedAt: expect.any(String) });
    const students = await admin.agent.get(`/api/admin/students?q=${encodeURIComponent(s.email)}`);
    expect(students.body.students[0].erasureRequests).toEqual([expect.objectContaining({ id: requestId, status: 'declined', reason: filed, decisionReason: reason })]);
    const mails = await mailsTo(t, s.email, 'Your request to delete your account');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(reason);

    expect((await s.agent.get('/api/profile')).status).toBe(200);
    expect((await t.request().post('/api/auth/login').send({ email: s.email, password: s.password })).status).toBe(200);
    const again = await admin.agent.post(`/api/admin/erasure-requests/${requestId}`).send({ decision: 'erase' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('This request was already declined.');
  });

  it('only admins decide: anonymous 401, student 403, and two admins at once → one 200, one 409', async () => {
    const { s, requestId } = await studentWithApplication();
    expect((await t.request().post(`/api/admin/erasure-requests/${requestId}`).send({ decision: 'erase' })).status).toBe(401);
    expect((await s.agent.post(`/api/admin/erasure-requests/${requestId}`).send({ decision: 'erase' })).status).toBe(403);
    const [a, b] = [await signInAdmin(t), await signInAdmin(t)];
    const both = await Promise.all([
      a.agent.post(`/api/admin/erasure-requests/${requestId}`).send({ decision: 'erase' }),
      b.agent.post(`/api/admin/erasure-requests/${requestId}`).send({ decision: 'decline', reason: 'Records under audit' }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});
