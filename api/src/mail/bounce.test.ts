import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { and, eq, inArray } from 'drizzle-orm';
import { startTestApp, signInAdmin, signUpStudent, DB_KIND, type TestApp } from '../test/harness.ts';
import { mailOutbox } from '../db/schema/messaging.ts';
import { users } from '../db/schema/users.ts';
import { drainOutbox, enqueueMail, isRecipientRejected } from './outbox.ts';
import { smtpMailer, type Mailer } from './mailer.ts';
import { markEmailVerified } from '../features/auth/email-verifications.repo.ts';
import { afterAnswerSettled } from '../features/auth/after-answer.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInAdmin>>;
let gone: Awaited<ReturnType<typeof signUpStudent>>, busy: Awaited<ReturnType<typeof signUpStudent>>;
beforeAll(async () => {
  t = await startTestApp();
  admin = await signInAdmin(t);
  gone = await signUpStudent(t);
  busy = await signUpStudent(t);
  await t.database.db.update(users).set({ emailVerifiedAt: new Date() }).where(inArray(users.id, [gone.user.id, busy.user.id]));
});
afterAll(async () => { await t.close(); });

/** A relay that refuses `gone` for good (550 on RCPT TO), `busy` for now (451), and takes everything else. */
const relay: Mailer = {
  send: async (m) => {
    if (m.to === gone.email) throw Object.assign(new Error("Can't send mail - all recipients were rejected: 550 5.1.1 User unknown"), { code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO' });
    if (m.to === busy.email) throw Object.assign(new Error("Can't send mail - all recipients were rejected: 451 4.3.0 Try again later"), { code: 'EENVELOPE', responseCode: 451, command: 'RCPT TO' });
  },
};
const rowsTo = (to: string, subject: string) => t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, to), eq(mailOutbox.subject, subject)));
const announce = async (title: string) => {
  const res = await admin.agent.post('/api/announcements').send({ title, content: 'Visit any campus on Saturday from 9:00.', imageUrl: '', sendEmail: true });
  expect(res.status).toBe(201);
  return res.body.emailed as number;
};

describe(`mail outbox: hard bounces (${DB_KIND})`, () => {
  it('a 550 on RCPT fails the row after one try and the next announcement skips the address; a 451 is retried; transactional mail still tries it', async () => {
    expect(await announce('Open day')).toBe(2);
    while (await drainOutbox(t.database.db, relay, 100) > 0) { /* every due mail */ }
    const [hard] = await rowsTo(gone.email, 'Announcement: Open day');
    expect(hard).toMatchObject({ status: 'failed', attempts: 1 });
    expect(hard!.lastError).toContain('550 5.1.1');
    const [soft] = await rowsTo(busy.email, 'Announcement: Open day');
    expect(soft).toMatchObject({ status: 'pending', attempts: 1 });
    const [u] = await t.database.db.select().from(users).where(eq(users.id, gone.user.id));
    expect(u!.emailBouncedAt).not.toBeNull();

    expect(await announce('Exam week')).toBe(1);
    expect(await rowsTo(gone.email, 'Announcement: Exam week')).toEqual([]);
    expect(await rowsTo(busy.email, 'Announcement: Exam week')).toHaveLength(1);

    // The person may have fixed the mailbox: mail about their own account is still queued for it.
    await t.request().post('/api/auth/reset-password').send({ email: gone.email });
    await afterAnswerSettled(); // the link is queued after the answer (features/auth/after-answer.ts)
    expect(await rowsTo(gone.email, 'Reset your password')).toHaveLength(1);
  });

  it('proving the mailbox again (a verification link) clears the bounce: announcements reach it again', async () => {
    expect(await markEmailVerified(t.database.db, gone.user.id, gone.email, new Date())).toBe(true);
    expect(await announce('Sports day')).toBe(2);
  });

  it('only a refusal of the recipient counts: not 4xx, not the sender, not authentication or the connection, not DATA', () => {
    expect(isRecipientRejected({ code: 'EENVELOPE', responseCode: 550 })).toBe(true);
    expect(isRecipientRejected({ code: 'EENVELOPE', responseCode: 552, command: 'RCPT TO' })).toBe(true);
    expect(isRecipientRejected({ code: 'EPROTOCOL', responseCode: 553, command: 'RCPT TO' })).toBe(true);
    expect(isRecipientRejected({ code: 'EENVELOPE', responseCode: 451, command: 'RCPT TO' })).toBe(false);
    expect(isRecipientRejected({ code: 'EENVELOPE', responseCode: 550, command: 'MAIL FROM' })).toBe(false);
    expect(isRecipientRejected({ code: 'EAUTH', responseCode: 535, command: 'AUTH PLAIN' })).toBe(false);
    expect(isRecipientRejected({ code: 'ECONNECTION', responseCode: 554, command: 'CONN' })).toBe(false);
    expect(isRecipientRejected({ code: 'EMESSAGE', responseCode: 550, command: 'DATA' })).toBe(false);
    expect(isRecipientRejected(new Error('SMTP down'))).toBe(false);
  });

  it('over real SMTP: a relay answering 550 to RCPT TO is a hard bounce and 451 is not; a bulk row arrives with its list headers', async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true, disabledCommands: ['STARTTLS'],
      onRcptTo(addr, _s, done) {
        if (addr.address.startsWith('gone')) return done(Object.assign(new Error('5.1.1 User unknown'), { responseCode: 550 }));
        if (addr.address.startsWith('busy')) return done(Object.assign(new Error('4.3.0 Try again later'), { responseCode: 451 }));
        done();
      },
      onData(stream, _s, done) { const c: Buffer[] = []; stream.on('data', (b: Buffer) => c.push(b)); stream.on('end', () => { received.push(Buffer.concat(c).toString()); done(); }); },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const port = ((server as unknown as { server: net.Server }).server.address() as net.AddressInfo).port;
      const mailer = smtpMailer(`smtp://127.0.0.1:${port}`, t.config.MAIL_FROM);
      const refusal = async (to: string) => mailer.send({ to, subject: 's', text: 't' }).then(() => null, (e: unknown) => e);
      expect(isRecipientRejected(await refusal('gone@example.org'))).toBe(true);
      expect(isRecipientRejected(await refusal('busy@example.org'))).toBe(false);

      const to = `list.${Date.now()}@example.org`;
      await enqueueMail(t.database.db, { to, subject: 'Announcement: SMTP', text: 'x', list: { unsubscribeUrl: 'https://apply.college.example/api/mail/unsubscribe?token=1.abc', listId: 'announcements.apply.college.example', listName: 'College announcements' } }, { bulk: true });
      while (await drainOutbox(t.database.db, mailer, 100) > 0) { /* every due mail */ }
      const raw = received.find((m) => m.includes('Announcement: SMTP'))!.replace(/\r?\n[ \t]+/g, ' ');
      expect(raw).toMatch(/^List-Unsubscribe: <https:\/\/apply\.college\.example\/api\/mail\/unsubscribe\?token=1\.abc>\r?$/m);
      expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
      expect(raw).toMatch(/^List-ID: .*<announcements\.apply\.college\.example>\r?$/mi);
      expect(raw).toMatch(/^Precedence: bulk\r?$/m);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
