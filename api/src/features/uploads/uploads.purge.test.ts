import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
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

describe(`what keeps an upload from the purge, as the indexes answer it (${DB_KIND})`, () => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp({ DATA_DIR: fs.mkdtempSync(`/tmp/college-purge-refs-${process.pid}-`) }); });
  afterAll(async () => { await t.close(); fs.rmSync(t.config.dataDir, { recursive: true, force: true }); });

  it('keeps uploads cited by an application or anywhere in a draft; erases the rest, and DELETE answers 409 only for cited ones', async () => {
    const s = await signUpStudent(t);
    const ids: Record<string, string> = {};
    for (const name of ['idDoc', 'transcripts', 'inWizardDraft', 'inNestedArray', 'orphanA', 'orphanB', 'inSecondDraft', 'droppedFromDraft']) ids[name] = await upload(s.agent, `${name}.pdf`);
    expect((await s.agent.post('/api/applications').send(validApplication(1, { idDocument: ids.idDoc, transcripts: ids.transcripts }))).status).toBe(201);
    // The wizard's shape (documents.<slot> = {id, name, size}), a data URL beside it (longer than any id), and ids deeper in arrays.
    const dataUrl = `data:application/pdf;base64,${PDF.toString('base64')}`;
    // Each save names the draft revision it follows (a draft save without one only creates, drafts.repo.ts).
    const revisions: Record<string, number> = {};
    const save = async (key: string, data: unknown) => {
      const r = await s.agent.put(`/api/applications/draft?key=${key}`).send({ step: 2, data, revision: revisions[key] });
      expect(r.status).toBeLessThan(300);
      revisions[key] = r.body.draft.revision;
    };
    await save('course-2', { firstName: 'Ṱhilivhali', documents: { idDocument: { id: ids.inWizardDraft, name: 'id.pdf', size: 10 }, transcripts: dataUrl } });
    await save('course-3', { extra: [{ files: [ids.inNestedArray] }], documents: { idDocument: { id: ids.droppedFromDraft } } });
    await save('general', { documents: { idDocument: { id: ids.inSecondDraft } } });
    // A later save of the same draft no longer cites droppedFromDraft: it is an orphan now.
    await save('course-3', { extra: [{ files: [ids.inNestedArray] }], documents: { idDocument: null } });

    const old = new Date(Date.now() - ORPHAN_UPLOAD_TTL_MS - 60_000);
    for (const id of Object.values(ids)) await t.database.db.update(uploads).set({ createdAt: old }).where(eq(uploads.id, id));

    expect((await s.agent.delete(`/api/uploads/${ids.idDoc}`)).status).toBe(409);
    expect((await s.agent.delete(`/api/uploads/${ids.transcripts}`)).status).toBe(409);
    expect(await purgeOrphanUploads(t.database.db, t.store)).toBe(3);
    const left = (await t.database.db.select({ id: uploads.id }).from(uploads).where(eq(uploads.userId, s.user.id))).map((r) => r.id).sort();
    expect(left).toEqual([ids.idDoc, ids.transcripts, ids.inWizardDraft, ids.inNestedArray, ids.inSecondDraft].sort());
    expect(await purgeOrphanUploads(t.database.db, t.store)).toBe(0);
    // A draft's upload is the applicant's to delete (no application cites it).
    expect((await s.agent.delete(`/api/uploads/${ids.inSecondDraft}`)).status).toBe(204);
  });

  it('answers "is it cited?" from the GIN indexes on upload_refs(), not by reading every application and draft', async () => {
    const plan = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const r = await tx.execute(sql`EXPLAIN SELECT id FROM uploads u WHERE NOT EXISTS (SELECT 1 FROM applications a WHERE upload_refs(a.documents) @> ARRAY[u.id])
        AND NOT EXISTS (SELECT 1 FROM application_drafts r WHERE upload_refs(r.data) @> ARRAY[u.id])`);
      return (r as unknown as { rows: Record<string, string>[] }).rows.map((x) => Object.values(x)[0]).join('\n');
    });
    expect(plan).toContain('applications_upload_refs_idx');
    expect(plan).toContain('drafts_upload_refs_idx');
    // No pending list: with it, every probe would also read each row inserted since the last VACUUM.
    const opts = await t.database.db.execute(sql`SELECT relname, reloptions FROM pg_class WHERE relname IN ('applications_upload_refs_idx', 'drafts_upload_refs_idx') ORDER BY relname`);
    expect((opts as unknown as { rows: unknown[] }).rows).toEqual([
      { relname: 'applications_upload_refs_idx', reloptions: ['fastupdate=false'] }, { relname: 'drafts_upload_refs_idx', reloptions: ['fastupdate=false'] }]);
    const refs = await t.database.db.execute(sql`SELECT upload_refs('{"a":{"id":"abcdefghij12"},"b":["abcdefghij12","short",7,null],"c":"data:x/y;base64,AAAA"}'::jsonb) AS r`);
    expect((refs as unknown as { rows: { r: string[] }[] }).rows[0]!.r).toEqual(['abcdefghij12']);
  });
});
