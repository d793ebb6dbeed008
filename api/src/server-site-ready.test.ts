/**
 * "[server] site ready at … after N ms" must mean a live site (operations audit: it was printed right after
 * "site: build stopped … the server is shutting down", when the node had no site at all). A node stopped during its
 * first build says nothing of the kind. Embedded database only: the log line does not depend on the database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startServer } from './server.ts';

describe.skipIf(!!process.env.DATABASE_URL)('the "site ready" line', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'college-site-ready-'));
  afterAll(() => { vi.restoreAllMocks(); fs.rmSync(dataDir, { recursive: true, force: true }); });

  it('is not printed when the first build was stopped by a shutdown', async () => {
    const info = vi.spyOn(console, 'info');
    const node = await startServer({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SITE_BUILD: 'always', SESSION_SECRET: 'site-ready-test-secret-0123456789' });
    await node.close();
    expect(node.builder.dir()).toBeNull();
    expect(info.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('site ready'))).toEqual([]);
  }, 180_000);
});
