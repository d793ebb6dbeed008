/**
 * A DATA_DIR whose `pgdata/` is missing but whose documents are there (backup and restore audit: a partial restore
 * started silently as a new, empty college beside the real documents) must not start; a fresh DATA_DIR must.
 * Embedded database only (with DATABASE_URL, pgdata/ is not used).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../config.ts';
import { startServer } from '../server.ts';

describe.skipIf(!!process.env.DATABASE_URL)('DATA_DIR with documents but no database', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'college-orphaned-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('refuses to start an empty college beside the documents, and creates no pgdata/', async () => {
    fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'uploads', 'Xq3v.pdf'), '%PDF-1.4\n');
    const outcome = await startServer({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SITE_BUILD: 'never', SESSION_SECRET: 'orphaned-test-secret-0123456789' })
      .then(async (s) => { await s.close(); return 'started'; }, (err) => err);
    expect(outcome).toBeInstanceOf(ConfigError);
    expect(String(outcome.message)).toContain('has documents but no database (pgdata/ is missing; uploads/ hold files): restore pgdata/ from the backup (npm run restore), or move the documents away to start an empty college.');
    expect(fs.existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
  }, 120_000);
});
