import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signUpStudent, DB_KIND, type TestApp } from '../../test/harness.ts';
import { startS3Server, type TestS3Server } from '../../test/s3-server.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

// POPIA §24 erasure must remove the documents themselves, wherever they are stored (issue #13).
describe.each(['local', 's3'] as const)(`account erasure (${DB_KIND}, %s document store)`, (driver) => {
  let t: TestApp;
  let s3: TestS3Server | undefined;
  beforeAll(async () => {
    if (driver === 's3') s3 = await startS3Server();
    t = await startTestApp({ DATA_DIR: fs.mkdtempSync(`/tmp/college-erasure-test-${process.pid}-`), ...s3?.env });
  });
  afterAll(async () => { await t.close(); await s3?.close(); fs.rmSync(t.config.dataDir, { recursive: true, force: true }); });

  it('POST /api/profile/delete › erases the person\'s uploaded documents from the store and keeps everyone else\'s', async () => {
    const s = await signUpStudent(t);
    const other = await signUpStudent(t);
    for (const name of ['id.pdf', 'results.pdf']) expect((await s.agent.post('/api/uploads').attach('file', PDF, name)).status).toBe(201);
    const kept = (await other.agent.post('/api/uploads').attach('file', PDF, 'mine.pdf')).body.upload.id;
    expect((await t.store.list()).length).toBe(3);

    const res = await s.agent.post('/api/profile/delete').send({ password: s.password });
    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe('deleted');
    expect((await t.store.list()).length).toBe(1);
    expect((await other.agent.get(`/api/uploads/${kept}`)).status).toBe(200);
  });
});
