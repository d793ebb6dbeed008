/**
 * DATA_DIR and what the server writes there are private to the server's user (security audit F1: a new DATA_DIR was
 * 0755 with most pgdata files 0666, `npm run backup` wrote a 0644 archive with the password hashes, and the outbox
 * files holding reset and set-password links were world-readable).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ensureWritableDataDir } from '../startup-checks.ts';
import { ensurePrivateDir } from './private-dir.ts';
import { openDatabase } from './client.ts';
import { createBackup, restoreBackup } from './backup.ts';
import { loadConfig } from '../config.ts';
import { fileMailer } from '../mail/mailer.ts';
import { fileSmsDriver } from '../sms/sms-drivers.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'college-private-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const openToOthers = (p: string) => fs.statSync(p).mode & 0o077;

describe('DATA_DIR is private to the server user', () => {
  it('start-up creates a new DATA_DIR 0700, and tightens an existing 0755 one with one line saying so', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const fresh = path.join(root, 'fresh');
      ensureWritableDataDir(fresh);
      expect(openToOthers(fresh)).toBe(0);
      expect(warn).not.toHaveBeenCalled();

      const old = path.join(root, 'old');
      fs.mkdirSync(old);
      fs.chmodSync(old, 0o755);
      ensureWritableDataDir(old);
      expect(openToOthers(old)).toBe(0);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).toContain(`${old} was mode 0755 (open to other local users); changed to 0700`);
    } finally { warn.mockRestore(); }
  });

  it.skipIf(!!process.env.DATABASE_URL)('the embedded database folder, a backup archive and a restored folder are closed to other users', async () => {
    const dataDir = path.join(root, 'college');
    const db = await openDatabase({ dataDir });
    await db.close();
    expect(openToOthers(dataDir)).toBe(0);

    const archive = path.join(root, 'college.tgz');
    await createBackup({ ...loadConfig(), DATABASE_URL: undefined, dataDir } as any, archive);
    expect(openToOthers(archive)).toBe(0);

    const target = path.join(root, 'restored');
    await restoreBackup(archive, target);
    expect(openToOthers(target)).toBe(0);

    // An existing empty target made by someone with umask 022 is tightened too.
    const existing = path.join(root, 'restored-existing');
    fs.mkdirSync(existing, { mode: 0o755 });
    fs.chmodSync(existing, 0o755);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try { await restoreBackup(archive, existing); } finally { warn.mockRestore(); }
    expect(openToOthers(existing)).toBe(0);
  }, 300_000);

  it('the file mailer and the file SMS driver write their messages 0600 in 0700 folders', async () => {
    const outbox = path.join(root, 'outbox');
    await fileMailer(outbox, 'college@example.com').send({ to: 'a@example.com', subject: 'Reset', text: 'https://college.example/reset-password#token=x' });
    expect(openToOthers(outbox)).toBe(0);
    for (const name of fs.readdirSync(outbox)) expect(openToOthers(path.join(outbox, name)), name).toBe(0);

    const smsOutbox = path.join(root, 'sms-outbox');
    await fileSmsDriver(smsOutbox).send({ to: '+27821234567', body: 'Set your password: https://college.example/r#token=x' } as any);
    expect(openToOthers(smsOutbox)).toBe(0);
    for (const name of fs.readdirSync(smsOutbox)) expect(openToOthers(path.join(smsOutbox, name)), name).toBe(0);
  });
  it('a shared folder (sticky bit, like /tmp) is never tightened: it stays 1777 and the line says to use a dedicated folder', () => {
    const shared = path.join(root, 'shared-tmp');
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o1777);
    const lines: string[] = [];
    ensurePrivateDir(shared, (line) => lines.push(line));
    expect((fs.statSync(shared).mode & 0o7777).toString(8)).toBe('1777');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('dedicated folder');
    // The system's own shared folders are left alone too, whatever their mode.
    const tmpModeBefore = fs.statSync(os.tmpdir()).mode;
    ensurePrivateDir(os.tmpdir(), () => {});
    expect(fs.statSync(os.tmpdir()).mode).toBe(tmpModeBefore);
  });
});
