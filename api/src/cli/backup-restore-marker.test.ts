/**
 * The marker of an unfinished restore every node sees (security review: only the restoring host's DATA_DIR had it, so
 * a second node with its own DATA_DIR but the same DATABASE_URL and bucket started on the half-restored college and
 * served it; `npm run backup` archived it as a good backup). A restore killed after its first document reached the
 * bucket (s3rver on port 4353) leaves the table restore_incomplete in the database and the object RESTORE-INCOMPLETE in
 * the bucket: a node with another DATA_DIR refuses to start, and backup, admin:create, check:documents refuse; a
 * restore that finishes (also with --erasures-from) leaves no marker anywhere. Runs on PGlite, and on PostgreSQL with
 * DATABASE_URL (a new database per restore).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KIND } from '../test/harness.ts';
import type { TestS3Server } from '../test/s3-server.ts';
import { openDatabase, openPgliteFolder } from '../db/client.ts';
import { createBackup, restoreBackup } from '../db/backup.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { startServer } from '../server.ts';
import { createS3BackupFixture, type S3BackupFixture } from './s3-backup-fixture.ts';

const S3_PORT = 4353;
const cli = (name: string) => path.join(import.meta.dirname, `${name}.ts`);

/** Runs CLI `name` with `env` added to this process's (DATABASE_URL only when `env` gives it). */
function run(name: string, args: string[], env: Record<string, string>): Promise<{ status: number; stdout: string; stderr: string }> {
  const full: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!env.DATABASE_URL) delete full.DATABASE_URL;
  return new Promise((resolve) => {
    execFile(process.execPath, [cli(name), ...args], { env: full, timeout: 180_000 }, (err, stdout, stderr) => {
      resolve({ status: err ? Number((err as any).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe(`a restore's marker every node reads: database and bucket (${DB_KIND})`, () => {
  let fx: S3BackupFixture;
  let s3: TestS3Server;
  let root = '';
  let archive = '';
  let sourceDb = '';

  const bucket = (name: string) => fx.bucket(name);
  const newDatabase = () => fx.newDatabase();
  /** Whether the restored database (`url`, or the embedded one in `dataDir`) holds the table restore_incomplete. */
  const hasTable = async (dataDir: string, url: string | undefined) => {
    const sql = `select to_regclass('public.restore_incomplete') is not null as present`;
    if (url) {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try { return (await c.query(sql)).rows[0].present as boolean; } finally { await c.end(); }
    }
    const folder = await openPgliteFolder(dataDir);
    try { return (await folder.client.query<{ present: boolean }>(sql)).rows[0].present; } finally { await folder.close(); }
  };
  /**
   * A node's environment: DATA_DIR `dataDir`, DATABASE_URL `url` (PostgreSQL), and the bucket `name` when given. No
   * grace period: a node that starts is stopped at once, with no balancer to wait for (the default with DATABASE_URL, 8 s).
   */
  const nodeEnv = (dataDir: string, url: string | undefined, name?: string): Record<string, string> => ({
    NODE_ENV: 'test', DATA_DIR: dataDir, ...(url ? { DATABASE_URL: url } : {}), ...(name ? { ...s3.env, S3_BUCKET: name } : { DOCUMENT_STORE: 'local' }),
    PORT: '0', HOST: '127.0.0.1', SITE_BUILD: 'never', SESSION_SECRET: 'restore-marker-secret-0123456789', SHUTDOWN_GRACE_MS: '0',
  });
  const start = (env: Record<string, string>) => startServer(env).then(async (node) => { await node.close(); return undefined; }, (err) => err as Error);
  const backup = (env: Record<string, string>, out: string) => createBackup(loadConfig(env), out).then(() => undefined, (err) => err as Error);

  beforeAll(async () => {
    fx = await createS3BackupFixture({ port: S3_PORT, tmpPrefix: 'college-restore-marker-' });
    ({ s3, root, archive, sourceDb } = fx);
  }, 300_000);
  afterAll(() => fx?.close());

  it('a restore killed after its first S3 write leaves the marker in the database and the bucket: a node with another DATA_DIR refuses to start, and backup, admin:create and check:documents refuse', async () => {
    const target = path.join(root, 'killed');
    const url = await newDatabase();
    const real = bucket('killed');
    await real.init();
    // Killed (SIGKILL, as the OOM killer does) right after its first document reached the bucket.
    const child = await fx.killedRestore(target, url, 'killed', 'first-document');
    expect(child.signal).toBe('SIGKILL');
    expect(child.stdout).not.toContain('finished');
    const written = await real.list();
    expect(written.filter((k) => k !== 'RESTORE-INCOMPLETE').length).toBeGreaterThan(0);

    // Node B: another DATA_DIR, the same database (PostgreSQL) and bucket. It refuses to start.
    const nodeB = path.join(root, 'node-b');
    const refusedB = await start(nodeEnv(nodeB, url, 'killed'));
    expect(refusedB).toBeInstanceOf(ConfigError);
    const marker = url
      ? 'The PostgreSQL database in DATABASE_URL holds the table restore_incomplete: a restore (npm run restore) into it did not finish'
      : 'The S3 bucket "killed" holds the object RESTORE-INCOMPLETE: a restore (npm run restore) into it did not finish';
    expect(refusedB?.message).toContain(marker);
    expect(refusedB?.message).toContain('Do not start it or back it up: empty the database in DATABASE_URL (dropdb, createdb), the S3 bucket the restore wrote into and the DATA_DIR it restored into, then run the restore again.');
    // The database holds the marker, and so does the bucket.
    expect(await hasTable(target, url)).toBe(true);
    expect(written).toContain('RESTORE-INCOMPLETE');

    // The bucket alone (a node on an empty database, or on none yet) and the database alone (a node on its local store).
    const bucketOnly = await start(nodeEnv(path.join(root, 'node-c'), await newDatabase(), 'killed'));
    expect(bucketOnly?.message).toContain('The S3 bucket "killed" holds the object RESTORE-INCOMPLETE');
    // On PGlite the database's table is seen by a node on that folder whose DATA_DIR file is gone (a copy, or deleted).
    if (!url) fs.rmSync(path.join(target, 'RESTORE-INCOMPLETE'));
    const databaseOnly = await start(nodeEnv(url ? path.join(root, 'node-d') : target, url));
    expect(databaseOnly).toBeInstanceOf(ConfigError);
    expect(databaseOnly?.message).toContain(url ? marker : `The embedded database in ${target} holds the table restore_incomplete`);

    // A backup refuses: through the bucket and through the database, writing nothing.
    const out = path.join(root, 'half.tgz');
    expect((await backup(nodeEnv(nodeB, url, 'killed'), out))?.message).toContain('No backup was written');
    const fromDatabase = await backup(nodeEnv(url ? nodeB : target, url), out);
    expect(fromDatabase?.message).toContain(url ? marker : 'holds the table restore_incomplete');
    expect(fromDatabase?.message).toContain('No backup was written');
    expect(fs.existsSync(out)).toBe(false);

    // The CLIs: exit 1 with the marker's message.
    // (On their local store: the database's table alone refuses them.)
    const cliEnv = nodeEnv(url ? nodeB : target, url);
    const backupCli = await run('backup', ['--out', out], cliEnv);
    expect(backupCli.status).toBe(1);
    expect(backupCli.stderr).toContain('Backup not written:');
    expect(backupCli.stderr).toContain('restore_incomplete');
    expect(fs.existsSync(out)).toBe(false);
    const adminCli = await run('admin-create', ['--email', 'late@example.com', '--password', 'secret-123'], cliEnv);
    expect(adminCli.status).toBe(1);
    expect(adminCli.stderr).toContain('Cannot create the admin: ');
    expect(adminCli.stderr).toContain('restore_incomplete');
    const checkCli = await run('check-documents', [], cliEnv);
    expect(checkCli.status).toBe(1);
    expect(checkCli.stderr).toContain('Documents not checked: ');
    expect(checkCli.stderr).toContain('restore_incomplete');
    if (!url) {
      const toPostgres = await run('db-to-postgres', ['--data-dir', target, '--url', 'postgres://nobody@127.0.0.1:1/none'], {});
      expect(toPostgres.status).toBe(1);
      expect(toPostgres.stderr).toContain(`Not copied: The embedded database in ${target} holds the table restore_incomplete`);
    }
  }, 300_000);

  it('a restore that finishes: the markers are in the database and the bucket while the documents are written, and nowhere afterwards; the copy backs up and starts', async () => {
    const target = path.join(root, 'clean');
    const url = await newDatabase();
    const real = bucket('clean');
    // At the first document: what every node would see at that moment.
    let during: { table: boolean; object: boolean; file: boolean } | undefined;
    const store = Object.assign(Object.create(real), {
      put: async (key: string, ...rest: any[]) => {
        if (key !== 'RESTORE-INCOMPLETE' && !during) {
          during = { table: false, object: false, file: fs.existsSync(path.join(target, 'RESTORE-INCOMPLETE')) };
          during.table = await hasTable(target, url);
          during.object = await real.exists('RESTORE-INCOMPLETE');
        }
        return (real.put as any)(key, ...rest);
      },
    });
    const r = await restoreBackup(archive, target, { url, allowSuperuser: true, store });
    expect(during).toEqual({ table: true, object: true, file: true });
    expect(r.writtenKeys.sort()).toEqual(['doc1.pdf', 'doc2.pdf']);
    expect(fs.readdirSync(target)).not.toContain('RESTORE-INCOMPLETE');
    expect(await hasTable(target, url)).toBe(false);
    expect(await real.list()).toEqual(['doc1.pdf', 'doc2.pdf']);
    const again = path.join(root, 'clean-again.tgz');
    const summary = await createBackup(loadConfig(nodeEnv(target, url, 'clean')), again);
    expect(summary.documents).toBe(2);
    expect(await start(nodeEnv(path.join(root, 'clean-node-b'), url, 'clean')).then((e) => e?.message)).toBe(undefined);
  }, 300_000);

  it('--erasures-from: the markers stay until the erasures are carried out (a refused source leaves the --url database marked), then all three go', async () => {
    // keepMarker (what the CLI asks for with --erasures-from): all three markers after the load and the documents.
    const kept = path.join(root, 'kept');
    const keptUrl = await newDatabase();
    const keptStore = bucket('kept');
    await restoreBackup(archive, kept, { url: keptUrl, allowSuperuser: true, store: keptStore, keepMarker: true });
    expect(fs.readdirSync(kept)).toContain('RESTORE-INCOMPLETE');
    expect(await hasTable(kept, keptUrl)).toBe(true);
    expect(await keptStore.list()).toEqual(['RESTORE-INCOMPLETE', 'doc1.pdf', 'doc2.pdf']);
    const refusedB = await start(nodeEnv(path.join(root, 'kept-node-b'), keptUrl, 'kept'));
    expect(refusedB).toBeInstanceOf(ConfigError);
    expect(refusedB?.message).toContain('holds the ');
    expect(refusedB?.message).toContain('a restore (npm run restore) into it did not finish');

    // A source that is not this backup's database: refused; the --url copy (people erased since among them) keeps its table.
    const otherUrl = await newDatabase();
    const otherDir = path.join(root, 'other');
    const other = await openDatabase(otherUrl ? { url: otherUrl } : { dataDir: otherDir });
    try {
      for (const email of ['a@example.com', 'b@example.com']) await other.pool.query(`insert into users (email, password_hash, first_name, last_name, created_at) values ($1, 'x', 'Other', 'College', now() - interval '400 days')`, [email]);
      await other.pool.query(`update users set email = 'erased-' || id || '@erased.invalid', erased_at = now() where email = 'b@example.com'`);
    } finally { await other.close(); }
    const wrong = path.join(root, 'erasures-wrong');
    const wrongUrl = await newDatabase();
    const refused = await run('restore', [archive, '--data-dir', wrong, ...(wrongUrl ? ['--url', wrongUrl, '--allow-superuser'] : []), '--erasures-from', otherUrl ?? otherDir], { ...s3.env, S3_BUCKET: 'erasures-wrong' });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('--erasures-from names another database');
    // Every document went again, and the bucket's marker with them.
    expect(await bucket('erasures-wrong').list()).toEqual([]);
    if (wrongUrl) {
      expect(await hasTable(wrong, wrongUrl)).toBe(true);
      const nodeB = await start(nodeEnv(path.join(root, 'wrong-node-b'), wrongUrl));
      expect(nodeB?.message).toContain('The PostgreSQL database in DATABASE_URL holds the table restore_incomplete');
    }

    const target = path.join(root, 'erasures');
    const url = await newDatabase();
    const r = await run('restore', [archive, '--data-dir', target, ...(url ? ['--url', url, '--allow-superuser'] : []), '--erasures-from', sourceDb], { ...s3.env, S3_BUCKET: 'erasures' });
    expect(r.status, r.stderr).toBe(0);
    expect(fs.readdirSync(target)).not.toContain('RESTORE-INCOMPLETE');
    expect(await hasTable(target, url)).toBe(false);
    expect(await bucket('erasures').list()).toEqual(['doc1.pdf', 'doc2.pdf']);
  }, 300_000);
});
