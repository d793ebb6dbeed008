/**
 * The college the S3 restore tests restore (backup-restore-marker, backup-restore-s3, backup-restore-s3-review): an
 * s3rver on the test file's own port, a temporary root folder, and a backup archive of a small college on the local
 * store — one student, Thandi Mokoena (thandi@example.com), and two upload rows `upload-doc1` (id.pdf, key doc1.pdf,
 * hers) and `upload-doc2` (matric.pdf, key doc2.pdf, hers unless `rows` names another owner), whose documents are
 * random PDF-looking bytes written into `source/uploads`. On PGlite the source is the embedded database in
 * `<root>/source`; with DATABASE_URL a new PostgreSQL database (freshPostgres). Not a test file itself: each test file
 * calls createS3BackupFixture in its beforeAll and `close()` in its afterAll.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { freshPostgres } from '../test/harness.ts';
import { startS3Server, type TestS3Server } from '../test/s3-server.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { createBackup } from '../db/backup.ts';
import { loadConfig } from '../config.ts';
import { S3DocumentStore } from '../storage/s3-store.ts';

/** What createS3BackupFixture sets up. */
export interface S3BackupFixtureOptions {
  /** s3rver's port (the test file's own; a bucket `unused` is created). */
  port: number;
  /** Prefix of the temporary root folder under os.tmpdir() ('college-restore-s3-'). */
  tmpPrefix: string;
  /** Random bytes inside doc1 (between `%PDF-1.4\n%` and `\n%%EOF`); doc2 always has 1000. Default 2000. */
  doc1RandomBytes?: number;
  /**
   * More rows of the source college, written before the student and the upload rows (so their ids come first). May
   * resolve to `{ doc2Owner }`, the users.id that owns upload-doc2 instead of the student.
   */
  rows?: (db: Database) => Promise<{ doc2Owner?: number } | void>;
}

/** The running fixture: everything a test needs to restore the archive and look at what was written. */
export interface S3BackupFixture {
  s3: TestS3Server;
  /** Temporary folder of the file (removed by close): `source/` and the archive are in it. */
  root: string;
  /** `<root>/college.tgz`: the backup (2 documents). */
  archive: string;
  /** The source database: its postgres:// URL, or the DATA_DIR of the embedded one (`<root>/source`). */
  sourceDb: string;
  /** The documents' bytes (upload-doc1 / doc1.pdf, upload-doc2 / doc2.pdf). */
  doc1: Buffer;
  doc2: Buffer;
  /** The S3 driver's settings for bucket `name` of this s3rver (path-style, s3rver's fixed credentials). */
  settings(name: string): { bucket: string; region: string; endpoint: string; forcePathStyle: boolean; credentials: { accessKeyId: string; secretAccessKey: string } };
  /** The S3 document store on bucket `name` of this s3rver (created by `init()` or the first write). */
  bucket(name: string): S3DocumentStore;
  /** A new empty PostgreSQL database (dropped by close) when DATABASE_URL is set; undefined on PGlite. */
  newDatabase(): Promise<string | undefined>;
  /**
   * Runs restoreBackup of `archive` into `target` (and PostgreSQL `url`), documents into bucket `name`, in a child
   * process killed with SIGKILL (as the OOM killer does) right after a put reached the bucket: the first put with
   * `after: 'first-put'` (the restore's own marker RESTORE-INCOMPLETE), the first document's with `after:
   * 'first-document'`. Resolves to the child's signal ('SIGKILL' when it was killed) and stdout ('finished' if it was not).
   */
  killedRestore(target: string, url: string | undefined, name: string, after: 'first-put' | 'first-document'): Promise<{ signal: string | null; stdout: string }>;
  /** Drops every database newDatabase made (and the source's), stops s3rver, removes `root`. Errors of a drop are ignored. */
  close(): Promise<void>;
}

/**
 * Starts s3rver on `opts.port`, makes the source college (opts.rows first, then the student and her two upload rows,
 * then the two documents in `<root>/source/uploads`) and backs it up with createBackup on the local store into
 * `<root>/college.tgz`, asserting that 2 documents went in. Rejects on any failure (what was started is closed again).
 */
export async function createS3BackupFixture(opts: S3BackupFixtureOptions): Promise<S3BackupFixture> {
  const PG = process.env.DATABASE_URL;
  const drops: Array<() => Promise<void>> = [];
  const s3 = await startS3Server({ port: opts.port, bucket: 'unused' });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), opts.tmpPrefix));
  const settings = (name: string) => ({ bucket: name, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  const fixture: S3BackupFixture = {
    s3, root, archive: path.join(root, 'college.tgz'), sourceDb: '',
    doc1: Buffer.concat([Buffer.from('%PDF-1.4\n%'), crypto.randomBytes(opts.doc1RandomBytes ?? 2000), Buffer.from('\n%%EOF')]),
    doc2: Buffer.concat([Buffer.from('%PDF-1.4\n%'), crypto.randomBytes(1000), Buffer.from('\n%%EOF')]),
    settings,
    bucket: (name) => new S3DocumentStore(settings(name)),
    newDatabase: async () => { if (!PG) return undefined; const f = await freshPostgres(PG); drops.push(f.drop); return f.url; },
    killedRestore: (target, url, name, after) => {
      const script = `
        import { restoreBackup } from ${JSON.stringify(path.join(import.meta.dirname, '../db/backup.ts'))};
        import { S3DocumentStore } from ${JSON.stringify(path.join(import.meta.dirname, '../storage/s3-store.ts'))};
        const real = new S3DocumentStore(${JSON.stringify(settings(name))});
        const store = Object.assign(Object.create(real), { put: async (key, ...a) => { await real.put(key, ...a); if (${after === 'first-document' ? "key !== 'RESTORE-INCOMPLETE'" : 'true'}) process.kill(process.pid, 'SIGKILL'); } });
        await restoreBackup(${JSON.stringify(fixture.archive)}, ${JSON.stringify(target)}, { url: ${url ? JSON.stringify(url) : 'undefined'}, allowSuperuser: true, store });
        console.log('finished');`;
      return new Promise((resolve) => {
        execFile(process.execPath, ['--input-type=module', '-e', script], { timeout: 180_000 }, (err, stdout) => resolve({ signal: (err as any)?.signal ?? null, stdout }));
      });
    },
    close: async () => {
      for (const drop of drops) await drop().catch(() => {});
      await s3.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
  try {
    const { doc1, doc2 } = fixture;
    const source = path.join(root, 'source');
    const url = await fixture.newDatabase();
    fixture.sourceDb = url ?? source;
    const db = await openDatabase(url ? { url } : { dataDir: source });
    try {
      const extra = await opts.rows?.(db);
      const { rows: [student] } = await db.pool.query(`insert into users (email, password_hash, first_name, last_name) values ('thandi@example.com', 'x', 'Thandi', 'Mokoena') returning id`);
      await db.pool.query(`insert into uploads (id, user_id, original_name, stored_name, mime, size) values ('upload-doc1', $1, 'id.pdf', 'doc1.pdf', 'application/pdf', $2), ('upload-doc2', $4, 'matric.pdf', 'doc2.pdf', 'application/pdf', $3)`, [student.id, doc1.length, doc2.length, extra?.doc2Owner ?? student.id]);
    } finally { await db.close(); }
    fs.mkdirSync(path.join(source, 'uploads'), { recursive: true });
    fs.writeFileSync(path.join(source, 'uploads', 'doc1.pdf'), doc1);
    fs.writeFileSync(path.join(source, 'uploads', 'doc2.pdf'), doc2);
    const summary = await createBackup({ ...loadConfig({ NODE_ENV: 'test' }), DOCUMENT_STORE: 'local', DATABASE_URL: url, dataDir: source } as any, fixture.archive);
    expect(summary.documents).toBe(2);
  } catch (err) {
    await fixture.close();
    throw err;
  }
  return fixture;
}
