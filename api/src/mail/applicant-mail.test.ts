/**
 * Applicant mail as the applicant reads it (mail audit): every status mail was "Your application status changed",
 * receipts "Application received", rejections "A document needs replacing", with no next step, and no mail named the
 * college. Subjects now name the application and what changed; bodies say what to do next; every mail ends with the
 * college's footer (api/src/mail/messages.ts).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signUpStudent, signInAdmin, validApplication, DB_KIND, type TestApp } from '../test/harness.ts';
import { mailsTo } from '../test/mail.ts';
import { loadConfig } from '../config.ts';

let t: TestApp;
let dataDir: string;
let admin: Awaited<ReturnType<typeof signInAdmin>>;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(`/tmp/college-applicant-mail-test-${process.pid}-`);
  t = await startTestApp({ DATA_DIR: dataDir });
  admin = await signInAdmin(t);
});
afterAll(async () => { await t.close(); fs.rmSync(dataDir, { recursive: true, force: true }); });

const pdf = () => Buffer.concat([Buffer.from('%PDF-1.4\n%'), crypto.randomBytes(200), Buffer.from('\n%%EOF')]);

async function applicant() {
  const s = await signUpStudent(t);
  const up = async (name: string) => (await s.agent.post('/api/uploads').attach('file', pdf(), name)).body.upload.id as string;
  const res = await s.agent.post('/api/applications').send(validApplication(1, { idDocument: await up('id.pdf'), transcripts: await up('results.pdf') }));
  if (res.status !== 201) throw new Error(`submit failed ${res.status} ${JSON.stringify(res.body)}`);
  return { ...s, app: res.body.application.id as number, fee: res.body.application.paymentAmount as string };
}
const setStatus = (id: number, status: string, notes = '') => admin.agent.put(`/api/admin/applications/${id}/status`).send({ status, notes });
const FOOTER = /\n-- \nVhembe Skills College Admissions\nPhone 015 962 0000 \(Mon-Fri 8:00 AM - 5:00 PM\)\nhttp:\/\/\S+\n?$/;

describe(`applicant mail subjects and next steps (${DB_KIND})`, () => {
  it('receipt › "APP-{id}: application received", greeted by name, with the college footer', async () => {
    const s = await applicant();
    const [mail] = await mailsTo(t, s.email, `APP-${s.app}: application received`);
    expect(mail, 'receipt subject').toBeDefined();
    expect(mail!.text).toMatch(/^Dear Thandi,\n\nYour application for .+ \(APP-\d+\) has been received and is under review\./);
    expect(mail!.text).toMatch(FOOTER);
  });

  it('status › subject "APP-{id}: {spec §4 label}"; payment_pending states the amount in the spec\'s words; rejected gives a contact line and no admin notes', async () => {
    const s = await applicant();
    expect((await setStatus(s.app, 'payment_pending')).status).toBe(200);
    expect((await setStatus(s.app, 'rejected', 'INTERNAL: duplicate ID suspected')).status).toBe(200);
    const pay = (await mailsTo(t, s.email, `APP-${s.app}: Payment Pending`))[0];
    expect(pay, 'payment subject').toBeDefined();
    expect(pay!.text).toContain(`Payment of R${s.fee} is required to complete your application.`);
    const rej = (await mailsTo(t, s.email, `APP-${s.app}: Rejected`))[0];
    expect(rej, 'rejected subject').toBeDefined();
    expect(rej!.text).toContain('call the admissions office on 015 962 0000');
    expect(rej!.text).not.toContain('INTERNAL');
    expect(rej!.text).toMatch(FOOTER);
  });

  it('documents_required › names the rejected document; without one, the spec\'s alert', async () => {
    const s = await applicant();
    expect((await admin.agent.put(`/api/admin/applications/${s.app}/documents/transcripts`).send({ status: 'rejected', reason: 'Not certified' })).status).toBe(200);
    expect((await setStatus(s.app, 'documents_required')).status).toBe(200);
    const named = (await mailsTo(t, s.email, `APP-${s.app}: Documents Required`))[0];
    expect(named?.text).toContain('Please upload your Qualifications Documents on your application page.');
    const other = await applicant();
    expect((await setStatus(other.app, 'documents_required')).status).toBe(200);
    const plain = (await mailsTo(t, other.email, `APP-${other.app}: Documents Required`))[0];
    expect(plain?.text).toContain('Additional documents are required for your application. Please upload the required documents.');
  });

  it('document rejected › "APP-{id}: Qualifications Documents need replacing", plural verb, the reason ends with a full stop', async () => {
    const s = await applicant();
    expect((await admin.agent.put(`/api/admin/applications/${s.app}/documents/transcripts`).send({ status: 'rejected', reason: 'Not certified' })).status).toBe(200);
    const mail = (await mailsTo(t, s.email, `APP-${s.app}: Qualifications Documents need replacing`))[0];
    expect(mail, 'document subject').toBeDefined();
    expect(mail!.text).toContain(`Your Qualifications Documents for APP-${s.app} were not accepted: Not certified. Please upload new ones on your application page.`);
    const notes = (await s.agent.get('/api/notifications')).body.notifications.map((n: any) => n.message);
    expect(notes).toContain(`Your Qualifications Documents for APP-${s.app} were not accepted: Not certified. Please upload new ones on your application page.`);
  });
});

describe(`every mail names the college (${DB_KIND})`, () => {
  it('From is "Vhembe Skills College Admissions" (content/site.json) when MAIL_FROM is unset; an explicit MAIL_FROM is kept', () => {
    expect(loadConfig({}).MAIL_FROM).toBe('"Vhembe Skills College Admissions" <admissions@college.example>');
    expect(loadConfig({ MAIL_FROM: 'Registrar <registrar@college.example>' }).MAIL_FROM).toBe('Registrar <registrar@college.example>');
  });

  it('verification, password reset, password changed and the contact acknowledgement: From names the college, and each ends with the footer', async () => {
    const s = await signUpStudent(t);
    expect((await t.request().post('/api/auth/reset-password').send({ email: s.email })).status).toBe(200);
    expect((await s.agent.post('/api/profile/password').send({ currentPassword: s.password, password: 'another-secret-9', confirmPassword: 'another-secret-9' })).status).toBeLessThan(300);
    const visitor = `visitor.${crypto.randomUUID()}@example.com`;
    expect((await t.request().post('/api/contact').send({ firstName: 'Ann', lastName: 'Bee', email: visitor, message: 'When does the next intake start?' })).status).toBe(201);
    const mails = [...await mailsTo(t, s.email), ...await mailsTo(t, visitor)];
    expect(mails.map((m) => m.subject).sort()).toEqual(['Please confirm your e-mail address', 'Reset your password', 'We received your message', 'Your password was changed']);
    for (const m of mails) {
      expect(m.parsed.from?.value[0], m.subject).toEqual({ name: 'Vhembe Skills College Admissions', address: 'admissions@college.example' });
      expect(m.text, m.subject).toMatch(FOOTER);
    }
  });
});

describe(`plain words in account and status mail (${DB_KIND})`, () => {
  it('the verification mail and the Under Review mail say plainly that nothing needs doing (plain-language audit 7)', async () => {
    const s = await signUpStudent(t);
    const [verify] = await mailsTo(t, s.email, 'Please confirm your e-mail address');
    expect(verify.text).toContain('If you did not create this account, you can ignore this e-mail.');
    expect(verify.text).not.toContain('will not be linked to anything');
    const a = await applicant();
    expect((await setStatus(a.app, 'under_review')).status).toBe(200);
    const [review] = await mailsTo(t, a.email, `APP-${a.app}: Under Review`);
    expect(review?.text).toContain('You do not need to do anything now');
  });
});

describe(`receipts for what the applicant did (${DB_KIND})`, () => {
  it('replacing a rejected document › a receipt "APP-{id}: new {document} received"', async () => {
    const s = await applicant();
    expect((await admin.agent.put(`/api/admin/applications/${s.app}/documents/idDocument`).send({ status: 'rejected', reason: 'Expired ID' })).status).toBe(200);
    const fresh = (await s.agent.post('/api/uploads').attach('file', pdf(), 'id-new.pdf')).body.upload.id as string;
    expect((await s.agent.put(`/api/applications/${s.app}/documents/idDocument`).send({ uploadId: fresh })).status).toBe(200);
    const receipt = (await mailsTo(t, s.email, `APP-${s.app}: new ID Document received`))[0];
    expect(receipt, 'replacement receipt').toBeDefined();
    expect(receipt!.text).toContain(`We received your new ID Document for APP-${s.app}. The admissions office will check it.`);
    expect(receipt!.text).toMatch(FOOTER);
  });

  it('asking to delete an account with applications › the person is told the request was received and what happens next', async () => {
    const s = await applicant();
    const res = await s.agent.post('/api/profile/delete').send({ password: s.password });
    expect(res.body.outcome).toBe('requested');
    const ack = (await mailsTo(t, s.email, 'We received your request to delete your account'))[0];
    expect(ack, 'erasure acknowledgement').toBeDefined();
    expect(ack!.text).toContain(`erasure request ${res.body.requestId}`);
    expect(ack!.text).toMatch(FOOTER);
  });
});
