/**
 * The SMTP transport as a receiving mail server sees it (deliverability audit): the envelope sender bounces go to and
 * the Auto-Submitted header (#7), DKIM signatures (#5), and how many connections a burst of mail opens (#6).
 * A local smtp-server stands in for the relay.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { fileMailer, smtpMailer } from './mailer.ts';

const FROM = '"Vhembe Skills College Admissions" <admissions@vhembe.ac.za>';
const dirs: string[] = [];
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

/** What the stub relay saw: each message's envelope sender, recipients and raw data, and the connections opened and still open. */
interface Sink { url: string; messages: { mailFrom: string; rcptTo: string[]; raw: Buffer }[]; connections: number; open: number; closed: Promise<void>[]; stop(): Promise<void> }

/** A local SMTP server on 127.0.0.1 (no TLS, no auth) that keeps what it receives. */
async function smtpSink(): Promise<Sink> {
  const sink = { messages: [], connections: 0, open: 0, closed: [] } as unknown as Sink;
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
    onConnect(_session, done) { sink.connections++; sink.open++; done(); },
    onClose() { sink.open--; },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        sink.messages.push({ mailFrom: String(session.envelope.mailFrom && session.envelope.mailFrom.address), rcptTo: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks) });
        done();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = ((server as unknown as { server: net.Server }).server.address() as net.AddressInfo).port;
  sink.url = `smtp://127.0.0.1:${port}`;
  sink.stop = () => new Promise<void>((r) => server.close(() => r()));
  return sink;
}

describe('bounces and auto-responders (audit #7)', () => {
  it('MAIL_BOUNCE_ADDRESS is the envelope sender (Return-Path), From stays MAIL_FROM; every mail says Auto-Submitted: auto-generated', async () => {
    const sink = await smtpSink();
    try {
      const mailer = smtpMailer(sink.url, FROM, { bounceAddress: 'bounces@vhembe.ac.za' });
      await mailer.send({ to: 'thandi@example.com', subject: 'APP-12: Payment Pending', text: 'Dear Thandi,' });
      expect(sink.messages).toHaveLength(1);
      const [m] = sink.messages;
      expect(m!.mailFrom).toBe('bounces@vhembe.ac.za');
      expect(m!.rcptTo).toEqual(['thandi@example.com']);
      const parsed = await simpleParser(m!.raw);
      expect(parsed.from?.value[0]?.address).toBe('admissions@vhembe.ac.za');
      expect(parsed.headers.get('auto-submitted')).toBe('auto-generated');

      // Without a bounce address the envelope sender is the From address, as before.
      await smtpMailer(sink.url, FROM).send({ to: 'thandi@example.com', subject: 'x', text: 'y' });
      expect(sink.messages[1]!.mailFrom).toBe('admissions@vhembe.ac.za');
      expect((await simpleParser(sink.messages[1]!.raw)).headers.get('auto-submitted')).toBe('auto-generated');
    } finally { await sink.stop(); }
  });

  it('the file driver\'s .eml files say Auto-Submitted: auto-generated too', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'college-transport-')); dirs.push(dir);
    await fileMailer(dir, FROM).send({ to: 'thandi@example.com', subject: 'x', text: 'y' });
    const [file] = fs.readdirSync(dir).filter((f) => f.endsWith('.eml'));
    expect((await simpleParser(fs.readFileSync(path.join(dir, file!)))).headers.get('auto-submitted')).toBe('auto-generated');
  });
});
