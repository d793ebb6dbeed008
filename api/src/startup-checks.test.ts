/**
 * The start-up checks on their own (server.test.ts checks that startServer runs them before the database): the words
 * an operator reads after "Cannot start:" for a DATA_DIR that is not a writable folder, a port in use, a HOST that is
 * not this machine's.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from './config.ts';
import { checkPortFree, ensureWritableDataDir, listenError } from './startup-checks.ts';

const dirs: string[] = [];
const tmpDir = () => { const d = fs.mkdtempSync(path.join(os.tmpdir(), 'college-startup-')); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

/** Listens on a free port of 127.0.0.1; resolves with the port and a close function. */
async function busyPort(): Promise<{ port: number; close: () => Promise<void> }> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  return { port: (s.address() as net.AddressInfo).port, close: () => new Promise<void>((r) => s.close(() => r())) };
}

describe('ensureWritableDataDir', () => {
  it('creates a missing DATA_DIR (parents too) and leaves no probe file in it', () => {
    const dir = path.join(tmpDir(), 'a', 'b');
    ensureWritableDataDir(dir);
    expect(fs.statSync(dir).isDirectory()).toBe(true);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('a file in the way: ConfigError naming DATA_DIR and the reason', () => {
    const file = path.join(tmpDir(), 'not-a-folder');
    fs.writeFileSync(file, 'x');
    let err: unknown;
    try { ensureWritableDataDir(file); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toBe(`DATA_DIR ${file} is not a writable folder: a file (not a folder) is in the way (EEXIST). Set DATA_DIR to a folder the server user can write, or fix its permissions.`);
  });

  it('a DATA_DIR inside a file: the same reason, with ENOTDIR', () => {
    const file = path.join(tmpDir(), 'a-file');
    fs.writeFileSync(file, 'x');
    expect(() => ensureWritableDataDir(path.join(file, 'data'))).toThrow(`DATA_DIR ${path.join(file, 'data')} is not a writable folder: a file (not a folder) is in the way (ENOTDIR).`);
  });
});

describe('checkPortFree', () => {
  it('a port in use: ConfigError "PORT … is already in use"', async () => {
    const busy = await busyPort();
    try {
      const err = await checkPortFree(busy.port, '127.0.0.1').then(() => null, (e) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect(err.message).toBe(`PORT ${busy.port} is already in use on 127.0.0.1 (another server, or this one still running). Stop it, or set PORT to a free port.`);
    } finally { await busy.close(); }
  });

  it('a free port resolves and stays free (the probe is closed again)', async () => {
    const { port, close } = await busyPort();
    await close();
    await checkPortFree(port, '127.0.0.1');
    const again = net.createServer();
    await new Promise<void>((resolve, reject) => { again.once('error', reject); again.listen(port, '127.0.0.1', () => resolve()); });
    await new Promise<void>((r) => again.close(() => r()));
  });

  it('port 0 (any free port) is not probed', async () => {
    await expect(checkPortFree(0, '192.0.2.1')).resolves.toBeUndefined();
  });

  it('a HOST that is not an address of this machine (TEST-NET 192.0.2.1): "HOST … is not an address of this machine"', async () => {
    await expect(checkPortFree(4999, '192.0.2.1')).rejects.toThrow('HOST 192.0.2.1 is not an address of this machine (EADDRNOTAVAIL). Set HOST to one of its addresses, or 0.0.0.0.');
  });
});

describe('listenError', () => {
  const errno = (code: string, message = code) => Object.assign(new Error(message), { code }) as NodeJS.ErrnoException;

  it('tells a privileged port, an unknown host name and any other reason in an operator\'s words', () => {
    expect(listenError(errno('EACCES'), 80, '0.0.0.0').message).toBe('PORT 80 on 0.0.0.0 is not allowed for this user (ports below 1024 need privileges). Set PORT to 1024 or above.');
    expect(listenError(errno('ENOTFOUND'), 4321, 'nowhere.invalid').message).toBe('HOST nowhere.invalid is not an address of this machine (ENOTFOUND). Set HOST to one of its addresses, or 0.0.0.0.');
    const other = listenError(errno('EMFILE', 'too many open files'), 4321, '127.0.0.1');
    expect(other).toBeInstanceOf(ConfigError);
    expect(other.message).toBe('Cannot listen on 127.0.0.1:4321: too many open files');
  });
});
