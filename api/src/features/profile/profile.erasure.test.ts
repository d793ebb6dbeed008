import fs from 'node:fs';
import path from 'node:path';
import { fileMailer } from '../../mail/mailer.ts';
import { fileSmsDriver } from '../../sms/sms-drivers.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { startTestApp, signUpStudent, DB_KIND, type TestApp } from '../../test/harness.ts';
import { mailOutbox, smsOutbox } from '../../db/schema/messaging.ts';
import { rateLimits } from '../../db/schema/rate-limits.ts';
import { deleteLoginCounters } from './profile.repo.ts';
import { startS3Server, type TestS3Server } from '../../test/s3-server.ts';
import { afterAnswerSettled } from '../auth/after-answer.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

// POPIA §24 erasure must remove the documents themselves, wherever they are stored (issue #13).
describe.each(['local', 's3'] as const)(`account erasure (${DB_KIND}, %s document store)`, (driver) => {
  let t: TestApp;
  let s3: TestS3Server | undefined;
  beforeAll(async () => {
    if (driver === 's3') s3 = await startS3Server();
    t = await startTestApp({ DATA_DIR: fs.mkdtempSync(`/tmp/college-erasure-test-${process.pid}-`), ...s3?.env });
  });
  afterAll(async () => { await t.close(); await s3?.close(); fs.rmSync(t.config.dataDir, { recursive: true, force: true }); });

  it('deleteLoginCounters › removes the contact and assessment counters of the mailbox a +tag or dotted Gmail address reaches, and no one else\'s', async () => {
    const db = t.database.db;
    const resetAt = new Date(Date.now() + 600_000);
    const keys = ['contact:email:del@gmail.com', 'assessment:email:del@gmail.com', 'contact:email:someone@example.com'];
    await db.insert(rateLimits).values(keys.map((key) => ({ key, hits: 1, resetAt })));
    await deleteLoginCounters(db, 'D.el+apply@GoogleMail.com');
    const left = (await db.select({ key: rateLimits.key }).from(rateLimits).where(sql`${rateLimits.key} in ${keys}`)).map((r) => r.key);
    expect(left).toEqual(['contact:email:someone@example.com']);
    await db.delete(rateLimits).where(sql`${rateLimits.key} in ${keys}`);
  });

  it('POST /api/profile/delete › erases the person\'s uploaded documents from the store and keeps everyone else\'s', async () => {
    const s = await signUpStudent(t);
    const other = await signUpStudent(t);
    for (const name of ['id.pdf', 'results.pdf']) expect((await s.agent.post('/api/uploads').attach('file', PDF, name)).status).toBe(201);
    const kept = (await other.agent.post('/api/uploads').attach('file', PDF, 'mine.pdf')).body.upload.id;
    expect((await t.store.list()).length).toBe(3);

    const res = await s.agent.post('/api/profile/delete').send({ password: s.password });
    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe('deleted');
    expect((await t.store.list()).length).toBe(1);
    expect((await other.agent.get(`/api/uploads/${kept}`)).status).toBe(200);
  });

  it('POST /api/profile/delete › also removes the person\'s unfinished (tus) uploads and the mail and SMS sent to them; others\' stay', async () => {
    const s = await signUpStudent(t);
    const other = await signUpStudent(t);
    const partial = async (agent: typeof s.agent) => {
      const res = await agent.post('/api/uploads/tus').set('Tus-Resumable', '1.0.0').set('Upload-Length', '4000')
        .set('Upload-Metadata', `filename ${Buffer.from('id.pdf').toString('base64')}`);
      expect(res.status).toBe(201);
      const url = res.headers.location as string;
      expect((await agent.patch(url).set('Tus-Resumable', '1.0.0').set('Upload-Offset', '0').set('Content-Type', 'application/offset+octet-stream').send(PDF)).status).toBe(204);
      return url;
    };
    const mine = await partial(s.agent);
    const theirs = await partial(other.agent);
    const db = t.database.db;
    await db.insert(smsOutbox).values([{ to: '+27821234567', body: 'Your application was received', kind: 'receipt', userId: s.user.id }, { to: '+27821234568', body: 'Hi', kind: 'receipt', userId: other.user.id }]);
    const mailTo = async (email: string) => (await db.select({ id: mailOutbox.id }).from(mailOutbox).where(sql`lower(${mailOutbox.to}) = ${email.toLowerCase()}`)).length;
    expect(await mailTo(s.email)).toBeGreaterThan(0);
    expect((await t.request().post('/api/auth/login').send({ email: s.email, password: 'not-the-password' })).status).toBe(401);
    expect((await t.request().post('/api/auth/reset-password').send({ email: s.email })).status).toBe(200);
    await afterAnswerSettled(); // the link is queued after the answer (features/auth/after-answer.ts)
    expect((await t.request().post('/api/contact').send({ firstName: 'Del', lastName: 'Ete', email: s.email, phone: '', message: 'Please call me about my application.' })).status).toBe(201);
    const counters = async () => (await db.execute(sql`SELECT key FROM rate_limits WHERE position(${s.email.toLowerCase()} in key) > 0`) as any).rows.length;
    // Failed login (account, account+IP), reset request and contact message each keep a counter naming the address.
    expect(await counters()).toBe(4);

    const res = await s.agent.post('/api/profile/delete').send({ password: s.password });
    expect(res.body.outcome).toBe('deleted');
    expect((await other.agent.head(theirs).set('Tus-Resumable', '1.0.0')).status).toBe(200);
    const id = mine.split('/').pop()!;
    expect((await t.store.list(driver === 'local' ? 'tus/' : '')).filter((k) => k.startsWith(id) || k.startsWith(`tus/${id}`))).toEqual([]);
    expect(await mailTo(s.email)).toBe(0);
    expect(await counters()).toBe(0);
    expect(await mailTo(other.email)).toBeGreaterThan(0);
    expect(await db.select({ to: smsOutbox.to }).from(smsOutbox).where(eq(smsOutbox.to, '+27821234567'))).toEqual([]);
    expect(await db.select({ to: smsOutbox.to }).from(smsOutbox).where(eq(smsOutbox.userId, other.user.id))).toEqual([{ to: '+27821234568' }]);
  });

  it('POST /api/profile/delete › also removes the file drivers\' copies of the mail and SMS sent to the person (DATA_DIR/outbox, sms-outbox); others\' stay', async () => {
    const s = await signUpStudent(t);
    const outbox = path.join(t.config.dataDir, 'outbox');
    const smsDir = path.join(t.config.dataDir, 'sms-outbox');
    const mailer = fileMailer(outbox, 'admissions@college.example');
    const sms = fileSmsDriver(smsDir);
    await t.database.db.insert(smsOutbox).values({ to: '+27825550101', body: 'sent', kind: 'receipt', userId: s.user.id });
    await mailer.send({ to: s.email, subject: 'Reset your password', text: 'https://college.example/reset-password#token=abc' });
    await mailer.send({ to: `x${s.email}`, subject: 'Someone else', text: 'not theirs' });
    await sms.send({ to: '+27825550101', body: 'VSC: APP-1 received https://college.example/a/1' });
    await sms.send({ to: '+27821110000', body: 'VSC: someone else' });
    const texts = () => [...fs.readdirSync(outbox).map((n) => fs.readFileSync(path.join(outbox, n), 'utf8')), ...fs.readdirSync(smsDir).map((n) => fs.readFileSync(path.join(smsDir, n), 'utf8'))];

    expect((await s.agent.post('/api/profile/delete').send({ password: s.password })).body.outcome).toBe('deleted');
    expect(texts().filter((text) => text.includes('#token=abc') || text.includes('APP-1 received'))).toEqual([]);
    expect(texts().filter((text) => text.includes('not theirs') || text.includes('someone else'))).toHaveLength(2);
  });
});
