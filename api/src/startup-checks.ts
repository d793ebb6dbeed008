/**
 * Start-up checks of server.ts (operations audit: start-up mistakes ended in raw stacks, and a port in use was said
 * only after migrations and seed): DATA_DIR must be a folder this process can write, and PORT must be free on HOST,
 * both checked before the database is opened; a listen that fails later is told in the same words. Each failure is a
 * ConfigError, which server.ts prints as "Cannot start: <message>" and exits 1.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ConfigError } from './config.ts';
import { ensurePrivateDir } from './db/private-dir.ts';

/** What an fs error code means for DATA_DIR, in an operator's words. */
const DATA_DIR_REASONS: Record<string, string> = {
  EEXIST: 'a file (not a folder) is in the way',
  ENOTDIR: 'a file (not a folder) is in the way',
  EACCES: 'permission denied (the server user cannot create or write it)',
  EPERM: 'permission denied (the server user cannot create or write it)',
  EROFS: 'the file system is read-only',
  ENOENT: 'it cannot be created (a read-only file system, or a missing parent)',
  ENOSPC: 'the disk is full',
};

/**
 * Creates DATA_DIR `dir` if missing, mode 0700 (an existing one open to other users is tightened to 0700 and a line
 * logged: ensurePrivateDir, security audit F1), and checks that this process can write in it (a probe file, written and removed).
 * Throws ConfigError "DATA_DIR <dir> is not a writable folder: <reason> (<code>)" instead of a raw stack (operations
 * audit: a file in the way, a parent not writable, a read-only file system).
 */
export function ensureWritableDataDir(dir: string): void {
  try {
    ensurePrivateDir(dir);
    if (!fs.statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    const probe = path.join(dir, `.write-check-${process.pid}`);
    fs.writeFileSync(probe, '');
    fs.rmSync(probe, { force: true });
  } catch (err: any) {
    const reason = DATA_DIR_REASONS[err?.code] ?? String(err?.message ?? err);
    throw new ConfigError(`DATA_DIR ${dir} is not a writable folder: ${reason}${err?.code ? ` (${err.code})` : ''}. Set DATA_DIR to a folder the server user can write, or fix its permissions.`);
  }
}

/**
 * The ConfigError for a failed listen on `port`/`host` (the error `err` of net's 'error' event): in use (EADDRINUSE),
 * not allowed (EACCES), HOST not an address of this machine (EADDRNOTAVAIL, ENOTFOUND), or the raw reason. Used by
 * checkPortFree and by server.ts when the real listen fails.
 */
export function listenError(err: NodeJS.ErrnoException, port: number, host: string): Error {
  if (err.code === 'EADDRINUSE') return new ConfigError(`PORT ${port} is already in use on ${host} (another server, or this one still running). Stop it, or set PORT to a free port.`);
  if (err.code === 'EACCES') return new ConfigError(`PORT ${port} on ${host} is not allowed for this user (ports below 1024 need privileges). Set PORT to 1024 or above.`);
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') return new ConfigError(`HOST ${host} is not an address of this machine (${err.code}). Set HOST to one of its addresses, or 0.0.0.0.`);
  return new ConfigError(`Cannot listen on ${host}:${port}: ${err.message}`);
}

/**
 * Probes `port` on `host` with a listener opened and closed at once, so that a port in use is reported before the
 * database is opened. Port 0 (any free port) is not probed. Rejects with listenError's ConfigError.
 */
export async function checkPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => reject(listenError(err, port, host)));
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
