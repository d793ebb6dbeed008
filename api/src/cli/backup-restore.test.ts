/**
 * `npm run backup` and `npm run restore` (backup and restore audit: a college had no supported way to copy its data).
 * A round trip on the embedded database: a student, an application and a document survive, every session is ended,
 * a running server and a non-empty target are refused with what to do. PGlite only (the PostgreSQL path shells out
 * to pg_dump / pg_restore and is checked in db-to-postgres.test.ts's server).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { seed } from '../db/seed.ts';

const cli = (name: string) => path.join(import.meta.dirname, `${name}.ts`);

/** Runs a CLI as a person would (without blocking this process, whose open database renews its lock). */
function run(name: string, args: string[], dataDir: string): Promise<{ status: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  return new Promise((resolve) => {
    execFile(process.execPath, [cli(name), ...args], { env, timeout: 120_000 }, (err, stdout, stderr) => {
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
