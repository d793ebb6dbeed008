/**
 * Reply-To on the office's copies (mail audit): the contact form's "Website message from …" and "New assessment booking
 * …" came from admissions@ with no Reply-To, so pressing Reply wrote to admissions@ itself. They now carry the
 * visitor's address as Reply-To (mail_outbox.reply_to, migration 0023), through the file and the SMTP transports;
 * mail to applicants has none.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { startTestApp, DB_KIND, type TestApp } from '../test/harness.ts';
import { deliveredMails, mailsTo } from '../test/mail.ts';
import { smtpMailer } from './mailer.ts';

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(`/tmp/college-reply-to-test-${process.pid}-`);
  t = await startTestApp({ DATA_DIR: dataDir });
});
afterAll(async () => { await t.close(); fs.rmSync(dataDir, { recursive: true, force: true }); });

/** A weekday 8–10 days from now, YYYY-MM-DD. */
function weekdaySoon(): string {
  const d = new Date(Date.now() + 8 * 86_400_000);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

describe(`Reply-To on the office's copies (${DB_KIND})`, () => {
  it('contact form and assessment booking › the office copy replies to the visitor; the visitor\'s acknowledgement has no Reply-To', async () => {
    const visitor = `reply.${crypto.randomUUID()}@example.com`;
    expect((await t.request().post('/api/contact').send({ firstName: 'Lufuno', lastName: 'Ndou', email: visitor, message: 'When does the next intake start?' })).status).toBe(201);
    expect((await t.request().post('/api/assessment-centre').send({
      firstName: 'Lufuno', lastName: 'Ndou', email: visitor, phone: '0821234567', dateOfBirth: '2004-05-06', idNumber: '0405065123086',
      preferredCampus: 'biaba', courseInterest: 'information-technology', assessmentType: 'combined', preferredDate: weekdaySoon(),
      preferredTime: 'morning', educationLevel: 'grade-12',
    })).status).toBe(201);
    const office = (await deliveredMails(t)).filter((m) => m.to === t.config.OFFICE_EMAIL && m.text.includes(visitor));
    expect(office.map((m) => m.subject).sort()).toEqual([expect.stringMatching(/^New assessment booking ASC-\d+: Lufuno Ndou$/), 'Website message from Lufuno Ndou']);
    for (const m of office) expect(m.parsed.replyTo?.value.map((v) => v.address), m.subject).toEqual([visitor]);
    const acks = await mailsTo(t, visitor);
    expect(acks).toHaveLength(2);
    for (const m of acks) expect(m.parsed.replyTo, m.subject).toBeUndefined();
  });

  it('SMTP transport › sends Reply-To', async () => {
    const received: Buffer[] = [];
    const server = new SMTPServer({
      authOptional: true, disabledCommands: ['STARTTLS'],
      onData(stream, _session, done) { const chunks: Buffer[] = []; stream.on('data', (c: Buffer) => chunks.push(c)); stream.on('end', () => { received.push(Buffer.concat(chunks)); done(); }); },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const port = ((server as unknown as { server: net.Server }).server.address() as net.AddressInfo).port;
      await smtpMailer(`smtp://127.0.0.1:${port}`, t.config.MAIL_FROM).send({ to: 'office@example.com', subject: 'x', text: 'y', replyTo: 'visitor@example.com' });
      const parsed = await simpleParser(received[0]!);
      expect(parsed.replyTo?.value.map((v) => v.address)).toEqual(['visitor@example.com']);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
