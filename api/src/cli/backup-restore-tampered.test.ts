/**
 * Restore of tampered archives and the backup's part file (security review of backup and restore, findings A–D).
 * A: an archive with a symbolic link (a document linked to the database's files, or `uploads` itself a link) is
 * refused and the target left as it was; the local document store never serves a link planted another way.
 * B (PostgreSQL): a dump with a function run from a CHECK constraint, or with no portal tables, is refused and the
 * database emptied again; a superuser --url is refused unless allowed; a real backup still restores as the database
 * owner. C: a pre-created `<out>.part` is neither written nor followed. D: the CLI's messages.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { freshPostgres } from '../test/harness.ts';
import { openDatabase } from '../db/client.ts';
import { createBackup, restoreBackup } from '../db/backup.ts';
import { loadConfig } from '../config.ts';
import { resolveSessionSecret } from '../auth/session-secret.ts';
import { LocalDocumentStore } from '../storage/local-store.ts';

const cli = (name: string) => path.join(import.meta.dirname, `${name}.ts`);

/** Runs a CLI as a person would (without the test's DATABASE_URL unless `env` gives one). */
function run(name: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ status: number; stdout: string; stderr: string }> {
  const full: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!env.DATABASE_URL) delete full.DATABASE_URL;
  return new Promise((resolve) => {
    execFile(process.execPath, [cli(name), ...args], { env: full, timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ status: err ? Number((err as any).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/**
 * Unpacks `archive` into a new folder, lets `change` alter it, and packs the result (links kept as links) as `out`:
 * the members `change` returns, in that order, or the whole folder.
 */
async function tamper(archive: string, out: string, change: (dir: string) => string[] | void): Promise<string> {
  const dir = fs.mkdtempSync(path.join(path.dirname(out), 'unpacked-'));
  await tar.x({ file: archive, cwd: dir });
  const members = change(dir) ?? fs.readdirSync(dir);
  await tar.c({ gzip: true, file: out, cwd: dir, portable: true }, members);
  return out;
}

/** Runs one SQL text on `url` in its own connection; returns pg's result. */
async function exec(url: string, sql: string): Promise<any> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try { return await c.query(sql); } finally { await c.end(); }
}

/**
 * A new empty database owned by `role` (not a superuser), created through `admin` (a superuser URL); its drop is
 * pushed on `drops`. Returns its URL as `role` (`url`) and as the superuser (`dba`, a DBA's connection).
 */
async function ownedDatabase(admin: string, role: string, drops: Array<() => Promise<void>>): Promise<{ url: string; dba: string }> {
  const name = `t_${crypto.randomBytes(6).toString('hex')}`;
  await exec(admin, `create database ${name} owner ${role}`);
  drops.push(() => exec(admin, `drop database if exists ${name} with (force)`));
  const u = new URL(admin);
  const dba = new URL(admin);
  dba.pathname = `/${name}`;
  u.username = role;
  u.pathname = `/${name}`;
  return { url: u.toString(), dba: dba.toString() };
}

describe('a local document store never serves a symbolic link (security review A)', () => {
  it('a key that is a link, or under a linked folder, is missing: get, exists and list', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'college-store-link-'));
    onTestFinished(() => fs.rmSync(root, { recursive: true, force: true }));
    fs.writeFileSync(path.join(root, 'users-table'), 'argon2 hashes');
    fs.mkdirSync(path.join(root, 'secret'));
    fs.writeFileSync(path.join(root, 'secret', 'x.pdf'), 'secret');
    const store = new LocalDocumentStore(path.join(root, 'uploads'));
    await store.init();
    await store.put('own.pdf', Buffer.from('%PDF own'));
    fs.symlinkSync('../users-table', path.join(root, 'uploads', 'doc.pdf'));
    fs.symlinkSync('../secret', path.join(root, 'uploads', 'tus'));
    expect(await store.get('doc.pdf')).toBeUndefined();
    expect(await store.get('tus/x.pdf')).toBeUndefined();
    expect(await store.exists('doc.pdf')).toBe(false);
    expect(await store.exists('tus/x.pdf')).toBe(false);
    expect(await store.list()).toEqual(['own.pdf']);
    const own = await store.get('own.pdf');
    expect(own?.size).toBe(8);
    own?.stream.destroy();
  });
});

describe.skipIf(!!process.env.DATABASE_URL)('restore refuses an embedded-database archive with links; backup never writes a prepared part file', () => {
  let root = '';
  let source = '';
  let archive = '';
  afterAll(() => { if (root) fs.rmSync(root, { recursive: true, force: true }); });

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'college-tampered-'));
    source = path.join(root, 'source');
    archive = path.join(root, 'college.tgz');
    const db = await openDatabase({ dataDir: source });
    const { rows: [user] } = await db.pool.query(`insert into users (email, password_hash, first_name, last_name) values ('mallory@example.com', 'x', 'M', 'Allory') returning id`);
    // Mallory's own upload row, whose document is not in the store: the manifest lists it as missing, not in uploads.
    await db.pool.query(`insert into uploads (id, user_id, original_name, stored_name, mime, size) values ('evil', $1, 'a.pdf', 'evil.pdf', 'application/pdf', 9)`, [user.id]);
    await db.close();
    await createBackup({ ...loadConfig(), DATABASE_URL: undefined, dataDir: source } as any, archive);
  }, 300_000);

  it('a document linked to the database files, `uploads` itself a link, and an entry written through a link: refused, the target left as it was', async () => {
    const cases: Array<[string, (dir: string) => string[] | void]> = [
      ['uploads-link.tgz', (dir) => fs.symlinkSync('../pgdata/PG_VERSION', path.join(dir, 'uploads', 'evil.pdf'))],
      ['uploads-is-link.tgz', (dir) => { fs.rmSync(path.join(dir, 'uploads'), { recursive: true }); fs.symlinkSync('pgdata', path.join(dir, 'uploads')); }],
      // The link first, then a file whose path goes through it (tar.c reads uploads/l/planted through the link).
      ['through-link.tgz', (dir) => {
        fs.writeFileSync(path.join(dir, 'planted'), 'x');
        fs.symlinkSync('..', path.join(dir, 'uploads', 'l'));
        return ['manifest.json', 'pgdata.tar', 'uploads/l', 'uploads/l/planted'];
      }],
    ];
    for (const [name, change] of cases) {
      const bad = await tamper(archive, path.join(root, name), change);
      const target = path.join(root, `restored-${name}`);
      const err = await restoreBackup(bad, target).then(() => undefined, (e) => e);
      expect(err?.message, name).toContain('symbolic link');
      expect(err?.message, name).not.toContain('ENOTEMPTY');
      expect(fs.existsSync(target), name).toBe(false);
    }
    // An existing empty target stays empty.
    const empty = path.join(root, 'empty');
    fs.mkdirSync(empty);
    const printed = await run('restore', [path.join(root, 'uploads-link.tgz'), '--data-dir', empty]);
    expect(printed.status).toBe(1);
    expect(printed.stderr).toContain('Not restored:');
    expect(printed.stderr).toContain('uploads/evil.pdf (symbolic link to ../pgdata/PG_VERSION)');
    expect(printed.stderr).not.toMatch(/\n\s+at /);
    expect(fs.readdirSync(empty)).toEqual([]);
  }, 300_000);

  it('a database at another migration level than its manifest says is refused, the target left as it was', async () => {
    const changed = await tamper(archive, path.join(root, 'level.tgz'), (dir) => {
      const file = path.join(dir, 'manifest.json');
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
      manifest.database.migrations -= 1;
      fs.writeFileSync(file, JSON.stringify(manifest));
    });
    const target = path.join(root, 'level');
    await expect(restoreBackup(changed, target)).rejects.toThrow('is at migration level');
    expect(fs.existsSync(target)).toBe(false);
  }, 300_000);

  it('the untampered archive restores, and the start command is shell-quoted', async () => {
    const target = path.join(root, "new college's data");
    const r = await run('restore', [archive, '--data-dir', target]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Start it with: DATA_DIR='${root}/new college'\\''s data' npm start`);
    expect(fs.readFileSync(path.join(target, 'pgdata', 'PG_VERSION'), 'utf8')).toMatch(/^\d+/);
  }, 300_000);

  it('--erasures-from naming an embedded database open in a running server says to stop it and run the restore again', async () => {
    const db = await openDatabase({ dataDir: source });
    try {
      const target = path.join(root, 'erasures-locked');
      const r = await run('restore', [archive, '--data-dir', target, '--erasures-from', source]);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('Stop that server, then run the restore again');
      expect(r.stderr).not.toContain('run the backup again');
      expect(fs.existsSync(target)).toBe(false);
    } finally { await db.close(); }
  }, 300_000);

  it('a part file another user prepared beside the archive (a link to their file) is neither written nor followed', async () => {
    const out = path.join(root, 'shared', 'college.tgz');
    fs.mkdirSync(path.dirname(out));
    const theirs = path.join(root, 'theirs.tgz');
    fs.symlinkSync(theirs, `${out}.part`);
    await createBackup({ ...loadConfig(), DATABASE_URL: undefined, dataDir: source } as any, out);
    expect(fs.existsSync(theirs)).toBe(false);
    expect(fs.lstatSync(out).isFile()).toBe(true);
    expect(fs.statSync(out).mode & 0o777).toBe(0o600);
    const list: string[] = [];
    await tar.t({ file: out, onReadEntry: (e) => { list.push(e.path); } });
    expect(list).toContain('manifest.json');
  }, 300_000);
});

describe.skipIf(!process.env.DATABASE_URL)('restore of a tampered PostgreSQL backup (security review B)', () => {
  const admin = process.env.DATABASE_URL!;
  let root = '';
  const marker = path.join(os.tmpdir(), `college-pwned-${crypto.randomBytes(4).toString('hex')}`);
  const role = `r_${crypto.randomBytes(5).toString('hex')}`;
  const drops: Array<() => Promise<void>> = [];
  const ownedDb = async () => (await ownedDatabase(admin, role, drops)).url;
  const fresh = async () => { const f = await freshPostgres(admin); drops.push(f.drop); return f.url; };
  const tableCount = async (url: string) => (await exec(url, `select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`)).rows[0].n;
  const backupOf = async (url: string, name: string) => {
    const out = path.join(root, name);
    await createBackup({ ...loadConfig(), DATABASE_URL: url, dataDir: root } as any, out);
    return out;
  };
  let good = '';
  let evil = '';
  let alien = '';

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'college-pg-tampered-'));
    await exec(admin, `create role ${role} login`);
    const source = await fresh();
    const db = await openDatabase({ url: source });
    await db.pool.query(`insert into users (email, password_hash, first_name, last_name) values ('thandi@example.com', 'x', 'Thandi', 'Mokoena')`);
    await db.close();
    good = await backupOf(source, 'good.tgz');
    // The reviewer's attack: a plpgsql function with COPY … TO PROGRAM, called from a CHECK constraint of a table with
    // one row. It runs the program only outside the source database, so building the dump runs nothing.
    const dbName = new URL(source).pathname.slice(1);
    await exec(source, `create function evil() returns boolean language plpgsql as $f$ begin
        if current_database() <> '${dbName}' then execute 'copy (select 1) to program ''touch ${marker}'''; end if; return true; end $f$;
      create table pwn (a int check (evil())); insert into pwn values (1)`);
    evil = await backupOf(source, 'evil.tgz');
    // A database without the portal's tables, but the two a backup reads.
    const other = await fresh();
    await exec(other, 'create table uploads (id text, stored_name text, created_at timestamptz); create schema drizzle; create table drizzle.__drizzle_migrations (id serial, hash text, created_at bigint)');
    alien = await backupOf(other, 'alien.tgz');
  }, 300_000);
  afterAll(async () => {
    for (const drop of drops) await drop().catch(() => {});
    await exec(admin, `drop role if exists ${role}`).catch(() => {});
    if (root) fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(marker, { force: true });
  });

  it('a real backup restores as the database owner: tables, functions, extensions and rows', async () => {
    const url = await ownedDb();
    const r = await restoreBackup(good, path.join(root, 'good'), { url });
    expect(r.kind).toBe('postgres');
    expect((await exec(url, `select first_name from users where email = 'thandi@example.com'`)).rows).toEqual([{ first_name: 'Thandi' }]);
    expect((await exec(url, `select upload_refs('{"a":"x"}'::jsonb) is not null as ok`)).rows).toEqual([{ ok: true }]);
  }, 120_000);

  it('a superuser --url is refused before anything is restored, unless allowed', async () => {
    const url = await fresh();
    await expect(restoreBackup(good, path.join(root, 'su'), { url })).rejects.toThrow('a superuser');
    expect(await tableCount(url)).toBe(0);
    await restoreBackup(good, path.join(root, 'su-allowed'), { url, allowSuperuser: true });
    expect((await exec(url, 'select count(*)::int as n from users')).rows[0].n).toBe(1);
  }, 120_000);

  it('a dump with a function called from a CHECK constraint of its own table runs nothing: both are left out, also with --allow-superuser, and the portal restores', async () => {
    for (const [url, allowSuperuser] of [[await fresh(), true], [await ownedDb(), false]] as const) {
      const r = await restoreBackup(evil, path.join(root, `evil-${allowSuperuser}`), { url, allowSuperuser });
      expect(r.leftOut).toEqual(expect.arrayContaining(['FUNCTION public evil()', 'TABLE public pwn', 'TABLE DATA public pwn']));
      expect(fs.existsSync(marker)).toBe(false);
      expect((await exec(url, `select to_regclass('public.pwn') as t, to_regprocedure('public.evil()') as f`)).rows).toEqual([{ t: null, f: null }]);
      expect((await exec(url, 'select count(*)::int as n from users')).rows[0].n).toBe(1);
    }
    const printed = await run('restore', [evil, '--data-dir', path.join(root, 'evil-cli'), '--url', await ownedDb()]);
    expect(printed.status, printed.stderr).toBe(0);
    expect(printed.stderr).toContain('Left out, not part of the portal: FUNCTION public evil(), TABLE public pwn');
    expect(printed.stderr).not.toContain('altered');
    expect(fs.existsSync(marker)).toBe(false);
  }, 120_000);

  it('a portal table that needs a function the portal lacks (a CHECK calling it) is refused before anything runs', async () => {
    const source = await fresh();
    const db = await openDatabase({ url: source });
    await db.pool.query(`insert into users (email, password_hash, first_name, last_name) values ('sipho@example.com', 'x', 'Sipho', 'Dlamini')`);
    await db.close();
    const dbName = new URL(source).pathname.slice(1);
    await exec(source, `create function evil() returns boolean language plpgsql as $f$ begin
        if current_database() <> '${dbName}' then execute 'copy (select 1) to program ''touch ${marker}'''; end if; return true; end $f$;
      alter table users add constraint users_evil check (evil())`);
    const bad = await backupOf(source, 'evil-users.tgz');
    const url = await fresh();
    await expect(restoreBackup(bad, path.join(root, 'evil-users'), { url, allowSuperuser: true })).rejects.toThrow('TABLE public users (part of the portal) needs FUNCTION public evil()');
    expect(fs.existsSync(marker)).toBe(false);
    expect(await tableCount(url)).toBe(0);
  }, 120_000);

  it('an unexpected failure (no server at --url) prints its message only, without the stack', async () => {
    const printed = await run('restore', [good, '--data-dir', path.join(root, 'unreachable'), '--url', 'postgres://nobody:Pw-Secret-1@127.0.0.1:1/none']);
    expect(printed.status).toBe(1);
    expect(printed.stderr).toContain('Not restored: connect ECONNREFUSED 127.0.0.1:1');
    expect(printed.stderr).not.toMatch(/\n\s+at /);
    expect(printed.stderr).not.toContain('Pw-Secret-1');
  }, 120_000);

  it('a dump at another migration level than its manifest says is undone after pg_restore: the database is empty again', async () => {
    const changed = await tamper(good, path.join(root, 'level.tgz'), (dir) => {
      const file = path.join(dir, 'manifest.json');
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
      manifest.database.migrations -= 1;
      fs.writeFileSync(file, JSON.stringify(manifest));
    });
    const url = await ownedDb();
    await expect(restoreBackup(changed, path.join(root, 'level'), { url })).rejects.toThrow('The restore was undone');
    expect(await tableCount(url)).toBe(0);
    expect((await exec(url, `select count(*)::int as n from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public'`)).rows[0].n).toBe(0);
  }, 120_000);

  it('a dump without the portal\'s tables is refused', async () => {
    const url = await ownedDb();
    await expect(restoreBackup(alien, path.join(root, 'alien'), { url })).rejects.toThrow('not a backup of this portal');
    expect(await tableCount(url)).toBe(0);
  }, 120_000);
});

describe.skipIf(!process.env.DATABASE_URL)('a PostgreSQL backup with objects a DBA added, and a restore into a database that is not empty (review of 2026-11-27)', () => {
  const admin = process.env.DATABASE_URL!;
  let root = '';
  const role = `r_${crypto.randomBytes(5).toString('hex')}`;
  const drops: Array<() => Promise<void>> = [];
  const ownedDb = () => ownedDatabase(admin, role, drops);
  let extension = 'pgcrypto';
  let archive = '';
  let backupPrinted = { status: 0, stdout: '', stderr: '' };

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'college-pg-dba-'));
    await exec(admin, `create role ${role} login`);
    const available = (await exec(admin, `select name from pg_available_extensions where name in ('pgcrypto', 'pg_stat_statements', 'tablefunc') order by name <> 'pgcrypto', name`)).rows;
    extension = available[0].name;
    // A real install as the non-superuser owner; then a DBA adds an extension, and someone a table of their own.
    const source = await ownedDb();
    const db = await openDatabase({ url: source.url });
    await db.pool.query(`insert into users (email, password_hash, first_name, last_name) values ('lerato@example.com', 'x', 'Lerato', 'Nkosi')`);
    // Its nodes ran without SESSION_SECRET: the generated secret and its fingerprint are in app_secrets.
    await resolveSessionSecret(db.db, undefined, { shared: true });
    await db.close();
    await exec(source.dba, `create extension ${extension}`);
    await exec(source.url, `create table ops_notes (id serial primary key, note text not null); create index ops_notes_note on ops_notes (note); insert into ops_notes (note) values ('disk swapped')`);
    archive = path.join(root, 'college.tgz');
    backupPrinted = await run('backup', ['--out', archive], { DATABASE_URL: source.url, DATA_DIR: path.join(root, 'data') });
  }, 300_000);
  afterAll(async () => {
    for (const drop of drops) await drop().catch(() => {});
    await exec(admin, `drop role if exists ${role}`).catch(() => {});
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('the backup succeeds and warns that the objects the portal does not create will not be restored', () => {
    expect(backupPrinted.status, backupPrinted.stderr).toBe(0);
    expect(backupPrinted.stdout).toContain('Backup written:');
    expect(backupPrinted.stderr).toContain(`WARNING: the database holds objects the portal does not create: EXTENSION ${extension}, TABLE public ops_notes`);
    expect(backupPrinted.stderr).toContain('they will not be restored');
  });

  it('the backup restores as the owner, leaving the extension and the table out with one printed line', async () => {
    const target = await ownedDb();
    const r = await run('restore', [archive, '--data-dir', path.join(root, 'restored'), '--url', target.url]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('Restored into');
    const line = r.stderr.split('\n').filter((l) => l.startsWith('Left out, not part of the portal:'));
    expect(line).toHaveLength(1);
    expect(line[0]).toContain(`EXTENSION ${extension}`);
    expect(line[0]).toContain('TABLE public ops_notes');
    expect(r.stderr).not.toContain('altered');
    expect((await exec(target.url, `select first_name from users where email = 'lerato@example.com'`)).rows).toEqual([{ first_name: 'Lerato' }]);
    expect((await exec(target.url, `select to_regclass('public.ops_notes') as t, (select count(*)::int from pg_extension where extname = '${extension}') as e`)).rows).toEqual([{ t: null, e: 0 }]);
    // The printed start command works as printed: the backed-up nodes used the generated secret, so no SESSION_SECRET;
    // a node with one is refused (the copy keeps the fingerprint).
    expect(r.stdout).toContain(`Start it with: DATA_DIR=${path.join(root, 'restored')} DATABASE_URL=… npm start`);
    expect(r.stdout).toContain('SESSION_SECRET: start without it: the backed-up nodes used the generated secret');
    const node = await openDatabase({ url: target.url });
    try {
      await expect(resolveSessionSecret(node.db, 'a-new-secret-0123456789abcdef', { shared: true })).rejects.toThrow('SESSION_SECRET differs');
      expect(await resolveSessionSecret(node.db, undefined, { shared: true })).toMatch(/^[0-9a-f]{64}$/);
    } finally { await node.close(); }
  }, 120_000);

  it('a database holding a schema of its own (ops, with a function) is refused before anything runs, and ops is still there', async () => {
    const target = await ownedDb();
    await exec(target.url, `create schema ops; create function ops.disk_free() returns int language sql as 'select 1'`);
    const err = await restoreBackup(archive, path.join(root, 'not-empty'), { url: target.url }).then(() => undefined, (e) => e);
    expect(err?.message).toContain('not an empty database');
    expect(err?.message).toContain('schema ops');
    expect((await exec(target.url, `select ops.disk_free() as n`)).rows).toEqual([{ n: 1 }]);
    expect((await exec(target.url, `select to_regclass('public.users') as t`)).rows).toEqual([{ t: null }]);
  }, 120_000);
});
