import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { OUTBOX_FILE_KEEP_MS, pruneOutboxFiles, removeOutboxFilesOf } from './outbox-files.ts';
import { fileMailer } from './mailer.ts';
import { fileSmsDriver } from '../sms/sms-drivers.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-files-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** Writes `name` in `dir` with its modification time `ageMs` ms ago. */
function fileAged(dir: string, name: string, ageMs: number): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, 'Set your password: https://college.example/r#token=x');
  const t = new Date(Date.now() - ageMs);
  fs.utimesSync(file, t, t);
  return file;
}

describe('file-driver outbox age limit (privacy audit F8)', () => {
  it('pruneOutboxFiles removes .eml and .json files older than 7 days, keeps newer ones and other files', async () => {
    const dir = path.join(root, 'prune');
    const old = [fileAged(dir, 'a.eml', OUTBOX_FILE_KEEP_MS + 60_000), fileAged(dir, 'b.json', 30 * 86_400_000)];
    const kept = [fileAged(dir, 'c.eml', OUTBOX_FILE_KEEP_MS - 60_000), fileAged(dir, 'notes.txt', 30 * 86_400_000)];
    expect(await pruneOutboxFiles(dir)).toBe(2);
    for (const f of old) expect(fs.existsSync(f)).toBe(false);
    for (const f of kept) expect(fs.existsSync(f)).toBe(true);
    expect(await pruneOutboxFiles(path.join(root, 'missing'))).toBe(0);
  });

  it('the file mailer and the file SMS driver remove their folder\'s files older than 7 days when they start', async () => {
    const mailDir = path.join(root, 'outbox');
    const smsDir = path.join(root, 'sms-outbox');
    const oldMail = fileAged(mailDir, '2026-01-01T00-00-00-000Z-000000001-aaaaaaaa.eml', 10 * 86_400_000);
    const newMail = fileAged(mailDir, 'fresh.eml', 1000);
    const oldSms = fileAged(smsDir, '1-1-aaaaaaaa.json', 10 * 86_400_000);
    fileMailer(mailDir, 'admissions@college.example');
    fileSmsDriver(smsDir);
    await vi.waitFor(() => { expect([fs.existsSync(oldMail), fs.existsSync(oldSms)]).toEqual([false, false]); });
    expect(fs.existsSync(newMail)).toBe(true);
  });
});

describe('file-driver outbox cleanup never follows a symlink (security review)', () => {
  it('a sms-outbox (or outbox) folder that is a symlink is skipped with one warning: the old files in its target stay', async () => {
    const target = path.join(root, 'elsewhere');
    const precious = [fileAged(target, 'settings.json', 30 * 86_400_000), fileAged(target, 'archive.eml', 30 * 86_400_000)];
    fs.writeFileSync(path.join(target, 'person.json'), JSON.stringify({ to: '+27825550199' }));
    const dataDir = path.join(root, 'linked-data');
    fs.mkdirSync(dataDir, { recursive: true });
    const smsDir = path.join(dataDir, 'sms-outbox');
    fs.symlinkSync(target, smsDir, 'dir');
    fs.symlinkSync(target, path.join(dataDir, 'outbox'), 'dir');
    const warn = vi.spyOn(console, 'warn');
    try {
      expect(await pruneOutboxFiles(smsDir)).toBe(0);
      expect(await pruneOutboxFiles(smsDir)).toBe(0);
      expect(await removeOutboxFilesOf(dataDir, { emails: ['archive@example.com'], phones: ['+27825550199'] })).toEqual({ mail: 0, sms: 0 });
      for (const f of [...precious, path.join(target, 'person.json')]) expect(fs.existsSync(f)).toBe(true);
      const lines = warn.mock.calls.map((c) => String(c[0]));
      expect(lines.filter((l) => l.includes(smsDir))).toEqual([expect.stringMatching(/is a symbolic link: its files are not cleaned up/)]);
    } finally { warn.mockRestore(); }
  });

  it('an old *.json entry that is a symlink is neither followed nor removed; the real old file beside it is', async () => {
    const outside = fileAged(path.join(root, 'outside'), 'keep.json', 30 * 86_400_000);
    const dir = path.join(root, 'entries');
    const real = fileAged(dir, 'old.json', 30 * 86_400_000);
    const link = path.join(dir, 'link.json');
    fs.symlinkSync(outside, link);
    const t = new Date(Date.now() - 30 * 86_400_000);
    fs.lutimesSync(link, t, t);
    expect(await pruneOutboxFiles(dir)).toBe(1);
    expect(fs.existsSync(real)).toBe(false);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.existsSync(outside)).toBe(true);
  });
});
