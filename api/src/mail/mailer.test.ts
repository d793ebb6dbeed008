/**
 * The mail transports as an operator meets them (operations audit): the start-up SMTP check, a relay that hangs,
 * and a disk that fills up while `.eml` files are written.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { fileMailer, smtpMailer } from './mailer.ts';
import { fileSmsDriver } from '../sms/sms-drivers.ts';

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

/** A full disk: each write creates its file, writes nothing and fails with ENOSPC (as the audit saw it). */
function fullDisk() {
  return vi.spyOn(fs.promises, 'writeFile').mockImplementation(async (file) => {
    fs.writeFileSync(String(file), '');
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  });
}

describe('file outboxes on a full disk', () => {
  it('fileMailer leaves no .eml file (in file mode an .eml file IS a delivered mail) and rejects, so the outbox retries', async () => {
    const dir = tmpDir();
    const mailer = fileMailer(dir, 'Admissions <admissions@college.example>');
    const spy = fullDisk();
    try {
      await expect(mailer.send({ to: 'a@example.com', subject: 'Receipt', text: 'x' })).rejects.toMatchObject({ code: 'ENOSPC' });
    } finally { spy.mockRestore(); }
    expect(fs.readdirSync(dir)).toEqual([]);
    await mailer.send({ to: 'a@example.com', subject: 'Receipt', text: 'x' });
    const files = fs.readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    expect(fs.statSync(path.join(dir, files[0]!)).size).toBeGreaterThan(0);
  });

  it('fileSmsDriver leaves no partial file behind and rejects', async () => {
    const dir = tmpDir();
    const driver = fileSmsDriver(dir);
    const spy = fullDisk();
    try {
      await expect(driver.send({ to: '+27821234567', body: 'Hello', queuedId: 1 })).rejects.toMatchObject({ code: 'ENOSPC' });
    } finally { spy.mockRestore(); }
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
