/**
 * The file drivers' folders (DATA_DIR/outbox `*.eml`, DATA_DIR/sms-outbox `*.json`; the defaults without SMTP_URL or
 * SMS_DRIVER=http) are the delivered mail and SMS of the embedded mode, so they hold every verify, reset and
 * set-password link ever sent. Privacy audit F8: they were kept forever and an erasure left 17 `.eml` and 3 `.json`
 * files of the person behind. Here: an age limit the drivers apply themselves, and the erasure's removal of one
 * person's files. POPIA §14 (kept no longer than needed) and §24 (erasure).
 */
import fs from 'node:fs';
import path from 'node:path';
import { normalizeEmail } from '#contracts/mailbox.ts';

/**
 * How long a file driver keeps what it wrote: 7 days, the life of the longest link a message carries (a walk-in's
 * set-password link; reset and verify links live shorter). Older files are removed by pruneOutboxFiles.
 */
export const OUTBOX_FILE_KEEP_MS = 7 * 24 * 3600 * 1000;

/** How often a driver prunes its folder while sending, at most: once an hour (and once when it is created). */
export const OUTBOX_PRUNE_EVERY_MS = 3600 * 1000;

/** Folders already reported as not a real folder (one warning per folder per process, not one an hour). */
const warnedNotAFolder = new Set<string>();

/**
 * The names in the file drivers' folder `dir` when it is a real folder; [] when it is missing; null, with one warning
 * per folder per process, when it is a symlink or anything else (security review: with sms-outbox a symlink, the
 * cleanup deleted old `*.json` files in its target). lstat, so the folder's own link is never followed; an ancestor
 * such as a symlinked DATA_DIR is the operator's choice and is followed. Other fs errors reject.
 */
async function ownFolderEntries(dir: string): Promise<string[] | null> {
  let st: fs.Stats;
  try { st = await fs.promises.lstat(dir); } catch (err: any) { if (err?.code === 'ENOENT') return []; throw err; }
  if (!st.isDirectory()) {
    if (!warnedNotAFolder.has(dir)) {
      warnedNotAFolder.add(dir);
      console.warn(`[outbox] ${dir} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}: its files are not cleaned up; make it a real folder inside DATA_DIR`);
    }
    return null;
  }
  return fs.promises.readdir(dir);
}

/** The lstat of `file` when it is a regular file (not a symlink, folder or device), else null; null too when it vanished. */
async function regularFile(file: string): Promise<fs.Stats | null> {
  try {
    const st = await fs.promises.lstat(file);
    return st.isFile() ? st : null;
  } catch (err: any) { if (err?.code === 'ENOENT') return null; throw err; }
}

/**
 * Removes the `.eml` and `.json` regular files in `dir` last modified more than `maxAgeMs` ms before `now` (ms since
 * the epoch); a missing folder is nothing to do, a folder that is a symlink (or not a folder) is skipped with one
 * warning, and an entry that is a symlink is neither followed nor removed. Resolves to how many were removed; a file
 * that vanished meanwhile is skipped, other fs errors reject.
 */
export async function pruneOutboxFiles(dir: string, maxAgeMs = OUTBOX_FILE_KEEP_MS, now = Date.now()): Promise<number> {
  const names = await ownFolderEntries(dir);
  if (!names) return 0;
  let removed = 0;
  for (const name of names) {
    if (!/\.(eml|json)$/.test(name)) continue;
    const file = path.join(dir, name);
    const st = await regularFile(file);
    if (!st || now - st.mtimeMs <= maxAgeMs) continue;
    try { await fs.promises.rm(file, { force: true }); removed++; } catch (err: any) { if (err?.code !== 'ENOENT') throw err; }
  }
  return removed;
}

/**
 * A pruner for a driver's folder `dir`: call it on every send; it runs pruneOutboxFiles at once and then at most every
 * OUTBOX_PRUNE_EVERY_MS, in the background (a failure is logged, never fails a send).
 */
export function outboxPruner(dir: string, label: string): () => void {
  let last = 0;
  return () => {
    const now = Date.now();
    if (now - last < OUTBOX_PRUNE_EVERY_MS) return;
    last = now;
    pruneOutboxFiles(dir, OUTBOX_FILE_KEEP_MS, now).then(
      (n) => { if (n) console.info(`[${label}] removed ${n} outbox file(s) older than ${OUTBOX_FILE_KEEP_MS / 86_400_000} days from ${dir}`); },
      (err) => console.warn(`[${label}] could not prune ${dir}: ${err?.code ?? err?.message ?? err}`),
    );
  };
}

/** The header block of an `.eml` text (up to the first blank line), continuation lines unfolded (RFC 5322 §2.2.3). */
function headerBlock(eml: string): string {
  const end = eml.search(/\r?\n\r?\n/);
  return (end === -1 ? eml : eml.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
}

/**
 * Removes one person's files from the file drivers' folders under `dataDir`: each `outbox/*.eml` whose To, Cc or Bcc
 * header names one of `emails` (case-insensitive), and each `sms-outbox/*.json` whose `to` is one of `phones` (E.164).
 * Run after an erasure has committed; a mail whose Subject is `exceptSubject` stays (the erasure's own notice, which
 * the mail worker may write at any moment, as its mail_outbox row stays). Missing folders are nothing to do; a folder
 * that is a symlink is skipped with one warning and a symlinked file is never read or removed. Resolves to how many files of each kind were removed;
 * rejects on fs errors other than a file vanishing meanwhile.
 */
export async function removeOutboxFilesOf(dataDir: string, who: { emails: string[]; phones: string[]; exceptSubject?: string }): Promise<{ mail: number; sms: number }> {
  const emails = who.emails.map(normalizeEmail).filter(Boolean);
  const phones = new Set(who.phones.filter(Boolean));
  const sweep = async (dir: string, ext: string, matches: (text: string) => boolean): Promise<number> => {
    const names = await ownFolderEntries(dir);
    if (!names) return 0;
    let removed = 0;
    for (const name of names.filter((n) => n.endsWith(ext))) {
      const file = path.join(dir, name);
      if (!(await regularFile(file))) continue;
      try {
        if (matches(await fs.promises.readFile(file, 'utf8'))) { await fs.promises.rm(file, { force: true }); removed++; }
      } catch (err: any) { if (err?.code !== 'ENOENT') throw err; }
    }
    return removed;
  };
  const mail = emails.length === 0 ? 0 : await sweep(path.join(dataDir, 'outbox'), '.eml', (text) => {
    const headers = headerBlock(text);
    if (who.exceptSubject && headers.split(/\r?\n/).some((l) => l.toLowerCase() === `subject: ${who.exceptSubject!.toLowerCase()}`)) return false;
    const rcpt = headers.split(/\r?\n/).filter((l) => /^(to|cc|bcc):/i.test(l)).join(' ').toLowerCase();
    const addresses = rcpt.replace(/^(to|cc|bcc):/gm, ' ').match(/[^\s<>",;:]+@[^\s<>",;]+/g) ?? [];
    return addresses.some((a) => emails.includes(a));
  });
  const sms = phones.size === 0 ? 0 : await sweep(path.join(dataDir, 'sms-outbox'), '.json', (text) => {
    try { return phones.has(String(JSON.parse(text)?.to)); } catch { return false; }
  });
  return { mail, sms };
}
