/**
 * Per-account storage limits (security audit 2026-11-28, LOW): one new account stored 40 × 1 MB with POST /api/uploads,
 * opened 40 tus uploads of 5 MB and kept drafts under invented course keys. An account's unattached uploads are capped
 * (MAX_UNATTACHED_UPLOADS files, MAX_UNATTACHED_BYTES), and so are its live tus uploads (MAX_LIVE_TUS_UPLOADS): 409 upload_limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signUpStudent, insertUpload, DB_KIND, type TestApp } from '../../test/harness.ts';
import { MAX_LIVE_TUS_UPLOADS, MAX_UNATTACHED_BYTES, MAX_UNATTACHED_UPLOADS } from './quota.ts';
import { eq } from 'drizzle-orm';
import { uploads } from '../../db/schema/applications.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const upload = (agent: ReturnType<TestApp['request']>) => agent.post('/api/uploads').attach('file', PDF, 'doc.pdf');
const tusCreate = (agent: ReturnType<TestApp['request']>, length: number) => agent.post('/api/uploads/tus').set('Tus-Resumable', '1.0.0').set('Upload-Length', String(length));

describe(`per-account upload limits (${DB_KIND})`, () => {
  it(`at most ${MAX_UNATTACHED_UPLOADS} unattached uploads: the next is 409 with a clear message; deleting one makes room`, async () => {
    const s = await signUpStudent(t);
    for (let i = 0; i < MAX_UNATTACHED_UPLOADS; i++) expect((await upload(s.agent)).status).toBe(201);
    const refused = await upload(s.agent);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({ code: 'upload_limit', message: `You have ${MAX_UNATTACHED_UPLOADS} documents that are not part of an application. Delete the ones you no longer need, then upload again.` });
    const tus = await tusCreate(s.agent, PDF.length);
    expect(tus.status).toBe(409);
    expect(JSON.parse(tus.text).error.code).toBe('upload_limit');
    const list = await s.agent.get('/api/uploads');
    expect((await s.agent.delete(`/api/uploads/${list.body.uploads[0].id}`)).status).toBe(204);
    expect((await upload(s.agent)).status).toBe(201);
  });

  it(`at most ${MAX_UNATTACHED_BYTES / 1024 / 1024} MB of unattached uploads (the new file's size counts)`, async () => {
    const s = await signUpStudent(t);
    // Rows standing for large stored files (the bytes themselves do not matter to the count).
    const big = Math.floor(MAX_UNATTACHED_BYTES / 8);
    for (let i = 0; i < 8; i++) {
      const id = await insertUpload(t, s.user.id);
      await t.database.db.update(uploads).set({ size: big }).where(eq(uploads.id, id));
    }
    const refused = await upload(s.agent);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(`Your documents that are not part of an application would take more than ${MAX_UNATTACHED_BYTES / 1024 / 1024} MB. Delete the ones you no longer need, then upload again.`);
    expect((await tusCreate(s.agent, 1024)).status).toBe(409);
  });

  it(`at most ${MAX_LIVE_TUS_UPLOADS} unfinished resumable uploads at once (409); finishing one makes room`, async () => {
    const s = await signUpStudent(t);
    const locations: string[] = [];
    for (let i = 0; i < MAX_LIVE_TUS_UPLOADS; i++) {
      const res = await tusCreate(s.agent, PDF.length);
      expect(res.status).toBe(201);
      locations.push(res.headers.location);
    }
    const refused = await tusCreate(s.agent, PDF.length);
    expect(refused.status).toBe(409);
    expect(JSON.parse(refused.text).error).toEqual({ code: 'upload_limit', message: `You have ${MAX_LIVE_TUS_UPLOADS} unfinished uploads. Let them finish or cancel them, then try again.` });
    const done = await s.agent.patch(locations[0]).set('Tus-Resumable', '1.0.0').set('Upload-Offset', '0').set('Content-Type', 'application/offset+octet-stream').send(PDF);
    expect(done.status).toBe(200);
    expect((await tusCreate(s.agent, PDF.length)).status).toBe(201);
    // A cancelled one (DELETE) makes room too.
    expect((await s.agent.delete(locations[1]).set('Tus-Resumable', '1.0.0')).status).toBe(204);
    expect((await tusCreate(s.agent, PDF.length)).status).toBe(201);
    // Another account is not affected.
    const other = await signUpStudent(t);
    expect((await tusCreate(other.agent, PDF.length)).status).toBe(201);
  });
});
