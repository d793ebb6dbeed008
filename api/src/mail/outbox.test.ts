import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestApp, signInAdmin, signUpStudent, DB_KIND, type TestApp } from '../test/harness.ts';
import { mailOutbox } from '../db/schema/messaging.ts';
import { users } from '../db/schema/users.ts';
import { enqueueMail, drainOutbox, drainOutboxPass, SENT_BODY } from './outbox.ts';
import type { Mailer } from './mailer.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

describe(`mail outbox (${DB_KIND})`, () => {
  it('sends each queued mail once, then keeps only recipient and subject, not the body', async () => {
    await enqueueMail(t.database.db, { to: 'reset.me@example.com', subject: 'Reset your password', text: 'https://college.example/reset-password#secret-token' });
    expect(await drainOutbox(t.database.db, t.mailer)).toBe(1);
    expect(await drainOutbox(t.database.db, t.mailer)).toBe(0);
    expect(t.mailer.sent.filter((m) => m.to === 'reset.me@example.com')).toHaveLength(1);
    expect(t.mailer.sent.find((m) => m.to === 'reset.me@example.com')!.text).toContain('secret-token');
    const [row] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'reset.me@example.com'));
    expect(row).toMatchObject({ status: 'sent', subject: 'Reset your password', text: SENT_BODY });
  });

  it('a failed send stays queued with its body for a retry', async () => {
    const failing: Mailer = { send: async () => { throw new Error('SMTP down'); } };
    await enqueueMail(t.database.db, { to: 'retry@example.com', subject: 'Hello', text: 'body kept' });
    expect(await drainOutbox(t.database.db, failing)).toBe(0);
    const [row] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'retry@example.com'));
    expect(row).toMatchObject({ status: 'pending', text: 'body kept', lastError: 'SMTP down' });
  });

  it('a password-reset mail queued after an announcement to 100 students goes out in the first batch; every mail still once', async () => {
    const student = await signUpStudent(t);
    while (await drainOutbox(t.database.db, t.mailer, 100) > 0) { /* the verification mail and whatever earlier tests left */ }
    const tag = `bulk${Date.now()}`;
    await t.database.db.insert(users).values(Array.from({ length: 100 }, (_, i) => ({
      email: `${tag}.${i}@example.com`, passwordHash: 'x', firstName: 'Student', lastName: String(i), role: 'student' as const })));
    const admin = await signInAdmin(t);
    const created = await admin.agent.post('/api/announcements').send({ title: 'Open day on Saturday', content: 'Campuses are open from 09:00 to 14:00.', sendEmail: true });
    expect(created.status).toBe(201);
    expect(created.body.emailed).toBeGreaterThanOrEqual(101);
    expect((await t.request().post('/api/auth/reset-password').send({ email: student.email })).status).toBe(200);

    const before = t.mailer.sent.length;
    expect(await drainOutbox(t.database.db, t.mailer)).toBe(20);
    const firstBatch = t.mailer.sent.slice(before);
    expect(firstBatch[0]).toMatchObject({ to: student.email.toLowerCase() });
    expect(firstBatch[0]!.subject).not.toMatch(/^Announcement/);
    expect(firstBatch.slice(1).every((m) => m.subject === 'Announcement: Open day on Saturday')).toBe(true);

    // One worker pass drains the rest of the backlog (full batches go on), each mail exactly once.
    expect(await drainOutboxPass(t.database.db, t.mailer)).toBe(created.body.emailed - 19);
    const announced = t.mailer.sent.slice(before).filter((m) => m.subject === 'Announcement: Open day on Saturday').map((m) => m.to);
    expect(announced).toHaveLength(created.body.emailed);
    expect(new Set(announced).size).toBe(announced.length);
  });
});
