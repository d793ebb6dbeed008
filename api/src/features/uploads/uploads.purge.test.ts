import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestApp, signUpStudent, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';
import { startS3Server, type TestS3Server } from '../../test/s3-server.ts';
import { uploads } from '../../db/schema/applications.ts';
import { purgeOrphanUploads, ORPHAN_UPLOAD_TTL_MS } from './uploads.service.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

async function upload(agent: ReturnType<TestApp['request']>, name: string): Promise<string> {
  const res = await agent.post('/api/uploads').attach('file', PDF, { filename: name, contentType: 'application/pdf' });
  expect(res.status).toBe(201);
  return (res.body.upload ?? res.body).id;
}

describe.each(['local', 's3'] as const)(`abandoned uploads are erased (POPIA s14) (${DB_KIND}, %s document store)`, (driver) => {
  let t: TestApp;
  let s3: TestS3Server | undefined;
  beforeAll(async () => {
    if (driver === 's3') s3 = await startS3Server();
    t = await startTestApp({ DATA_DIR: fs.mkdtempSync(`/tmp/college-purge-test-${process.pid}-`), ...s3?.env });
  });
  afterAll(async () => { await t.close(); await s3?.close(); fs.rmSync(t.config.dataDir, { recursive: true, force: true }); });

  it('erases old uploads kept by no application and no draft, with their files; keeps the rest', async () => {
    const s = await signUpStudent(t);
    const abandoned = await upload(s.agent, 'abandoned.pdf');
    const attachedId = await upload(s.agent, 'id.pdf');
    const transcripts = await upload(s.agent, 'results.pdf');
    const inDraft = await upload(s.agent, 'draft.pdf');
    const fresh = await upload(s.agent, 'fresh.pdf');
    expect((await s.agent.post('/api/applications').send(validApplication(1, { idDocument: attachedId, transcripts }))).status).toBe(201);
    expect((await s.agent.put('/api/applications/draft?key=course-2').send({ step: 2, data: { documents: { idDocument: inDraft } } })).status).toBeLessThan(300);

    const old = new Date(Date.now() - ORPHAN_UPLOAD_TTL_MS - 60_000);
    for (const id of [abandoned, attachedId, transcripts, inDraft]) await t.database.db.update(uploads).set({ createdAt: old }).where(eq(uploads.id, id));
    const [row] = await t.database.db.select().from(uploads).where(eq(uploads.id, abandoned));
    expect(await t.store.exists(row.storedName)).toBe(true);
    const stored = async (id: string) => {
      const [r] = await t.database.db.select().from(uploads).where(eq(uploads.id, id));
      return t.store.exists(r.storedName);
    };
    const keptBefore = await Promise.all([attachedId, transcripts, inDraft, fresh].map(stored));

    expect(await purgeOrphanUploads(t.database.db, t.store)).toBe(1);
    expect(await t.store.exists(row.storedName)).toBe(false);
    expect(keptBefore).toEqual([true, true, true, true]);
    expect(await Promise.all([attachedId, transcripts, inDraft, fresh].map(stored))).toEqual([true, true, true, true]);
    const left = (await t.database.db.select({ id: uploads.id }).from(uploads).where(eq(uploads.userId, s.user.id))).map((r) => r.id).sort();
    expect(left).toEqual([attachedId, transcripts, inDraft, fresh].sort());
    expect((await s.agent.get(`/api/uploads/${abandoned}`)).status).toBe(404);
  });
});
