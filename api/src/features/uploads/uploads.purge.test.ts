import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { startTestApp, signUpStudent, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';
import { uploads } from '../../db/schema/applications.ts';
import { purgeOrphanUploads, uploadDir, ORPHAN_UPLOAD_TTL_MS } from './uploads.service.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

async function upload(agent: ReturnType<TestApp['request']>, name: string): Promise<string> {
  const res = await agent.post('/api/uploads').attach('file', PDF, { filename: name, contentType: 'application/pdf' });
  expect(res.status).toBe(201);
  return (res.body.upload ?? res.body).id;
}

describe(`abandoned uploads are erased (POPIA s14) (${DB_KIND})`, () => {
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
    const file = path.join(uploadDir(t.config.dataDir), row.storedName);
    expect(fs.existsSync(file)).toBe(true);

    expect(await purgeOrphanUploads(t.database.db, t.config.dataDir)).toBe(1);
    expect(fs.existsSync(file)).toBe(false);
    const left = (await t.database.db.select({ id: uploads.id }).from(uploads).where(eq(uploads.userId, s.user.id))).map((r) => r.id).sort();
    expect(left).toEqual([attachedId, transcripts, inDraft, fresh].sort());
    expect((await s.agent.get(`/api/uploads/${abandoned}`)).status).toBe(404);
  });
});
