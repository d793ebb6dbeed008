/**
 * DATA_DIR is private to the server's user (security audit F1: a new DATA_DIR was 0755, PGlite leaves most pgdata
 * files 0666, and the outbox folders hold reset and set-password links). The folder's own mode protects everything
 * in it, whatever mode PGlite or a library gives the files inside, so DATA_DIR is created 0700 and an existing one
 * readable or writable by group or others is tightened to 0700 (ASVS 5.0 V13.4: files of the application not
 * readable by other local users).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * True for a folder other users rightly share, which must never be tightened (security audit F6: run as root with
 * DATA_DIR=/tmp, a chmod 0700 would drop /tmp's sticky bit and break the machine): any folder with the sticky bit,
 * '/', os.tmpdir() and os.homedir().
 */
function sharedFolder(dir: string, mode: number): boolean {
  if (mode & 0o1000) return true;
  const real = (p: string) => { try { return fs.realpathSync(p); } catch { return path.resolve(p); } };
  const here = real(dir);
  return [path.parse(here).root, real(os.tmpdir()), real(os.homedir())].includes(here);
}

/**
 * Creates folder `dir` (and missing parents) with mode 0700, or tightens an existing `dir` to 0700 when group or
 * others have any access, and then says so in one line through `log` (default console.warn). A folder owned by
 * another user, a shared folder (sticky bit, '/', os.tmpdir(), os.homedir()), or one whose mode cannot be changed,
 * is left as it is and the line says why (and, for a shared folder, to use a dedicated one). Throws fs errors of
 * mkdir/stat (EACCES, ENOTDIR…) for the caller to explain; nothing is thrown when `dir` is not a folder (the caller
 * checks that).
 */
export function ensurePrivateDir(dir: string, log: (line: string) => void = (line) => console.warn(line)): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.statSync(dir);
  if (!st.isDirectory() || (st.mode & 0o077) === 0) return;
  const was = (st.mode & 0o777).toString(8).padStart(4, '0');
  if (sharedFolder(dir, st.mode)) {
    log(`[data-dir] WARNING: ${dir} is a shared folder (mode ${(st.mode & 0o7777).toString(8).padStart(4, '0')}), so it was not changed: other local users may read the database and documents in it. Set DATA_DIR to a dedicated folder (for example /var/lib/college), which is then made 0700.`);
    return;
  }
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) {
    log(`[data-dir] WARNING: ${dir} is mode ${was} and owned by another user, so it was not changed: other local users may read the database and documents in it. Make it the server user's, mode 0700.`);
    return;
  }
  try {
    fs.chmodSync(dir, 0o700);
    log(`[data-dir] ${dir} was mode ${was} (open to other local users); changed to 0700 (owner only).`);
  } catch (err: any) {
    log(`[data-dir] WARNING: ${dir} is mode ${was} and could not be changed to 0700 (${err?.code ?? err}): other local users may read the database and documents in it.`);
  }
}
