/**
 * Why `npm run restore --erasures-from` has no unfinished tus upload to remove (review question: does it leave a
 * person's partial uploads behind?): a backup carries only the documents its upload rows name (`uploads/<key>` of the
 * manifest), never the tus store (`DATA_DIR/uploads/tus/<id>` and `<id>.json` on the local store; `<id>`, `<id>.info`,
 * `<id>.part` at the bucket's root on S3, read the same way, by upload row), and a restore writes only the manifest's
 * documents into a new or empty folder (or an empty bucket). So a restored copy starts with no partial upload at all,
 * of anyone; the partials of a person erased in the database in use are that database's store's business
 * (removeTusUploadsAfterErasure at the erasure, then the 24 h tus purge). Embedded database, local store.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import * as tar from 'tar';
import { FileStore } from '@tus/file-store';
import { Upload } from '@tus/utils';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { createBackup, restoreBackup } from '../db/backup.ts';
import { loadConfig } from '../config.ts';

describe.skipIf(!!process.env.DATABASE_URL)('a backup never carries unfinished tus uploads (embedded database, local store)', () => {
  let root = '';
  afterAll(() => { if (root) fs.rmSync(root, { recursive: true, force: true }); });

  it('the archive holds the upload rows\' documents only, and the restored folder has no tus store', async () => {
    // Made here, not when the file is collected: a skipped run (PostgreSQL) leaves no folder behind.
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'h-a-tus-'));
    const source = path.join(root, 'source');
    const db = await openDatabase({ dataDir: source });
    let owner: number;
    try {
      ({ rows: [{ id: owner }] } = await db.pool.query(`insert into users (email, password_hash, first_name, last_name) values ('thandi@example.com', 'x', 'Thandi', 'Mokoena') returning id`));
      await db.pool.query(`insert into uploads (id, user_id, original_name, stored_name, mime, size) values ('doc1', $1, 'id.pdf', 'doc1.pdf', 'application/pdf', 9)`, [owner]);
    } finally { await db.close(); }
    fs.mkdirSync(path.join(source, 'uploads'), { recursive: true });
    fs.writeFileSync(path.join(source, 'uploads', 'doc1.pdf'), '%PDF-1.4\n');
    // Her unfinished resumable upload, as the tus server's FileStore keeps it: 40 of 100 bytes received.
    const tus = new FileStore({ directory: path.join(source, 'uploads', 'tus') });
    fs.mkdirSync(path.join(source, 'uploads', 'tus'), { recursive: true });
    const id = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    await tus.create(new Upload({ id, size: 100, offset: 0, metadata: { filename: 'matric-certificate.pdf', ownerId: String(owner) } }));
    await tus.write(Readable.from([Buffer.from('%PDF-1.4\n'.padEnd(40, 'x'))]), id, 0);
    expect(fs.readdirSync(path.join(source, 'uploads', 'tus')).sort()).toEqual([id, `${id}.json`]);

    const archive = path.join(root, 'college.tgz');
    const summary = await createBackup({ ...loadConfig({ NODE_ENV: 'test' }), DOCUMENT_STORE: 'local', DATABASE_URL: undefined, dataDir: source } as any, archive);
    expect(summary.documents).toBe(1);
    const members: string[] = [];
    await tar.t({ file: archive, onReadEntry: (entry) => { members.push(entry.path); } });
    expect(members.filter((m) => m.startsWith('uploads/')).sort()).toEqual(['uploads/', 'uploads/doc1.pdf']);
    expect(members.filter((m) => m.includes(id) || m.includes('tus'))).toEqual([]);

    const target = path.join(root, 'restored');
    await restoreBackup(archive, target);
    expect(fs.readdirSync(path.join(target, 'uploads'))).toEqual(['doc1.pdf']);
  }, 120_000);
});
