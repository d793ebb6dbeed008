/**
 * Local-disk driver of the document store (api/src/storage/document-store.ts): one file per key under `root`
 * (`<DATA_DIR>/uploads`), mode 0600. A write goes to a temporary name first and is renamed into place, so a
 * crash never leaves half a document under its key. Right for one node only: another node cannot see these
 * files (issue #13).
 *
 * `put` keeps its own temp-and-rename rather than sharing mail's writeFileAtomically or the `write-file-atomic`
 * package: a document usually arrives as a stream (multipart or tus), and both take only a whole buffer or string;
 * the package also accepts a short write as complete (see writeFileAtomically in api/src/mail/mailer.ts). Here the
 * temp file is opened `wx` with mode 0600 under a random name, so two uploads to one key never share it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertKey, type DocumentStore, type StoredObject } from './document-store.ts';

/**
 * Document store on local disk under `root` (DESIGN §4 Documents): keys checked by assertKey, files 0600, written via temp file + rename; throws on I/O errors, get of a missing key → undefined. A key whose file, or a folder between `root` and it, is a symbolic link counts as missing (never followed: security review A).
 */
export class LocalDocumentStore implements DocumentStore {
  readonly kind = 'local' as const;
  readonly root: string;

  constructor(root: string) { this.root = path.resolve(root); }

  private file(key: string): string { return path.join(this.root, assertKey(key)); }

  async init(): Promise<void> { await fsp.mkdir(this.root, { recursive: true }); }

  async put(key: string, body: Buffer | Readable): Promise<void> {
    const file = this.file(key);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${crypto.randomBytes(6).toString('hex')}.part`;
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, fs.createWriteStream(tmp, { flags: 'wx', mode: 0o600 }));
      await fsp.rename(tmp, file);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
  }

  /**
   * The document under `key`, or undefined when there is none — also when the key's file or a folder between `root`
   * and it is a symbolic link (security review A: a link planted in the uploads folder, e.g. by a tampered backup,
   * to `../pgdata/…` served the database's files). The file is opened with O_NOFOLLOW; `root` itself may be a link.
   */
  async get(key: string): Promise<StoredObject | undefined> {
    const file = this.file(key);
    if (!(await this.noLinkedFolder(key))) return undefined;
    let handle: fsp.FileHandle;
    try { handle = await fsp.open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW); } catch (err: any) {
      if (err?.code === 'ENOENT' || err?.code === 'EISDIR' || err?.code === 'ELOOP' || err?.code === 'ENOTDIR') return undefined;
      throw err;
    }
    const stat = await handle.stat();
    if (!stat.isFile()) { await handle.close(); return undefined; }
    return { stream: handle.createReadStream(), size: stat.size };
  }

  /** False when a folder between `root` and `key`'s file is a symbolic link (or missing). */
  private async noLinkedFolder(key: string): Promise<boolean> {
    const parts = key.split('/');
    for (let i = 1; i < parts.length; i++) {
      try { if (!(await fsp.lstat(path.join(this.root, ...parts.slice(0, i)))).isDirectory()) return false; } catch { return false; }
    }
    return true;
  }

  async delete(key: string): Promise<void> { await fsp.rm(this.file(key), { force: true }); }

  async exists(key: string): Promise<boolean> {
    if (!(await this.noLinkedFolder(key))) return false;
    try { return (await fsp.lstat(this.file(key))).isFile(); } catch { return false; }
  }

  async list(prefix = ''): Promise<string[]> {
    let names: string[];
    try { names = await fsp.readdir(this.root, { recursive: true }); } catch (err: any) {
      if (err?.code === 'ENOENT') return [];
      throw err;
    }
    const keys: string[] = [];
    for (const name of names) {
      const key = name.split(path.sep).join('/');
      if (!key.startsWith(prefix) || key.endsWith('.part') || !(await this.noLinkedFolder(key))) continue;
      if ((await fsp.lstat(path.join(this.root, name))).isFile()) keys.push(key);
    }
    return keys.sort();
  }
}
