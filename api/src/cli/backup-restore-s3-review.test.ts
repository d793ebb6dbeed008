/**
 * Restore into the S3 document store after the senior review of aade6f1 (s3rver on port 4351): a tampered archive
 * cannot plant objects no upload row names (a site build under `site-builds/<hash>.tgz` that S3 nodes would serve),
 * the restored copy keeps no `shared_site_builds` row, and a bucket that fails while documents are written leaves
 * nothing behind. Runs on PGlite, and on PostgreSQL with DATABASE_URL (a new database per restore).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KIND } from '../test/harness.ts';
import type { TestS3Server } from '../test/s3-server.ts';
import { openDatabase } from '../db/client.ts';
import { restoreBackup, type BackupManifest } from '../db/backup.ts';
import { ConfigError } from '../config.ts';
import { startServer } from '../server.ts';
import type { S3DocumentStore } from '../storage/s3-store.ts';
import { MAX_UPLOAD_BYTES } from '#contracts/common.ts';
import { createS3BackupFixture, type S3BackupFixture } from './s3-backup-fixture.ts';

const S3_PORT = 4351;
const HASH = 'a'.repeat(64);

describe(`restore into S3 after the review (${DB_KIND})`, () => {
  let fx: S3BackupFixture;
  let s3: TestS3Server;
  let root = '';
  let archive = '';

  const bucket = (name: string) => fx.bucket(name);
  const newDatabase = () => fx.newDatabase();
  const tableCount = async (url: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try { return (await c.query(`select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`)).rows[0].n as number; } finally { await c.end(); }
  };
  /** Rows of `sql` in the restored copy (PGlite folder `target`, or `url`). */
  const rowsIn = async (target: string, url: string | undefined, sql: string) => {
    const db = await openDatabase(url ? { url } : { dataDir: target });
    try { return (await db.pool.query(sql)).rows; } finally { await db.close(); }
  };
  /** A copy of the archive with `files` (archive path → bytes) added under uploads/ and listed in its manifest. */
  const tamper = async (name: string, files: Record<string, Buffer>) => {
    const dir = path.join(root, `unpacked-${name}`);
    fs.mkdirSync(dir);
    await tar.x({ file: archive, cwd: dir });
    const manifest: BackupManifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    for (const [key, bytes] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, 'uploads', key)), { recursive: true });
      fs.writeFileSync(path.join(dir, 'uploads', key), bytes);
      manifest.uploads.push({ id: `planted-${key}`, key, size: bytes.length, sha256: crypto.createHash('sha256').update(bytes).digest('hex') });
    }
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
    const out = path.join(root, `${name}.tgz`);
    await tar.c({ gzip: true, file: out, cwd: dir, portable: true }, fs.readdirSync(dir));
    return out;
  };

  beforeAll(async () => {
    fx = await createS3BackupFixture({
      port: S3_PORT, tmpPrefix: 'college-restore-review-',
      // The college's S3 nodes had built the site: the row points at an object a backup never carries.
      rows: async (db) => { await db.pool.query(`insert into shared_site_builds (content_hash, status, object_key, bytes, finished_at) values ($1, 'ready', $2, 10, now())`, [HASH, `site-builds/${HASH}.tgz`]); },
    });
    ({ s3, root, archive } = fx);
  }, 300_000);
  afterAll(() => fx?.close());

  it('a normal restore leaves shared_site_builds empty (a backup never carries the site builds\' objects)', async () => {
    const target = path.join(root, 'normal');
    const url = await newDatabase();
    const r = await restoreBackup(archive, target, { url, allowSuperuser: true, store: bucket('normal') });
    expect(r.writtenKeys.sort()).toEqual(['doc1.pdf', 'doc2.pdf']);
    expect(await rowsIn(target, url, 'select content_hash from shared_site_builds')).toEqual([]);
  }, 300_000);

  it('a tampered archive planting uploads/site-builds/<hash>.tgz beside a ready shared_site_builds row is refused: nothing written', async () => {
    const tampered = await tamper('site-build', { [`site-builds/${HASH}.tgz`]: Buffer.from('<script>planted</script>') });
    for (const kind of ['s3', 'local'] as const) {
      const target = path.join(root, `site-build-${kind}`);
      const url = await newDatabase();
      const store = kind === 's3' ? bucket('site-build') : undefined;
      await store?.init();
      const failed = await restoreBackup(tampered, target, { url, allowSuperuser: true, store }).then(() => undefined, (err) => err as Error);
      expect(failed?.message).toContain(`site-builds/${HASH}.tgz`);
      expect(failed?.message).toContain('nothing was restored');
      if (store) expect(await store.list()).toEqual([]);
      expect(fs.existsSync(target)).toBe(false);
      if (url) expect(await tableCount(url)).toBe(0);
    }
  }, 300_000);

  it('a manifest key no restored upload row names is refused before any document is written, into S3 and into DATA_DIR/uploads', async () => {
    const tampered = await tamper('unnamed', { 'planted.tgz': Buffer.from('planted'), 'also-planted.pdf': Buffer.from('%PDF-planted') });
    for (const kind of ['s3', 'local'] as const) {
      const target = path.join(root, `unnamed-${kind}`);
      const url = await newDatabase();
      const real = kind === 's3' ? bucket('unnamed') : undefined;
      await real?.init();
      let puts = 0;
      const store = real && Object.assign(Object.create(real), { put: async (...args: Parameters<S3DocumentStore['put']>) => { puts++; return real.put(...args); } });
      const failed = await restoreBackup(tampered, target, { url, allowSuperuser: true, store }).then(() => undefined, (err) => err as Error);
      expect(failed?.message).toContain('no upload row of its database names: planted.tgz, also-planted.pdf');
      expect(failed?.message).toContain('nothing was restored');
      expect(puts).toBe(0);
      if (real) expect(await real.list()).toEqual([]);
      expect(fs.existsSync(target)).toBe(false);
      if (url) expect(await tableCount(url)).toBe(0);
    }
  }, 300_000);

  it('a restore killed while it writes the documents leaves DATA_DIR/RESTORE-INCOMPLETE: npm start refuses that DATA_DIR, and a rerun says what to empty', async () => {
    const target = path.join(root, 'killed');
    const url = await newDatabase();
    const real = bucket('killed');
    await real.init();
    // Killed (SIGKILL, as the OOM killer does) right after its first put reached the bucket (the restore's marker).
    const child = await fx.killedRestore(target, url, 'killed', 'first-put');
    expect(child.signal).toBe('SIGKILL');
    expect(child.stdout).not.toContain('finished');
    expect(fs.readFileSync(path.join(target, 'RESTORE-INCOMPLETE'), 'utf8')).toContain('the S3 bucket "killed"');
    expect((await real.list()).length).toBeGreaterThan(0);

    // npm start on it refuses, before opening the database, saying what to do.
    const started = await startServer({ NODE_ENV: 'test', DATA_DIR: target, ...(url ? { DATABASE_URL: url } : {}), ...s3.env, S3_BUCKET: 'killed', PORT: '0', HOST: '127.0.0.1', SITE_BUILD: 'never', SESSION_SECRET: 'restore-marker-secret-0123456789' })
      .then(async (node) => { await node.close(); return undefined; }, (err) => err as Error);
    expect(started).toBeInstanceOf(ConfigError);
    expect(started?.message).toContain(`${path.join(target, 'RESTORE-INCOMPLETE')} exists: a restore (npm run restore) into this DATA_DIR did not finish`);
    expect(started?.message).toContain('empty this folder, the database in DATABASE_URL (dropdb, createdb) and the S3 bucket the restore wrote into, then run the restore again');

    // The same restore again: refused, naming the marker and what to empty.
    const again = await restoreBackup(archive, target, { url, allowSuperuser: true, store: real }).then(() => undefined, (err) => err as Error);
    expect(again?.message).toContain(`${target} holds RESTORE-INCOMPLETE: an earlier restore into it did not finish`);
    // Into a new folder but the same bucket: the bucket's refusal says what an interrupted restore leaves.
    const other = await restoreBackup(archive, path.join(root, 'killed-2'), { url: await newDatabase(), allowSuperuser: true, store: real }).then(() => undefined, (err) => err as Error);
    expect(other?.message).toContain('If it holds what an earlier restore wrote before it was interrupted (its DATA_DIR holds RESTORE-INCOMPLETE)');
  }, 300_000);

  it('the marker is gone after a successful restore and after a failure that was undone completely', async () => {
    const target = path.join(root, 'marker-ok');
    await restoreBackup(archive, target, { url: await newDatabase(), allowSuperuser: true, store: bucket('marker-ok') });
    expect(fs.readdirSync(target)).not.toContain('RESTORE-INCOMPLETE');
    // A target that existed (empty) and a bucket failing at once: undone, the folder empty again, no marker.
    const failing = path.join(root, 'marker-undone');
    fs.mkdirSync(failing);
    const real = bucket('marker-undone');
    const store = Object.assign(Object.create(real), { put: async () => { throw new Error('connect ECONNREFUSED'); } });
    const failed = await restoreBackup(archive, failing, { url: await newDatabase(), allowSuperuser: true, store }).then(() => undefined, (err) => err as Error);
    expect(failed?.message).toContain('They were deleted again');
    expect(fs.readdirSync(failing)).toEqual([]);
  }, 300_000);

  it('a bucket that is not empty is found with one short listing (MaxKeys), never by listing it whole; the message names three keys and says there are more', async () => {
    const real = bucket('five-objects');
    await real.init();
    for (const key of ['a1', 'a2', 'a3', 'a4', 'a5']) await real.put(key, Buffer.from('x'));
    const store = Object.assign(Object.create(real), { list: async () => { throw new Error('listed the whole bucket'); } });
    const failed = await restoreBackup(archive, path.join(root, 'five'), { url: await newDatabase(), allowSuperuser: true, store }).then(() => undefined, (err) => err as Error);
    expect(failed?.message).toContain('the S3 bucket "five-objects" is not empty: it holds more than 3 object(s) (a1, a2, a3, …)');
    expect(fs.existsSync(path.join(root, 'five'))).toBe(false);
  }, 300_000);

  it('a document larger than a document can be (4 × MAX_UPLOAD_BYTES) is refused before it is read: in the manifest, and as an archive member', async () => {
    const dir = path.join(root, 'unpacked-claims-huge');
    fs.mkdirSync(dir);
    await tar.x({ file: archive, cwd: dir });
    const manifest: BackupManifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    manifest.uploads[0].size = 3 * 1024 ** 3;
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
    const claims = path.join(root, 'claims-huge.tgz');
    await tar.c({ gzip: true, file: claims, cwd: dir, portable: true }, fs.readdirSync(dir));
    const big = await tamper('member-huge', { 'big.pdf': Buffer.alloc(4 * MAX_UPLOAD_BYTES + 1) });
    for (const [name, file, said] of [['claims', claims, `lists document upload-doc1 (uploads/doc1.pdf) of ${3 * 1024 ** 3} bytes, more than a document can be`], ['member', big, `uploads/big.pdf (File of ${4 * MAX_UPLOAD_BYTES + 1} bytes, more than a document can be)`]] as const) {
      const target = path.join(root, `huge-${name}`);
      const failed = await restoreBackup(file, target, { url: await newDatabase(), allowSuperuser: true, store: bucket(`huge-${name}`) }).then(() => undefined, (err) => err as Error);
      expect(failed?.message).toContain(said);
      expect(failed?.message).toContain('nothing was restored');
      expect(fs.existsSync(target)).toBe(false);
    }
  }, 300_000);
});
