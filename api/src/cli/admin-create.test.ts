/**
 * `npm run admin:create` beside a running node on the embedded database (README "To try the admin portal"):
 * PGlite serves one process, so the command must refuse while the folder is open elsewhere, say what to do,
 * and work once it is free. PGlite only: on PostgreSQL several processes share the server.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';

const CLI = path.join(import.meta.dirname, 'admin-create.ts');

/** Runs the CLI as a person would, without blocking this process (the open database must keep renewing its lock). */
function adminCreate(dataDir: string, email: string): Promise<{ status: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, '--email', email, '--password', 'change-me-now'], { env, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ status: err ? Number((err as any).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe.skipIf(!!process.env.DATABASE_URL)('admin:create and the embedded database', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'college-admin-create-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('refuses while a server has DATA_DIR open, saying to stop it; once stopped, the admin it creates can be found by the next start', async () => {
    const running = await openDatabase({ dataDir });
    const refused = await adminCreate(dataDir, 'admin@college.example');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('is open in another process');
    expect(refused.stderr).toContain('Stop `npm start` and run this again, or start it with ADMIN_EMAIL and ADMIN_PASSWORD.');
    await running.close();

    const created = await adminCreate(dataDir, 'admin@college.example');
    expect(created.status, created.stderr).toBe(0);
    expect(created.stdout).toContain('Admin ready: admin@college.example');
    const restarted = await openDatabase({ dataDir });
    try {
      const { rows } = await restarted.pool.query('SELECT role FROM users WHERE email = $1', ['admin@college.example']);
      expect(rows).toEqual([{ role: 'admin' }]);
    } finally { await restarted.close(); }
  }, 180_000); // an embedded database, then a CLI process that opens it: over 60 s on a loaded 2-core machine

  it('a DATA_DIR that holds no database yet is refused, naming the folder and npm start, and no empty database is made there', async () => {
    const mistyped = path.join(dataDir, 'no-such-college');
    const refused = await adminCreate(mistyped, 'admin@college.example');
    expect(refused.status, refused.stdout).toBe(1);
    expect(refused.stdout).not.toContain('Admin ready');
    expect(refused.stderr).toContain(`${mistyped} holds no database yet`);
    expect(refused.stderr).toContain('`npm start` creates the database');
    expect(fs.existsSync(path.join(mistyped, 'pgdata'))).toBe(false);
  });

  it('on a folder holding documents but no database it says why in one line, not with a stack trace', async () => {
    const orphan = fs.mkdtempSync(path.join(os.tmpdir(), 'college-admin-create-orphan-'));
    try {
      fs.mkdirSync(path.join(orphan, 'uploads'));
      fs.writeFileSync(path.join(orphan, 'uploads', 'u1'), 'x');
      const refused = await adminCreate(orphan, 'admin@college.example');
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('has documents but no database');
      expect(refused.stderr).not.toMatch(/^\s+at /m);
    } finally { fs.rmSync(orphan, { recursive: true, force: true }); }
  });
});
