/**
 * A database whose documents are missing from the store (backup and restore audit: restored without its documents,
 * it started silently and every download answered 404): the check finds them, start-up says so in its log and in the
 * health body (which stays 200), and `npm run check:documents` lists them and exits 1.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { startServer } from '../server.ts';
import { checkDocuments } from './document-check.ts';
import { DB_KIND, insertUpload, signUpStudent, startTestApp, type TestApp } from '../test/harness.ts';

describe(`checkDocuments (${DB_KIND})`, () => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(); });
  afterAll(async () => { await t.close(); });

  it('names the upload rows whose document the store lacks, newest first, within the limit', async () => {
    const { user } = await signUpStudent(t);
    const kept = await insertUpload(t, user.id, 'kept.pdf');
    await t.store.put(`${kept}.pdf`, Buffer.from('%PDF-1.4\n'));
    const lost = await insertUpload(t, user.id, 'lost.pdf');
    const all = await checkDocuments(t.database.db, t.store);
    expect(all.checked).toBe(2);
    expect(all.missing.map((m) => m.id)).toEqual([lost]);
    expect((await checkDocuments(t.database.db, t.store, { limit: 1 })).checked).toBe(1);
  });
});

describe.skipIf(!!process.env.DATABASE_URL)('a DATA_DIR restored without its documents', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'college-nodocs-'));
  afterAll(() => { vi.restoreAllMocks(); fs.rmSync(dataDir, { recursive: true, force: true }); });

  it('start-up logs "N of M documents checked are missing", health says so and stays 200; check:documents exits 1', async () => {
    const db = await openDatabase({ dataDir });
    const { rows: [student] } = await db.pool.query(`insert into users (email, password_hash, first_name, last_name) values ('lerato@example.com', 'x', 'Lerato', 'Nkosi') returning id`);
    await db.pool.query(`insert into uploads (id, user_id, original_name, stored_name, mime, size) values ('gone1', $1, 'id.pdf', 'gone1.pdf', 'application/pdf', 9), ('gone2', $1, 'cv.pdf', 'gone2.pdf', 'application/pdf', 9)`, [student.id]);
    await db.close();

    const warn = vi.spyOn(console, 'warn');
    const node = await startServer({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SITE_BUILD: 'never', SESSION_SECRET: 'nodocs-test-secret-0123456789' });
    try {
      await node.documentCheck;
      expect(warn.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('documents checked are missing'))).toEqual([
        expect.stringContaining(`2 of 2 documents checked are missing from the local folder ${path.join(dataDir, 'uploads')}`),
      ]);
      const res = await fetch(`${node.url}/api/colfront/health`);
      expect(res.status).toBe(200);
      expect((await res.json()).documents).toEqual({ checked: 2, missing: 2 });
    } finally { await node.close(); }

    const cli = await new Promise<{ status: number; stdout: string }>((resolve) => {
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
      delete env.DATABASE_URL;
      execFile(process.execPath, [path.join(import.meta.dirname, '../cli/check-documents.ts')], { env, timeout: 120_000 }, (err, stdout) => resolve({ status: err ? Number((err as any).code ?? 1) : 0, stdout }));
    });
    expect(cli.status).toBe(1);
    expect(cli.stdout).toContain('missing: upload gone1 (key gone1.pdf');
    expect(cli.stdout).toContain('2 of 2 documents checked are missing');
  }, 240_000);
});
