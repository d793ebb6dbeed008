/**
 * `npm run restore` into the S3 document store: with DOCUMENT_STORE=s3 and S3_* set, the archive's documents are
 * written into the bucket under their manifest keys (through the store's S3 driver, on a real s3rver at port 4350),
 * not into DATA_DIR/uploads. A backup of a college on the local store is restored and the app, started on the
 * restored database and the bucket, serves a document byte for byte; a bucket holding any object is refused with
 * nothing written; a document whose SHA-256 differs from the manifest writes nothing to the bucket; a bucket that
 * fails midway leaves neither documents nor database behind. Runs on PGlite, and on PostgreSQL with DATABASE_URL
 * (pg_dump / pg_restore, a new database per restore).
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import supertest from 'supertest';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { DB_KIND } from '../test/harness.ts';
import type { TestS3Server } from '../test/s3-server.ts';
import { openDatabase } from '../db/client.ts';
import { restoreBackup } from '../db/backup.ts';
import { loadConfig } from '../config.ts';
import { createApp } from '../app.ts';
import { memoryMailer } from '../mail/mailer.ts';
import { ensureAdmin } from '../features/auth/auth.service.ts';
import type { DocumentStore } from '../storage/document-store.ts';
import { RESTORE_MARKER } from '../db/restore-marker.ts';
import { createS3BackupFixture, type S3BackupFixture } from './s3-backup-fixture.ts';

const PG = process.env.DATABASE_URL;
const S3_PORT = 4350;
const cli = (name: string) => path.join(import.meta.dirname, `${name}.ts`);

/** Runs a CLI as a person would, with `env` added (no DATABASE_URL: the restore's --url says where). */
function run(name: string, args: string[], env: Record<string, string>): Promise<{ status: number; stdout: string; stderr: string }> {
  const full: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete full.DATABASE_URL;
  return new Promise((resolve) => {
    execFile(process.execPath, [cli(name), ...args], { env: full, timeout: 180_000 }, (err, stdout, stderr) => {
      resolve({ status: err ? Number((err as any).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe(`restore into the S3 document store (${DB_KIND})`, () => {
  let fx: S3BackupFixture;
  let s3: TestS3Server;
  let root = '';
  let archive = '';
  let sourceDb = '';
  let doc1: Buffer;
  let doc2: Buffer;
  const admin = { email: 'registrar@example.com', password: 'admin-pass-123' };

  /** The S3 document store on bucket `name` of the test's s3rver. */
  const bucket = (name: string) => fx.bucket(name);
  const s3Env = (name: string) => ({ ...s3.env, S3_BUCKET: name });
  /** A new empty database on the server (PostgreSQL), dropped after the file; undefined on PGlite. */
  const newDatabase = () => fx.newDatabase();
  const restoreArgs = (target: string, url?: string) => [archive, '--data-dir', target, ...(url ? ['--url', url, '--allow-superuser'] : [])];
  const tableCount = async (url: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try { return (await c.query(`select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`)).rows[0].n as number; } finally { await c.end(); }
  };

  beforeAll(async () => {
    // The registrar (an admin) first, owner of upload-doc2; Thandi owns upload-doc1.
    fx = await createS3BackupFixture({
      port: S3_PORT, tmpPrefix: 'college-restore-s3-', doc1RandomBytes: 3000,
      rows: async (db) => ({ doc2Owner: (await ensureAdmin(db.db, admin.email, admin.password)).id }),
    });
    ({ s3, root, archive, sourceDb, doc1, doc2 } = fx);
  }, 300_000);
  afterAll(() => fx?.close());

  it('the documents go into a new bucket under their manifest keys, not DATA_DIR/uploads, and the app on the restored copy serves them byte for byte', async () => {
    const target = path.join(root, 'restored');
    const url = await newDatabase();
    const r = await run('restore', restoreArgs(target, url), s3Env('restored'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('2 document(s) written into the S3 bucket "restored"');
    expect(r.stdout).toMatch(/Start it with: DATA_DIR=\S+ (DATABASE_URL=… )?DOCUMENT_STORE=s3 S3_BUCKET=restored S3_ENDPOINT=http:\/\/127\.0\.0\.1:4350 /);
    expect(fs.existsSync(path.join(target, 'uploads'))).toBe(false);
    const store = bucket('restored');
    expect(await store.list()).toEqual(['doc1.pdf', 'doc2.pdf']);
    const object = await store.client.send(new GetObjectCommand({ Bucket: 'restored', Key: 'doc1.pdf' }));
    expect(object.ContentType).toBe('application/pdf');
    expect(object.ContentDisposition).toBe('attachment');
    await object.Body?.transformToByteArray();

    // The app as a node would run it: the restored database, the same S3 settings.
    const database = await openDatabase(url ? { url } : { dataDir: target });
    const config = loadConfig({ NODE_ENV: 'test', SESSION_SECRET: 'test-secret-test-secret-123', DATA_DIR: target, ...s3Env('restored') });
    const { createDocumentStore } = await import('../storage/document-store.ts');
    const nodeStore: DocumentStore = await createDocumentStore(config);
    await nodeStore.init();
    const app = createApp({ database, config, mailer: memoryMailer(), store: nodeStore });
    const server: Server = await new Promise((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
    try {
      const agent = supertest.agent(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      const login = await agent.post('/api/auth/login').send(admin);
      expect(login.status).toBe(200);
      for (const [id, bytes] of [['upload-doc1', doc1], ['upload-doc2', doc2]] as const) {
        const res = await agent.get(`/api/uploads/${id}`).buffer(true)
          .parse((res, cb) => { const c: Buffer[] = []; res.on('data', (d: Buffer) => c.push(d)); res.on('end', () => cb(null, Buffer.concat(c))); });
        expect(res.status).toBe(200);
        expect(crypto.createHash('sha256').update(res.body).digest('hex')).toBe(crypto.createHash('sha256').update(bytes).digest('hex'));
      }
    } finally {
      await new Promise<void>((done) => { server.close(() => done()); server.closeAllConnections?.(); });
      await database.close();
    }
  }, 300_000);

  it('a bucket that already holds an object (one of the manifest\'s keys, or any other) is refused before anything runs: nothing written, the folder not created', async () => {
    for (const [name, key] of [['busy-same-key', 'doc1.pdf'], ['busy-other', 'site-builds/abc.tgz']] as const) {
      const store = bucket(name);
      await store.init();
      await store.put(key, Buffer.from('already here'));
      const target = path.join(root, `refused-${name}`);
      const url = await newDatabase();
      const r = await run('restore', restoreArgs(target, url), s3Env(name));
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`Not restored: the S3 bucket "${name}" is not empty: it holds 1 object(s) (${key})`);
      expect(r.stderr).toContain('run the restore without DOCUMENT_STORE=s3 and S3_BUCKET');
      expect(await store.list()).toEqual([key]);
      const kept = await store.get(key);
      expect((await kept!.stream.toArray()).join('')).toBe('already here');
      expect(fs.existsSync(target)).toBe(false);
      if (url) expect(await tableCount(url)).toBe(0);
    }
  }, 300_000);

  it('a document whose bytes differ from the manifest\'s SHA-256 writes nothing into the bucket, and the target is left as it was', async () => {
    const unpacked = path.join(root, 'unpacked');
    fs.mkdirSync(unpacked);
    await tar.x({ file: archive, cwd: unpacked });
    const file = path.join(unpacked, 'uploads', 'doc2.pdf');
    const bytes = fs.readFileSync(file);
    bytes[20] ^= 0xff; // same size, one byte changed
    fs.writeFileSync(file, bytes);
    const tampered = path.join(root, 'tampered.tgz');
    await tar.c({ gzip: true, file: tampered, cwd: unpacked, portable: true }, fs.readdirSync(unpacked));
    const store = bucket('tampered');
    await store.init();
    const target = path.join(root, 'tampered-target');
    fs.mkdirSync(target);
    const url = await newDatabase();
    const r = await run('restore', [tampered, ...restoreArgs(target, url).slice(1)], s3Env('tampered'));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('document upload-doc2 (uploads/doc2.pdf) differs from the manifest');
    expect(await store.list()).toEqual([]);
    expect(fs.readdirSync(target)).toEqual([]);
    if (url) expect(await tableCount(url)).toBe(0);
  }, 300_000);

  it('a bucket that fails midway: what was written is deleted again, the database undone, and the message says how many were written and to run the restore again', async () => {
    const real = bucket('flaky');
    let puts = 0;
    // The first document is stored, the second put fails as an unreachable service would (the restore's marker,
    // written before them, is stored and not counted).
    const flaky: DocumentStore = Object.assign(Object.create(real), {
      put: async (...args: Parameters<DocumentStore['put']>) => {
        if (args[0] === 'RESTORE-INCOMPLETE') return real.put(...args);
        if (++puts === 2) throw Object.assign(new Error('connect ECONNRESET'), { name: 'TimeoutError' });
        await new Promise((r) => setTimeout(r, 50));
        return real.put(...args);
      },
    });
    const target = path.join(root, 'flaky-target');
    const url = await newDatabase();
    const failed = await restoreBackup(archive, target, { url, allowSuperuser: true, store: flaky }).then(() => undefined, (err) => err as Error);
    expect(failed?.message).toContain('writing the documents into the S3 bucket "flaky" failed after 1 of 2 were written');
    expect(failed?.message).toContain('They were deleted again: the S3 bucket "flaky" is as it was.');
    expect(failed?.message).toContain('run the same restore again');
    expect(puts).toBe(2);
    expect(await real.list()).toEqual([]);
    expect(fs.existsSync(target)).toBe(false);
    if (url) expect(await tableCount(url)).toBe(0);

    // And the same restore, run again with the service back, succeeds.
    const again = await restoreBackup(archive, target, { url, allowSuperuser: true, store: real });
    expect(again.writtenKeys.sort()).toEqual(['doc1.pdf', 'doc2.pdf']);
    expect(await real.list()).toEqual(['doc1.pdf', 'doc2.pdf']);
  }, 300_000);

  it('--erasures-from deletes the documents of a person erased since the backup from the bucket; a refused source deletes every document the restore wrote', async () => {
    // Another college's database: the same small ids, created at other times, one of them erased.
    const otherUrl = await newDatabase();
    const other = await openDatabase(otherUrl ? { url: otherUrl } : { dataDir: path.join(root, 'other') });
    try {
      for (const email of ['a@example.com', 'b@example.com']) await other.pool.query(`insert into users (email, password_hash, first_name, last_name, created_at) values ($1, 'x', 'Other', 'College', now() - interval '400 days')`, [email]);
      await other.pool.query(`update users set email = 'erased-' || id || '@erased.invalid', erased_at = now() where email = 'b@example.com'`);
    } finally { await other.close(); }
    const wrong = path.join(root, 'erasures-wrong');
    const refusedStore = bucket('erasures-wrong');
    const wrongUrl = await newDatabase();
    const refused = await run('restore', [...restoreArgs(wrong, wrongUrl), '--erasures-from', otherUrl ?? path.join(root, 'other')], s3Env('erasures-wrong'));
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('--erasures-from names another database');
    expect(refused.stderr).toContain('The 2 document(s) this restore wrote into the S3 bucket "erasures-wrong" were deleted again.');
    expect(await refusedStore.list()).toEqual([]);
    if (wrongUrl) {
      // The --url database still holds the copy with the people erased since: the folder keeps only the marker, so
      // `npm start` on it refuses until that database is dropped and created again.
      expect(fs.readdirSync(wrong)).toEqual([RESTORE_MARKER]);
      expect(fs.readFileSync(path.join(wrong, RESTORE_MARKER), 'utf8')).toContain('The database in --url holds the restored copy with the people erased since the backup');
    } else {
      expect(fs.existsSync(wrong)).toBe(false);
    }

    // The backed-up college erases Thandi (owner of doc1) after the backup.
    const live = await openDatabase(PG ? { url: sourceDb } : { dataDir: sourceDb });
    try {
      await live.pool.query(`update users set email = 'erased-' || id || '@erased.invalid', first_name = 'Erased', last_name = 'applicant', erased_at = now() where email = 'thandi@example.com'`);
    } finally { await live.close(); }
    const target = path.join(root, 'erasures');
    const url = await newDatabase();
    const r = await run('restore', [...restoreArgs(target, url), '--erasures-from', sourceDb], s3Env('erasures'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('1 person(s) erased');
    expect(await bucket('erasures').list()).toEqual(['doc2.pdf']);
  }, 300_000);
});
