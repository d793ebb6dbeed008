/**
 * The SMTP transport as a receiving mail server sees it (deliverability audit): the envelope sender bounces go to and
 * the Auto-Submitted header (#7), DKIM signatures (#5), and how many connections a burst of mail opens (#6).
 * A local smtp-server stands in for the relay.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { fileMailer, smtpMailer } from './mailer.ts';
import { smtpSettings } from './transport-options.ts';
import { loadConfig } from '../config.ts';

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

/** The data a DKIM signature covers (RFC 6376 §3.4.2 relaxed header canonicalisation, §3.7): the `h=` headers, then the DKIM-Signature header with `b=` empty. */
function signedHeaders(raw: string, dkimHeader: string): string {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n') + 2);
  const fields = head.split(/\r\n(?![ \t])/).filter(Boolean);
  const relaxed = (name: string, value: string) => `${name.toLowerCase().trim()}:${value.replace(/\r\n/g, '').replace(/[ \t]+/g, ' ').trim()}`;
  const names = /\bh=([^;]+)/.exec(dkimHeader)![1]!.replace(/\s/g, '').split(':');
  const lines = names.map((n) => fields.find((f) => f.slice(0, f.indexOf(':')).trim().toLowerCase() === n.toLowerCase())).filter(Boolean)
    .map((f) => relaxed(f!.slice(0, f!.indexOf(':')), f!.slice(f!.indexOf(':') + 1)) + '\r\n');
  return lines.join('') + relaxed('DKIM-Signature', dkimHeader.replace(/\bb=[^;]+$/, 'b='));
}

describe('DKIM signing (audit #5)', () => {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

  it('with MAIL_DKIM_DOMAIN, MAIL_DKIM_SELECTOR and the key (inline, or a file), the relay receives DKIM-Signature d=<domain>; s=<selector> that verifies against the public key (RFC 6376 relaxed/relaxed)', async () => {
    const keyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'college-dkim-')), 'dkim.pem'); dirs.push(path.dirname(keyFile));
    fs.writeFileSync(keyFile, pem, { mode: 0o600 });
    const sink = await smtpSink();
    try {
      for (const key of [{ MAIL_DKIM_PRIVATE_KEY: pem.replace(/\n/g, '\\n') }, { MAIL_DKIM_PRIVATE_KEY_FILE: keyFile }]) {
        const config = loadConfig({ MAIL_DKIM_DOMAIN: 'vhembe.ac.za', MAIL_DKIM_SELECTOR: 'portal2026', ...key });
        await smtpMailer(sink.url, FROM, smtpSettings(config)).send({ to: 'thandi@example.com', subject: 'APP-12: Accepted', text: 'Dear Thandi,\n\nCongratulations.' });
      }
      expect(sink.messages).toHaveLength(2);
      for (const m of sink.messages) {
        const raw = m.raw.toString();
        const header = /^DKIM-Signature:(.*(?:\r\n[ \t].*)*)/m.exec(raw)?.[1]?.replace(/\r\n[ \t]*/g, ' ');
        expect(header).toBeDefined();
        expect(header).toMatch(/\bd=vhembe\.ac\.za;/);
        expect(header).toMatch(/\bs=portal2026;/);
        // The body hash is what a receiver recomputes first (RFC 6376 §3.7, relaxed body canonicalisation).
        const body = raw.slice(raw.indexOf('\r\n\r\n') + 4).replace(/[ \t]+\r\n/g, '\r\n').replace(/[ \t]+/g, ' ').replace(/(\r\n)*$/, '\r\n');
        expect(/\bbh=([^;]+)/.exec(header!)?.[1]?.replace(/\s/g, '')).toBe(crypto.createHash('sha256').update(body).digest('base64'));
        expect(header).toMatch(/\bc=relaxed\/relaxed;/);
        expect(crypto.verify('sha256', Buffer.from(signedHeaders(raw, header!)), publicKey, Buffer.from(/\bb=([^;]+)\s*$/.exec(header!)![1]!.replace(/\s/g, ''), 'base64')), 'signature').toBe(true);
      }
    } finally { await sink.stop(); }
  });

  it('without DKIM settings nothing is signed; a partial set, both key variables or a bad key is a ConfigError that never quotes the key', async () => {
    const sink = await smtpSink();
    try {
      await smtpMailer(sink.url, FROM, smtpSettings(loadConfig({}))).send({ to: 'thandi@example.com', subject: 'x', text: 'y' });
      expect(sink.messages[0]!.raw.toString()).not.toMatch(/^DKIM-Signature:/m);
    } finally { await sink.stop(); }
    expect(() => loadConfig({ MAIL_DKIM_DOMAIN: 'vhembe.ac.za', MAIL_DKIM_PRIVATE_KEY: pem })).toThrow(/all three of MAIL_DKIM_DOMAIN, MAIL_DKIM_SELECTOR and MAIL_DKIM_PRIVATE_KEY/);
    expect(() => loadConfig({ MAIL_DKIM_SELECTOR: 'portal2026' })).toThrow(/or none of them/);
    expect(() => loadConfig({ MAIL_DKIM_DOMAIN: 'vhembe.ac.za', MAIL_DKIM_SELECTOR: 'p', MAIL_DKIM_PRIVATE_KEY: pem, MAIL_DKIM_PRIVATE_KEY_FILE: '/x.pem' })).toThrow(/not both/);
    expect(() => loadConfig({ MAIL_DKIM_DOMAIN: 'vhembe.ac.za', MAIL_DKIM_SELECTOR: 'p', MAIL_DKIM_PRIVATE_KEY_FILE: '/nonexistent/dkim.pem' })).toThrow(/MAIL_DKIM_PRIVATE_KEY_FILE cannot be read \(ENOENT/);
    const broken = pem.slice(0, 200);
    let message = '';
    try { loadConfig({ MAIL_DKIM_DOMAIN: 'vhembe.ac.za', MAIL_DKIM_SELECTOR: 'p', MAIL_DKIM_PRIVATE_KEY: broken }); } catch (err) { message = (err as Error).message; }
    expect(message).toMatch(/MAIL_DKIM_PRIVATE_KEY is not a PEM private key/);
    expect(message).not.toContain(broken.split('\n')[1]!);
    // A loaded key is usable but not shown: not in JSON, console output or a spread copy of the configuration.
    const config = loadConfig({ MAIL_DKIM_DOMAIN: 'vhembe.ac.za', MAIL_DKIM_SELECTOR: 'p', MAIL_DKIM_PRIVATE_KEY: pem });
    expect(config.MAIL_DKIM_PRIVATE_KEY).toBe(pem);
    const keyLine = pem.split('\n')[1]!;
    expect(JSON.stringify(config)).not.toContain(keyLine);
    expect((await import('node:util')).inspect(config)).not.toContain(keyLine);
  });
});
