/**
 * A bucket failing while `npm run restore` writes the documents (review of aade6f1, s3rver on port 4352), on a backup of
 * 20 documents: a put whose object was stored but whose answer was lost is deleted again by the rollback; a bucket that
 * refuses deletes is named with the keys left, and DATA_DIR keeps only RESTORE-INCOMPLETE; a failure at the 10th
 * document starts no further document and leaves the bucket empty. Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KIND, freshPostgres } from '../test/harness.ts';
import { startS3Server, type TestS3Server } from '../test/s3-server.ts';
import { openDatabase } from '../db/client.ts';
import { createBackup, restoreBackup } from '../db/backup.ts';
import { loadConfig } from '../config.ts';
import { S3DocumentStore } from '../storage/s3-store.ts';
import type { DocumentStore } from '../storage/document-store.ts';

const PG = process.env.DATABASE_URL;
const S3_PORT = 4352;
const N = 20;

describe(`restore into a failing S3 bucket (${DB_KIND})`, () => {
  let s3: TestS3Server;
  let root = '';
  let archive = '';
  const drops: Array<() => Promise<void>> = [];
  const keys = Array.from({ length: N }, (_, i) => `doc${String(i).padStart(2, '0')}.pdf`);

  const bucket = (name: string) => new S3DocumentStore({ bucket: name, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  const newDatabase = async () => { if (!PG) return undefined; const f = await freshPostgres(PG); drops.push(f.drop); return f.url; };
  /** `real` with `put` and `delete` replaced (the rest, list and init included, is the real driver's). */
  const wrap = (real: S3DocumentStore, over: Partial<Pick<DocumentStore, 'put' | 'delete'>>): DocumentStore => Object.assign(Object.create(real), over);

  beforeAll(async () => {
    s3 = await startS3Server({ port: S3_PORT, bucket: 'unused' });
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'college-restore-failures-'));
    const source = path.join(root, 'source');
    const url = await newDatabase();
    const db = await openDatabase(url ? { url } : { dataDir: source });
    fs.mkdirSync(path.join(source, 'uploads'), { recursive: true });
    try {
      const { rows: [student] } = await db.pool.query(`insert into users (email, password_hash, first_name, last_name) values ('thandi@example.com', 'x', 'Thandi', 'Mokoena') returning id`);
      for (const key of keys) {
        const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n%'), crypto.randomBytes(500), Buffer.from('\n%%EOF')]);
        fs.writeFileSync(path.join(source, 'uploads', key), bytes);
        await db.pool.query(`insert into uploads (id, user_id, original_name, stored_name, mime, size) values ($1, $2, 'doc.pdf', $3, 'application/pdf', $4)`, [`upload-${key}`, student.id, key, bytes.length]);
      }
    } finally { await db.close(); }
    archive = path.join(root, 'college.tgz');
    const summary = await createBackup({ ...loadConfig({ NODE_ENV: 'test' }), DOCUMENT_STORE: 'local', DATABASE_URL: url, dataDir: source } as any, archive);
    expect(summary.documents).toBe(N);
  }, 300_000);
  afterAll(async () => {
    for (const drop of drops) await drop().catch(() => {});
    await s3?.close();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  const restore = async (target: string, store: DocumentStore) => restoreBackup(archive, target, { url: await newDatabase(), allowSuperuser: true, store }).then(() => undefined, (err) => err as Error);

  it('a put that stored the object and then failed (its answer lost) is deleted again by the rollback', async () => {
    const real = bucket('answer-lost');
    let puts = 0;
    const store = wrap(real, { put: async (...args) => { await real.put(...args); if (++puts === 3) throw Object.assign(new Error('socket hang up'), { name: 'TimeoutError' }); } });
    const target = path.join(root, 'answer-lost');
    const failed = await restore(target, store);
    expect(failed?.message).toContain('writing the documents into the S3 bucket "answer-lost" failed after');
    expect(failed?.message).toContain('They were deleted again: the S3 bucket "answer-lost" is as it was.');
    expect(puts).toBeGreaterThanOrEqual(3);
    expect(await real.list()).toEqual([]);
    expect(fs.existsSync(target)).toBe(false);
  }, 300_000);

  it('a bucket whose deletes fail: the message names the keys left, and DATA_DIR keeps only RESTORE-INCOMPLETE', async () => {
    const real = bucket('no-delete');
    let puts = 0;
    const tried: string[] = [];
    const store = wrap(real, {
      // The restore's marker (written first) is stored; the documents' puts are counted.
      put: async (key, ...rest) => { if (key === 'RESTORE-INCOMPLETE') return real.put(key, ...rest); tried.push(key); if (++puts === 3) throw new Error('connect ECONNRESET'); await real.put(key, ...rest); },
      delete: async () => { throw Object.assign(new Error('Access Denied'), { name: 'AccessDenied' }); },
    });
    const target = path.join(root, 'no-delete');
    const failed = await restore(target, store);
    expect(failed?.message).toContain(`${tried.length} of the documents this restore wrote or tried could not be deleted again (`);
    const named = /could not be deleted again \(([^)]*)\): delete them \(or every object in the S3 bucket "no-delete"\)/.exec(failed?.message ?? '')?.[1].replace(/, …$/, '').split(', ');
    expect(named).toHaveLength(Math.min(3, tried.length));
    for (const key of named ?? []) expect(tried).toContain(key);
    expect(failed?.message).not.toContain('They were deleted again');
    expect((await real.list()).length).toBeGreaterThan(0);
    expect(fs.readdirSync(target)).toEqual(['RESTORE-INCOMPLETE']);
  }, 300_000);

  it(`${N} documents failing at the 10th: no further document is started after the failure, and the bucket is empty afterwards`, async () => {
    const real = bucket('tenth');
    let puts = 0;
    let failed = false;
    let startedAfter = 0;
    const store = wrap(real, {
      put: async (...args) => {
        if (failed) startedAfter++;
        if (++puts === 10) { failed = true; throw new Error('connect ECONNREFUSED'); }
        await real.put(...args);
      },
    });
    const target = path.join(root, 'tenth');
    const err = await restore(target, store);
    expect(err?.message).toMatch(new RegExp(`failed after \\d+ of ${N} were written`));
    expect(err?.message).toContain('They were deleted again');
    expect(startedAfter).toBe(0);
    expect(puts).toBeLessThan(N);
    expect(await real.list()).toEqual([]);
    expect(fs.existsSync(target)).toBe(false);
  }, 300_000);

  it.skipIf(!PG)('PostgreSQL: when emptying the --url database fails as well, the message says so and never "removed again"', async () => {
    const f = await freshPostgres(PG!);
    drops.push(f.drop);
    const name = new URL(f.url).pathname.slice(1);
    const real = bucket('undo-fails');
    // The bucket fails, and the database has gone away meanwhile (no connection accepted): the undo cannot run.
    const store = wrap(real, {
      put: async () => {
        const admin = new pg.Client({ connectionString: PG });
        await admin.connect();
        try {
          await admin.query(`alter database "${name}" with allow_connections false`);
          await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
        } finally { await admin.end(); }
        throw new Error('connect ECONNRESET');
      },
    });
    const target = path.join(root, 'undo-fails');
    const err = await restoreBackup(archive, target, { url: f.url, allowSuperuser: true, store }).then(() => undefined, (e) => e as Error);
    expect(err?.message).toContain('writing the documents into the S3 bucket "undo-fails" failed after 0 of 20 were written');
    expect(err?.message).toContain('Emptying the database in --url failed: drop it and create it again (dropdb, createdb) before the next restore.');
    expect(err?.message).not.toContain('database was removed again');
    expect(fs.readdirSync(target)).toEqual(['RESTORE-INCOMPLETE']);
  }, 300_000);
});
