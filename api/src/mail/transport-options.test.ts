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
import { smtpSettings, smtpTransportOptions } from './transport-options.ts';
import { loadConfig } from '../config.ts';
import { startServer } from '../server.ts';

const FROM = '"Vhembe Skills College Admissions" <admissions@vhembe.ac.za>';
const dirs: string[] = [];
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

/** What the stub relay saw: each message's envelope sender, recipients and raw data, and the connections opened and still open. */
interface Sink {
  url: string; messages: { mailFrom: string; rcptTo: string[]; raw: Buffer }[]; connections: number; open: number;
  /** Resolves once no connection is open (at once if none is). */
  allClosed(): Promise<void>;
  /** Resolves once a message has arrived. */
  firstMessage(): Promise<void>;
  stop(): Promise<void>;
}

/** A local SMTP server on 127.0.0.1 (no TLS, no auth) that keeps what it receives. */
async function smtpSink(): Promise<Sink> {
  const sink = { messages: [], connections: 0, open: 0 } as unknown as Sink;
  const waiters: (() => void)[] = [];
  const received: (() => void)[] = [];
  sink.allClosed = () => new Promise<void>((r) => { if (sink.open === 0) r(); else waiters.push(r); });
  sink.firstMessage = () => new Promise<void>((r) => { if (sink.messages.length) r(); else received.push(r); });
  const server = new SMTPServer({
    // socketTimeout: the sink itself never drops an idle connection (its default is 60 s), so a test sees who closes it.
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false, socketTimeout: 600_000,
    onConnect(_session, done) { sink.connections++; sink.open++; done(); },
    onClose() { sink.open--; if (sink.open === 0) for (const w of waiters.splice(0)) w(); },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        sink.messages.push({ mailFrom: String(session.envelope.mailFrom && session.envelope.mailFrom.address), rcptTo: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks) });
        done();
        for (const w of received.splice(0)) w();
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
      await mailer.close?.();
      expect(sink.messages).toHaveLength(1);
      const [m] = sink.messages;
      expect(m!.mailFrom).toBe('bounces@vhembe.ac.za');
      expect(m!.rcptTo).toEqual(['thandi@example.com']);
      const parsed = await simpleParser(m!.raw);
      expect(parsed.from?.value[0]?.address).toBe('admissions@vhembe.ac.za');
      expect(parsed.headers.get('auto-submitted')).toBe('auto-generated');

      // Without a bounce address the envelope sender is the From address, as before.
      const plain = smtpMailer(sink.url, FROM);
      await plain.send({ to: 'thandi@example.com', subject: 'x', text: 'y' });
      await plain.close?.();
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
        const mailer = smtpMailer(sink.url, FROM, smtpSettings(config));
        await mailer.send({ to: 'thandi@example.com', subject: 'APP-12: Accepted', text: 'Dear Thandi,\n\nCongratulations.' });
        await mailer.close?.();
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
      const mailer = smtpMailer(sink.url, FROM, smtpSettings(loadConfig({})));
      await mailer.send({ to: 'thandi@example.com', subject: 'x', text: 'y' });
      await mailer.close?.();
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

describe('connection pool (audit #6)', () => {
  it('20 mails at once open at most 2 connections (was 20), all 20 arrive; one after another (as the outbox sends) they share 1', async () => {
    const sink = await smtpSink();
    const mailer = smtpMailer(sink.url, FROM, smtpSettings(loadConfig({})));
    try {
      await Promise.all(Array.from({ length: 20 }, (_, i) => mailer.send({ to: `student${i}@example.com`, subject: 'Open day', text: `Mail ${i}` })));
      expect(sink.messages.map((m) => m.rcptTo[0]).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `student${i}@example.com`).sort());
      expect(sink.connections).toBeLessThanOrEqual(2);
    } finally { await mailer.close?.(); await sink.allClosed(); await sink.stop(); }

    const serial = await smtpSink();
    const one = smtpMailer(serial.url, FROM, {});
    try {
      for (let i = 0; i < 20; i++) await one.send({ to: `student${i}@example.com`, subject: 'Open day', text: `Mail ${i}` });
      expect(serial.messages).toHaveLength(20);
      expect(serial.connections).toBe(1);
    } finally { await one.close?.(); await serial.allClosed(); await serial.stop(); }
  });

  it('close() ends the pooled connections at once (else they stay open until the idle timeout, 10 s here)', async () => {
    const sink = await smtpSink();
    const mailer = smtpMailer(sink.url, FROM, { timeoutMs: 20_000 });
    try {
      await mailer.send({ to: 'thandi@example.com', subject: 'x', text: 'y' });
      expect(sink.open).toBe(1);
      await mailer.close!();
      await sink.allClosed(); // the test's 5 s timeout fails this if close() does not end the connection
      expect(sink.open).toBe(0);
    } finally { await sink.stop(); }
  });

  it('SMTP_MAX_CONNECTIONS, SMTP_MAX_MESSAGES and SMTP_RATE_PER_MINUTE become nodemailer\'s maxConnections, maxMessages and rateLimit per 60 s', () => {
    const defaults = smtpTransportOptions('smtp://relay:587', FROM, smtpSettings(loadConfig({}))).transport;
    expect(defaults).toMatchObject({ pool: true, maxConnections: 2, maxMessages: 100, socketTimeout: 20_000 });
    expect(defaults.rateLimit).toBeUndefined();
    const set = smtpTransportOptions('smtp://relay:587', FROM, smtpSettings(loadConfig({ SMTP_MAX_CONNECTIONS: '4', SMTP_MAX_MESSAGES: '50', SMTP_RATE_PER_MINUTE: '120' }))).transport;
    expect(set).toMatchObject({ pool: true, maxConnections: 4, maxMessages: 50, rateDelta: 60_000, rateLimit: 120 });
    expect(() => loadConfig({ SMTP_MAX_CONNECTIONS: '0' })).toThrow(/SMTP_MAX_CONNECTIONS/);
    expect(() => loadConfig({ SMTP_RATE_PER_MINUTE: 'fast' })).toThrow(/SMTP_RATE_PER_MINUTE/);
  });

  it('a stopping server closes its SMTP connections after the mail worker (server.ts close())', async () => {
    const sink = await smtpSink();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'college-transport-server-')); dirs.push(dataDir);
    const node = await startServer({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SITE_BUILD: 'never', SESSION_SECRET: 'transport-test-secret-0123456789', SMTP_URL: sink.url, SMTP_TIMEOUT_MS: '600000', DATABASE_URL: '' });
    try {
      const res = await fetch(`${node.url}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json', origin: node.url }, body: JSON.stringify({ firstName: 'Lufuno', lastName: 'Ndou', email: 'lufuno@example.com', message: 'When does the next intake start?' }) });
      expect(res.status).toBe(201);
      await sink.firstMessage();
      expect((await simpleParser(sink.messages[0]!.raw)).headers.get('auto-submitted')).toBe('auto-generated');
    } finally { await node.close(); }
    await sink.allClosed(); // without the close, a pooled connection stays open for the idle timeout (300 s): the test times out
    expect(sink.open).toBe(0);
    await sink.stop();
  }, 120_000);
});
