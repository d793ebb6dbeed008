/**
 * What a failed SMS gateway call leaves behind (security review, SMS gateway errors): sms_outbox.last_error and the
 * log lines hold the status and a plain title, never what the gateway echoed (the recipient, a body with a
 * set-password link), an HTML error page, or credentials from SMS_API_URL; the configuration refuses such a URL.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { startTestApp, signUpStudent, DB_KIND, type TestApp } from '../test/harness.ts';
import { smsOutbox } from '../db/schema/messaging.ts';
import { drainSmsOutbox, queueSms, resumeSms } from './sms-outbox.ts';
import { bulkSmsDriver, type SmsMessage } from './sms-drivers.ts';
import { ConfigError, loadConfig } from '../config.ts';

/** A gateway answering every request with `answer(rawBody)`: status, content type and text. */
interface Gateway { url: string; port: number; answer: (raw: string) => { status: number; type: string; text: string }; close(): Promise<void> }

let gw: Gateway;
let t: TestApp;
beforeAll(async () => {
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => { raw += d; });
    req.on('end', () => {
      const a = gw.answer(raw);
      res.writeHead(a.status, { 'content-type': a.type });
      res.end(a.text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  gw = {
    url: `http://127.0.0.1:${port}/v1`, port, answer: () => ({ status: 500, type: 'text/plain', text: '' }),
    close: () => new Promise((r) => { server.close(() => r()); server.closeAllConnections(); }),
  };
  t = await startTestApp({ PUBLIC_URL: 'https://vsc.example' });
});
afterAll(async () => { await gw.close(); await t.close(); });

const LINK = 'VSC: APP-1 set your password https://vsc.example/r#token=abcdefghijklmnop';
const MSG: SmsMessage = { to: '+27825550101', body: LINK };
/** The problem+json answer of a gateway that echoes the request in `detail`. */
const echo400 = (raw: string) => ({ status: 400, type: 'application/problem+json', text: JSON.stringify({ type: 'about:blank', title: 'Bad request', status: 400, detail: `Invalid recipient in ${raw}` }) });
/** A proxy's HTML error page that quotes the request. */
const html502 = (raw: string) => ({ status: 502, type: 'text/html', text: `<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><pre>${raw}</pre></body></html>` });

/** The message of the error `run` rejects with. */
async function failure(run: () => Promise<unknown>): Promise<string> {
  try { await run(); } catch (err) { return String((err as Error).message); }
  throw new Error('expected a failure');
}

describe('SMS gateway errors keep only the status and a plain title', () => {
  const driver = () => bulkSmsDriver({ baseUrl: gw.url, username: 'token-id', password: 'token-secret', timeoutMs: 2000 });

  it('a 400 whose detail echoes the request: "BulkSMS 400 Bad request", without the recipient or the link', async () => {
    gw.answer = echo400;
    expect(await failure(() => driver().send(MSG))).toBe('BulkSMS 400 Bad request');
  });

  it('a 502 HTML page: "BulkSMS 502 Bad Gateway", not the page', async () => {
    gw.answer = html502;
    expect(await failure(() => driver().send(MSG))).toBe('BulkSMS 502 Bad Gateway');
  });

  it('a problem+json title that is not a plain phrase gives way to the status\'s standard reason', async () => {
    gw.answer = (raw) => ({ status: 422, type: 'application/problem+json', text: JSON.stringify({ title: `Refused ${raw}`, status: 422 }) });
    expect(await failure(() => driver().send(MSG))).toBe('BulkSMS 422 Unprocessable Entity');
  });

  it('credentials in the gateway URL never reach an error message', async () => {
    gw.answer = () => ({ status: 201, type: 'application/json', text: '[{"id":"1","to":"27825550101","status":{"type":"ACCEPTED"}}]' });
    const message = await failure(async () => bulkSmsDriver({ baseUrl: `http://tokenid:S3cret@127.0.0.1:${gw.port}/v1`, username: 'token-id', password: 'token-secret' }).send(MSG));
    expect(message).not.toContain('S3cret');
    expect(message).toMatch(/SMS_USERNAME/);
  });

  it('an unreachable gateway names the error code only', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const message = await failure(() => bulkSmsDriver({ baseUrl: `http://127.0.0.1:${port}/v1`, username: 'a', password: 'b', timeoutMs: 2000 }).send(MSG));
    expect(message).toBe('BulkSMS unreachable: ECONNREFUSED');
  });
});

describe(`SMS outbox: what last_error and the logs keep of a gateway's answer (${DB_KIND})`, () => {
  it('a walk-in SMS with a set-password link refused with an echo (400), then a 502 page: neither the link nor the number is stored or logged', async () => {
    await t.database.db.execute(sql`UPDATE sms_outbox SET status = 'skipped' WHERE status = 'pending'`);
    const s = await signUpStudent(t, { phone: '0825550102' });
    const queued = await queueSms(t.database.db, { userId: s.user.id, kind: 'receipt', body: LINK });
    expect(queued.queued).toBe(true);
    const id = (queued as { id: number }).id;
    const driver = bulkSmsDriver({ baseUrl: gw.url, username: 'token-id', password: 'token-secret', timeoutMs: 2000 });
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    try {
      gw.answer = html502;
      expect(await drainSmsOutbox(t.database.db, driver)).toBe(0);
      const [paused] = await t.database.db.select().from(smsOutbox).where(eq(smsOutbox.id, id));
      expect(paused).toMatchObject({ status: 'pending', lastError: 'BulkSMS 502 Bad Gateway' });
      resumeSms(driver);
      await t.database.db.execute(sql`UPDATE sms_outbox SET locked_until = NULL WHERE id = ${id}`);
      gw.answer = echo400;
      expect(await drainSmsOutbox(t.database.db, driver)).toBe(0);
      const [failed] = await t.database.db.select().from(smsOutbox).where(eq(smsOutbox.id, id));
      expect(failed).toMatchObject({ status: 'failed', lastError: 'BulkSMS 400 Bad request' });
      const logged = [...warn.mock.calls, ...error.mock.calls].map((c) => c.map(String).join(' ')).join('\n');
      expect(logged).toContain('BulkSMS 502 Bad Gateway');
      expect(logged).toContain('BulkSMS 400 Bad request');
      for (const secret of ['token=', 'abcdefghijklmnop', '825550102', '<html', '<number>']) expect(logged).not.toContain(secret);
    } finally { warn.mockRestore(); error.mockRestore(); }
  });
});

describe('SMS_API_URL in the configuration', () => {
  const production = { NODE_ENV: 'production', SESSION_SECRET: 'production-secret-0123456789', PUBLIC_URL: 'https://apply.vhembe.ac.za', MAIL_FROM: '"Vhembe Admissions" <admissions@vhembe.ac.za>' };
  const http_ = { SMS_DRIVER: 'http', SMS_USERNAME: 'token-id', SMS_PASSWORD: 'token-secret' };

  it('refuses credentials in the URL, naming SMS_USERNAME and SMS_PASSWORD and not quoting the secret', () => {
    let err: unknown;
    try { loadConfig({ ...http_, SMS_API_URL: 'http://tokenid:S3cret@sms.example/v1' }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/SMS_USERNAME and SMS_PASSWORD/);
    expect((err as Error).message).not.toContain('S3cret');
  });

  it('plain http to a host other than loopback: refused in production, a warning elsewhere; a localhost stub passes quietly', () => {
    expect(() => loadConfig({ ...production, ...http_, SMS_API_URL: 'http://sms.example/v1' })).toThrow(/SMS_API_URL must be an https:\/\/ address in production/);
    expect(loadConfig({ ...production, ...http_, SMS_API_URL: 'https://api.bulksms.com/v1' }).SMS_API_URL).toBe('https://api.bulksms.com/v1');
    const warn = vi.spyOn(console, 'warn');
    try {
      expect(loadConfig({ ...http_, SMS_API_URL: 'http://sms.example/v1' }).SMS_API_URL).toBe('http://sms.example/v1');
      expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringMatching(/SMS_API_URL is plain http to http:\/\/sms\.example/)]);
      warn.mockClear();
      loadConfig({ ...production, ...http_, SMS_API_URL: 'http://127.0.0.1:9/v1' });
      loadConfig({ ...http_, SMS_API_URL: 'http://localhost:9/v1' });
      expect(warn).not.toHaveBeenCalled();
    } finally { warn.mockRestore(); }
  });
});
