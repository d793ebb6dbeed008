/**
 * `npm run backup` and `npm run restore` (backup and restore audit: a college had no supported way to copy its data).
 * A round trip on the embedded database: a student, an application and a document survive, every session is ended,
 * a running server and a non-empty target are refused with what to do. PGlite only (the PostgreSQL path shells out
 * to pg_dump / pg_restore and is checked in db-to-postgres.test.ts's server).
 */
import { execFile, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import util from 'node:util';
import pg from 'pg';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgres } from '../test/harness.ts';
import { openDatabase } from '../db/client.ts';
import { seed } from '../db/seed.ts';
import { restoreBackup } from '../db/backup.ts';
import { newestKnownMigration } from '../db/migration-level.ts';

const cli = (name: string) => path.join(import.meta.dirname, `${name}.ts`);

/**
 * Runs a CLI as a person would (without blocking this process, whose open database renews its lock). `startedIn`: as
 * `npm run` typed in that folder, which runs the script from the checkout with INIT_CWD set to the folder.
 */
function run(name: string, args: string[], dataDir: string, startedIn?: string): Promise<{ status: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  if (startedIn) env.INIT_CWD = startedIn;
  const cwd = startedIn ? path.resolve(import.meta.dirname, '../../..') : undefined;
  return new Promise((resolve) => {
    execFile(process.execPath, [cli(name), ...args], { env, cwd, timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ status: err ? Number((err as any).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe.skipIf(!!process.env.DATABASE_URL)('backup and restore of the embedded database', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'college-backup-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('round trip: student, application and document survive; sessions are emptied; a running server and a non-empty target are refused', async () => {
    const source = path.join(root, 'source');
    const db = await openDatabase({ dataDir: source });
    await seed(db.db);
    const { rows: [student] } = await db.pool.query(`insert into users (email, password_hash, first_name, last_name) values ('thandi@example.com', 'x', 'Thandi', 'Mokoena') returning id`);
    const { rows: [course] } = await db.pool.query('select id from courses order by id limit 1');
    const { rows: [application] } = await db.pool.query('insert into applications (user_id, course_id, payment_amount) values ($1, $2, 50) returning id', [student.id, course.id]);
    await db.pool.query(`insert into uploads (id, user_id, original_name, stored_name, mime, size) values ('doc1', $1, 'id.pdf', 'doc1.pdf', 'application/pdf', 9)`, [student.id]);
    fs.mkdirSync(path.join(source, 'uploads'), { recursive: true });
    fs.writeFileSync(path.join(source, 'uploads', 'doc1.pdf'), '%PDF-1.4\n');
    await db.pool.query(`insert into session (sid, sess, expire) values ('s1', '{}', now() + interval '1 day')`);

    const archive = path.join(root, 'college.tgz');
    const refused = await run('backup', ['--out', archive], source);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('Stop the server, then run the backup again');
    expect(fs.existsSync(archive)).toBe(false);
    await db.close();

    const backup = await run('backup', ['--out', archive], source);
    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toContain('1 document(s)');

    const target = path.join(root, 'restored');
    const restore = await run('restore', [archive, '--data-dir', target], target);
    expect(restore.status, restore.stderr).toBe(0);
    expect(restore.stdout).toContain('1 session(s) ended');
    expect(fs.readFileSync(path.join(target, 'uploads', 'doc1.pdf'), 'utf8')).toBe('%PDF-1.4\n');
    const restored = await openDatabase({ dataDir: target });
    try {
      expect((await restored.pool.query(`select first_name from users where email = 'thandi@example.com'`)).rows).toEqual([{ first_name: 'Thandi' }]);
      expect((await restored.pool.query('select user_id from applications where id = $1', [application.id])).rows).toEqual([{ user_id: student.id }]);
      expect((await restored.pool.query(`select stored_name from uploads where id = 'doc1'`)).rows).toEqual([{ stored_name: 'doc1.pdf' }]);
      expect((await restored.pool.query('select count(*)::int as n from session')).rows).toEqual([{ n: 0 }]);
    } finally { await restored.close(); }

    const again = await run('restore', [archive, '--data-dir', target], target);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('is not empty: restore into a new (or empty) folder');
  }, 300_000);
});

describe.skipIf(!!process.env.DATABASE_URL)('backup and restore from another folder, and a backup lacking documents (operations audit)', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'college-backup-ops-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  const ops = path.join(root, 'ops');

  beforeAll(async () => {
    fs.mkdirSync(ops);
    const db = await openDatabase({ dataDir: path.join(ops, 'source') });
    const { rows: [student] } = await db.pool.query(`insert into users (email, password_hash, first_name, last_name) values ('thandi@example.com', 'x', 'Thandi', 'Mokoena') returning id`);
    await db.pool.query(`insert into uploads (id, user_id, original_name, stored_name, mime, size) values ('doc1', $1, 'id.pdf', 'doc1.pdf', 'application/pdf', 9), ('doc2', $1, 'matric.pdf', 'doc2.pdf', 'application/pdf', 9)`, [student.id]);
    fs.mkdirSync(path.join(ops, 'source', 'uploads'), { recursive: true });
    fs.writeFileSync(path.join(ops, 'source', 'uploads', 'doc1.pdf'), '%PDF-1.4\n');
    fs.writeFileSync(path.join(ops, 'source', 'uploads', 'doc2.pdf'), '%PDF-1.4\n');
    await db.close();
  }, 300_000);

  it('relative DATA_DIR, --out, archive and --data-dir are taken from the folder npm was started in (INIT_CWD), not the checkout npm runs the script from', async () => {
    const backup = await run('backup', ['--out', 'college.tgz'], 'source', ops);
    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toContain('2 document(s)');
    expect(fs.existsSync(path.join(ops, 'college.tgz'))).toBe(true);
    const restore = await run('restore', ['college.tgz', '--data-dir', 'restored'], 'unused', ops);
    expect(restore.status, restore.stderr).toBe(0);
    expect(fs.readFileSync(path.join(ops, 'restored', 'pgdata', 'PG_VERSION'), 'utf8')).toMatch(/^\d+/);
    expect(restore.stdout).toContain(`Start it with: DATA_DIR=${path.join(ops, 'restored')} npm start`);
  }, 300_000);

  it('documents missing from the store: exit 1, "Backup INCOMPLETE", the archive kept; none found names the store settings; --allow-missing exits 0', async () => {
    fs.rmSync(path.join(ops, 'source', 'uploads', 'doc2.pdf'));
    const some = await run('backup', ['--out', path.join(root, 'some.tgz')], path.join(ops, 'source'));
    expect(some.status, some.stdout).toBe(1);
    expect(some.stdout).not.toContain('Backup written');
    expect(some.stderr).toContain('Backup INCOMPLETE');
    expect(some.stderr).toContain('1 of 2 upload(s) the database references had no document');
    expect(some.stderr).not.toContain('probably not the nodes');
    expect(fs.existsSync(path.join(root, 'some.tgz'))).toBe(true);

    fs.rmSync(path.join(ops, 'source', 'uploads', 'doc1.pdf'));
    const none = await run('backup', ['--out', path.join(root, 'none.tgz')], path.join(ops, 'source'));
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('2 of 2 upload(s) the database references had no document in the local document store');
    expect(none.stderr).toContain('the same DOCUMENT_STORE and S3_* settings');

    const allowed = await run('backup', ['--out', path.join(root, 'allowed.tgz'), '--allow-missing'], path.join(ops, 'source'));
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(allowed.stdout).toContain('Backup written');
    expect(allowed.stderr).toContain('WARNING: 2 of 2 upload(s)');
  }, 300_000);
});

describe.skipIf(!!process.env.DATABASE_URL)('a backup of the embedded database holds no erased data (privacy audit F2)', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'college-backup-erased-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('an ID number and address overwritten before the backup are not in the archive; the live folder is only read (not a byte or mtime changed)', async () => {
    const source = path.join(root, 'source');
    const idNumber = '0104125800086';
    const street = '7 Muofhe Zwivhuya Street';
    let db = await openDatabase({ dataDir: source });
    await db.pool.query(`insert into users (email, password_hash, first_name, last_name, id_number, address_line1) values ('divhani@example.com', 'x', 'Divhani', 'Nemakonde', $1, $2)`, [idNumber, street]);
    await db.close();
    db = await openDatabase({ dataDir: source });
    await db.pool.query(`update users set email = 'erased-1@erased.invalid', first_name = 'Erased', last_name = 'applicant', id_number = null, address_line1 = null where email = 'divhani@example.com'`);
    await db.close();
    const holding = (dir: string) => fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name)).filter((f) => { const b = fs.readFileSync(f); return b.includes(idNumber) || b.includes(street); })
      .map((f) => path.relative(dir, f));
    expect(holding(path.join(source, 'pgdata')).length).toBeGreaterThan(0);
    // Every file of the live folder: name, size, mtime and SHA-256.
    const files = (dir: string) => fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name)).sort()
      .map((f) => ({ file: path.relative(dir, f), size: fs.statSync(f).size, mtimeMs: fs.statSync(f).mtimeMs, sha256: crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex') }));
    const live = files(path.join(source, 'pgdata'));

    const archive = path.join(root, 'college.tgz');
    const backup = await run('backup', ['--out', archive], source);
    expect(backup.status, backup.stderr).toBe(0);
    const unpacked = path.join(root, 'unpacked');
    fs.mkdirSync(unpacked);
    await tar.x({ file: archive, cwd: unpacked });
    expect(holding(unpacked)).toEqual([]);
    // The backup compacts a copy, never the live folder (a VACUUM FULL there could outlast the folder's lock while
    // `npm start` took it over); so the live folder keeps the old row versions until PostgreSQL reuses their space.
    expect(files(path.join(source, 'pgdata'))).toEqual(live);
    expect(holding(path.join(source, 'pgdata')).length).toBeGreaterThan(0);
    const restored = await openDatabase({ dataDir: source });
    try {
      expect((await restored.pool.query(`select first_name, id_number from users where email = 'erased-1@erased.invalid'`)).rows).toEqual([{ first_name: 'Erased', id_number: null }]);
    } finally { await restored.close(); }
  }, 300_000);
});

describe.skipIf(!!process.env.DATABASE_URL)('restore --erasures-from carries out again the erasures made since the backup (privacy audit F2)', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'college-restore-erasures-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('a person erased and an account deleted after the backup do not come back; others do; without the option the restore warns', async () => {
    const source = path.join(root, 'source');
    let db = await openDatabase({ dataDir: source });
    await seed(db.db);
    const person = async (email: string, first: string) => (await db.pool.query(`insert into users (email, password_hash, first_name, last_name, id_number, address_line1) values ($1, 'x', $2, 'Nemakonde', '0104125800086', '7 Muofhe Street') returning id`, [email, first])).rows[0].id as number;
    const [erased, deleted, kept] = [await person('divhani@example.com', 'Divhani'), await person('gone@example.com', 'Gone'), await person('kept@example.com', 'Kept')];
    const { rows: [course] } = await db.pool.query('select id from courses order by id limit 1');
    await db.pool.query('insert into applications (user_id, course_id, payment_amount, personal) values ($1, $2, 50, $3)', [erased, course.id, JSON.stringify({ firstName: 'Divhani' })]);
    await db.pool.query(`insert into uploads (id, user_id, original_name, stored_name, mime, size) values ('docE', $1, 'id.pdf', 'docE.pdf', 'application/pdf', 9), ('docK', $2, 'id.pdf', 'docK.pdf', 'application/pdf', 9)`, [erased, kept]);
    fs.mkdirSync(path.join(source, 'uploads'), { recursive: true });
    for (const k of ['docE.pdf', 'docK.pdf']) fs.writeFileSync(path.join(source, 'uploads', k), '%PDF-1.4\n');
    await db.pool.query(`insert into erasure_requests (user_id, reason) values ($1, 'Please delete me')`, [erased]);
    await db.close();
    const archive = path.join(root, 'before-erasure.tgz');
    expect((await run('backup', ['--out', archive], source)).status).toBe(0);

    db = await openDatabase({ dataDir: source });
    await db.pool.query(`update users set email = 'erased-' || id || '@erased.invalid', first_name = 'Erased', last_name = 'applicant', id_number = null, address_line1 = null, erased_at = now() where id = $1`, [erased]);
    await db.pool.query(`update erasure_requests set status = 'done', resolved_at = now() where user_id = $1`, [erased]);
    await db.pool.query('delete from users where id = $1', [deleted]);
    await db.close();

    const plain = path.join(root, 'plain');
    const warned = await run('restore', [archive, '--data-dir', plain], plain);
    expect(warned.status, warned.stderr).toBe(0);
    expect(warned.stderr).toContain('people erased (or accounts deleted) after this backup was taken are back in the restored copy');

    const target = path.join(root, 'restored');
    const restore = await run('restore', [archive, '--data-dir', target, '--erasures-from', source], target);
    expect(restore.status, restore.stderr).toBe(0);
    expect(restore.stdout).toContain('1 person(s) erased, 1 deleted account(s) removed');
    expect(restore.stdout).toMatch(new RegExp(`Erasing again: user ${erased} \\(created 20\\d\\d-[^)]*Z\\)\\.\\nDeleting again \\(accounts deleted since the backup\\): user ${deleted} \\(created `));
    const restored = await openDatabase({ dataDir: target });
    try {
      const users = (await restored.pool.query(`select id, email, first_name, id_number from users where id = any($1) order by id`, [[erased, deleted, kept]])).rows;
      expect(users).toEqual([
        { id: erased, email: `erased-${erased}@erased.invalid`, first_name: 'Erased', id_number: null },
        { id: kept, email: 'kept@example.com', first_name: 'Kept', id_number: '0104125800086' },
      ]);
      expect((await restored.pool.query('select personal from applications where user_id = $1', [erased])).rows).toEqual([{ personal: { firstName: 'Erased', lastName: 'applicant' } }]);
      expect((await restored.pool.query('select status from erasure_requests where user_id = $1', [erased])).rows).toEqual([{ status: 'done' }]);
    } finally { await restored.close(); }
    expect(fs.existsSync(path.join(target, 'uploads', 'docE.pdf'))).toBe(false);
    expect(fs.existsSync(path.join(target, 'uploads', 'docK.pdf'))).toBe(true);

    // Another college's database (its users have the same small ids, created at other times; it erased its user
    // `deleted`): refused, nothing erased, and the copy that would bring back the people erased since is not left.
    const other = path.join(root, 'other');
    db = await openDatabase({ dataDir: other });
    await seed(db.db);
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) await person(email, 'Other');
    await db.pool.query(`update users set email = 'erased-' || id || '@erased.invalid' where id = $1`, [deleted]);
    await db.close();
    const wrong = path.join(root, 'wrong');
    const refused = await run('restore', [archive, '--data-dir', wrong, '--erasures-from', other], wrong);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('--erasures-from names another database');
    expect(refused.stderr).toContain('Nothing was erased or deleted');
    expect(fs.existsSync(wrong)).toBe(false);
  }, 300_000);
});

describe('backup on PostgreSQL keeps the password of DATABASE_URL out of every message', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'college-backup-pw-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  const password = 'Sup3r-Secret-pw';
  let url = '';
  let drop = async () => {};
  beforeAll(async () => {
    // A throw-away database with the two tables a backup reads before it runs pg_dump.
    const fresh = await freshPostgres(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
    drop = fresh.drop;
    const c = new pg.Client({ connectionString: fresh.url });
    await c.connect();
    await c.query('create table uploads (id text, stored_name text, created_at timestamptz); create schema drizzle; create table drizzle.__drizzle_migrations (id serial, hash text, created_at bigint)');
    await c.end();
    const u = new URL(fresh.url);
    u.password = password;
    url = u.toString();
  });
  afterAll(() => drop());

  // A pg_dump that answers --version and otherwise fails, printing its arguments and the PG* environment, like a
  // real one refusing a connection would print the target.
  const bin = path.join(root, 'bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, 'pg_dump'), '#!/bin/sh\nif [ "$1" = "--version" ]; then echo "pg_dump (PostgreSQL) 99"; exit 0; fi\necho "pg_dump: error: connection failed: args $*" >&2\nenv | grep "^PG" >&2\nexit 1\n', { mode: 0o755 });
  const PATH = `${bin}${path.delimiter}${process.env.PATH}`;

  it('a failing pg_dump: the error (message and inspect) and the CLI output name no password', async () => {
    const { createBackup, BackupError } = await import('../db/backup.ts');
    const { loadConfig } = await import('../config.ts');
    const oldPath = process.env.PATH;
    process.env.PATH = PATH;
    let caught: any;
    try {
      await createBackup({ ...loadConfig(), DATABASE_URL: url, dataDir: root } as any, path.join(root, 'a.tgz'));
    } catch (err) { caught = err; } finally { process.env.PATH = oldPath; }
    expect(caught.message).toContain('pg_dump failed');
    expect(caught.message).not.toContain(password);
    expect(caught).toBeInstanceOf(BackupError);
    expect(util.inspect(caught, { depth: 5 })).not.toContain(password);

    const env: NodeJS.ProcessEnv = { ...process.env, PATH, DATABASE_URL: url, DATA_DIR: root };
    const printed = await new Promise<{ status: number; out: string }>((resolve) => {
      execFile(process.execPath, [cli('backup'), '--out', path.join(root, 'b.tgz')], { env, timeout: 120_000 }, (err, stdout, stderr) => {
        resolve({ status: err ? Number((err as any).code ?? 1) : 0, out: stdout + stderr });
      });
    });
    expect(printed.status).toBe(1);
    expect(printed.out).toContain('Backup not written');
    expect(printed.out).not.toContain(password);
  }, 120_000);
});

describe('backup archives stay out of git (operations audit)', () => {
  it("the README's `--out college-$(date +%F).tgz`, written into the checkout, is git-ignored, and no archive is committed", () => {
    const repo = path.resolve(import.meta.dirname, '../../..');
    for (const archive of ['college-2026-11-27.tgz', 'api/college.tgz']) {
      const ignored = spawnSync('git', ['check-ignore', '-q', '--no-index', archive], { cwd: repo });
      expect(ignored.status, `git check-ignore ${archive}: 0 = ignored, 1 = not ignored`).toBe(0);
    }
    expect(spawnSync('git', ['ls-files', '*.tgz'], { cwd: repo, encoding: 'utf8' }).stdout).toBe('');
  });
});

describe('a backup made by a newer release (rolling-deploy audit F4)', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'college-backup-newer-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('is refused before anything is written, naming the reason, instead of restoring a copy this release cannot start', async () => {
    const work = path.join(root, 'archive');
    fs.mkdirSync(work);
    fs.writeFileSync(path.join(work, 'manifest.json'), JSON.stringify({
      format: 'college-portal-backup', version: 1, createdAt: new Date().toISOString(),
      database: { kind: 'pglite', file: 'pgdata.tar', migrations: 99, lastMigration: newestKnownMigration() + 86_400_000 },
      uploads: [], missing: [],
    }));
    fs.writeFileSync(path.join(work, 'pgdata.tar'), 'not read');
    const archive = path.join(root, 'newer.tgz');
    await tar.c({ gzip: true, file: archive, cwd: work }, ['manifest.json', 'pgdata.tar']);
    const target = path.join(root, 'restored');
    await expect(restoreBackup(archive, target)).rejects.toThrow('was made by a newer release of the portal');
    expect(fs.existsSync(target)).toBe(false);
  });
});

describe('a backup of the embedded database given --url (review of the restore marker, 2026-11-28)', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'college-backup-pglite-url-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('is refused before anything is written: it restores into DATA_DIR/pgdata, and the --url database would have been the one cleaned of the restore marker', async () => {
    const work = path.join(root, 'archive');
    fs.mkdirSync(work);
    fs.writeFileSync(path.join(work, 'manifest.json'), JSON.stringify({
      format: 'college-portal-backup', version: 1, createdAt: new Date().toISOString(),
      database: { kind: 'pglite', file: 'pgdata.tar', migrations: 1, lastMigration: null },
      uploads: [], missing: [],
    }));
    fs.writeFileSync(path.join(work, 'pgdata.tar'), 'not read');
    const archive = path.join(root, 'embedded.tgz');
    await tar.c({ gzip: true, file: archive, cwd: work }, ['manifest.json', 'pgdata.tar']);
    const target = path.join(root, 'restored');
    await expect(restoreBackup(archive, target, { url: 'postgres://postgres@127.0.0.1:1/unused' })).rejects.toThrow('is a backup of the embedded database: it is restored into');
    expect(fs.existsSync(target)).toBe(false);
  });
});
