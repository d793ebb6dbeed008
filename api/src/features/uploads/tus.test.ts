import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, signUpStudent, DB_KIND, type TestApp } from '../../test/harness.ts';
import { purgeAbandonedTusUploads } from './tus.service.ts';

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(`/tmp/college-tus-test-${process.pid}-`);
  t = await startTestApp({ DATA_DIR: dataDir });
});
afterAll(async () => { await t.close(); fs.rmSync(dataDir, { recursive: true, force: true }); });

/** A PDF of `n` bytes (valid signature, padding inside a comment). */
const pdf = (n: number) => Buffer.concat([Buffer.from('%PDF-1.4\n%'), crypto.randomBytes(n - 16), Buffer.from('\n%%EOF')]);
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(58), Buffer.from([0x80, 0, 0, 0]), Buffer.alloc(64), Buffer.from('PE\0\0'), Buffer.alloc(2000)]);
const b64 = (s: string) => Buffer.from(s).toString('base64');
const tusDir = () => path.join(dataDir, 'uploads', 'tus');
const tusFiles = () => (fs.existsSync(tusDir()) ? fs.readdirSync(tusDir()) : []);

type Agent = Awaited<ReturnType<typeof signUpStudent>>['agent'];
async function create(agent: Agent, length: number, filename = 'matric.pdf') {
  const res = await agent.post('/api/uploads/tus').set('Tus-Resumable', '1.0.0').set('Upload-Length', String(length))
    .set('Upload-Metadata', `filename ${b64(filename)},filetype ${b64('application/pdf')}`);
  return { res, url: res.headers.location as string | undefined };
}
const patch = (agent: Agent, url: string, offset: number, chunk: Buffer) => agent.patch(url).set('Tus-Resumable', '1.0.0')
  .set('Upload-Offset', String(offset)).set('Content-Type', 'application/offset+octet-stream').send(chunk);
const head = (agent: Agent, url: string) => agent.head(url).set('Tus-Resumable', '1.0.0');

describe(`resumable uploads, tus 1.0 (${DB_KIND})`, () => {
  it('tus › a document sent in pieces resumes from the offset the server reports and then lists like any other upload', async () => {
    const s = await signUpStudent(t);
    const file = pdf(300_000);
    const { res, url } = await create(s.agent, file.length);
    expect(res.status).toBe(201);
    expect(url).toMatch(/^\/api\/uploads\/tus\/[A-Za-z0-9_-]+$/);
    const first = await patch(s.agent, url!, 0, file.subarray(0, 120_000));
    expect(first.headers['upload-offset']).toBe('120000');
    expect(first.headers['access-control-expose-headers']).toBeUndefined();
    expect(res.headers['access-control-expose-headers']).toBeUndefined();
    // The connection dropped: the client asks where to continue.
    const h = await head(s.agent, url!);
    expect(h.status).toBe(200);
    expect(h.headers['upload-offset']).toBe('120000');
    expect(h.headers['upload-length']).toBe(String(file.length));
    expect((await patch(s.agent, url!, 0, file.subarray(0, 10))).status).toBe(409);
    const done = await patch(s.agent, url!, 120_000, file.subarray(120_000));
    expect(done.status).toBe(200);
    expect(done.headers['upload-offset']).toBe(String(file.length));
    const upload = JSON.parse(done.text).upload;
    expect(upload).toMatchObject({ name: 'matric.pdf', mime: 'application/pdf', size: file.length, sha256: crypto.createHash('sha256').update(file).digest('hex') });

    const list = (await s.agent.get('/api/uploads')).body.uploads;
    expect(list.map((u: any) => u.id)).toContain(upload.id);
    const dl = await s.agent.get(`/api/uploads/${upload.id}`).buffer(true).parse((r, cb) => { const c: Buffer[] = []; r.on('data', (d: Buffer) => c.push(d)); r.on('end', () => cb(null, Buffer.concat(c))); });
    expect(Buffer.compare(dl.body, file)).toBe(0);
    expect(tusFiles().filter((f) => f.startsWith(url!.split('/').pop()!))).toEqual([]);

    // The last answer was lost: asking again says complete, so the client does not start over.
    const again = await head(s.agent, url!);
    expect(again.status).toBe(200);
    expect(again.headers['upload-offset']).toBe(String(file.length));
  });

  it('tus › creation-with-upload: a whole document in the POST answers 201 with Location and Upload-Offset, and is listed once', async () => {
    const s = await signUpStudent(t);
    const file = Buffer.from('%PDF-1.4\n%%EOF\n'); // 15 bytes, as in the audit
    const res = await s.agent.post('/api/uploads/tus').set('Tus-Resumable', '1.0.0').set('Upload-Length', String(file.length))
      .set('Content-Type', 'application/offset+octet-stream').set('Upload-Metadata', `filename ${b64('cwu.pdf')}`).send(file);
    expect(res.status).toBe(201);
    expect(res.headers.location).toMatch(/^\/api\/uploads\/tus\/[A-Za-z0-9_-]+$/);
    expect(res.headers['upload-offset']).toBe(String(file.length));
    expect(res.headers['tus-resumable']).toBe('1.0.0');
    // Same-origin only: no CORS grant, so no list of headers exposed to other origins either (issue #17 bytes).
    expect(res.headers['access-control-expose-headers']).toBeUndefined();
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const id = String(res.headers.location).split('/').pop()!;
    expect(JSON.parse(res.text).upload).toMatchObject({ id, name: 'cwu.pdf', size: file.length });
    const listed = (await s.agent.get('/api/uploads')).body.uploads.filter((u: any) => u.name === 'cwu.pdf');
    expect(listed.map((u: any) => u.id)).toEqual([id]);
    // Complete if asked again, and no partial left behind once the answer is written.
    const h = await head(s.agent, res.headers.location);
    expect(h.status).toBe(200);
    expect(h.headers['upload-offset']).toBe(String(file.length));
    // Removed on POST_FINISH, as the answer is written: waited for, not timed.
    await expect.poll(() => tusFiles().filter((f) => f.startsWith(id)), { timeout: 15_000 }).toEqual([]);
  });

  it('tus › creation-with-upload of a type that is not allowed is refused with 415 and leaves nothing', async () => {
    const s = await signUpStudent(t);
    const res = await s.agent.post('/api/uploads/tus').set('Tus-Resumable', '1.0.0').set('Upload-Length', String(EXE.length))
      .set('Content-Type', 'application/offset+octet-stream').set('Upload-Metadata', `filename ${b64('cv.pdf')}`).send(EXE);
    expect(res.status).toBe(415);
    expect((await s.agent.get('/api/uploads')).body.uploads).toEqual([]);
  });

  it('tus › Upload-Concat (partial or final) answers 501 not_implemented in the API error shape, not 500, and logs no error', async () => {
    const s = await signUpStudent(t);
    const error = vi.spyOn(console, 'error');
    try {
      for (const concat of ['partial', 'final;/api/uploads/tus/abcdefghijkl']) {
        const res = await s.agent.post('/api/uploads/tus').set('Tus-Resumable', '1.0.0').set('Upload-Length', '100').set('Upload-Concat', concat);
        expect(res.status, concat).toBe(501);
        expect(JSON.parse(res.text).error, concat).toMatchObject({ code: 'not_implemented', message: expect.stringMatching(/Concatenation extension is not/) });
      }
      expect(error.mock.calls.map((c) => c.join(' ')).filter((l) => l.includes('/api/uploads/tus'))).toEqual([]);
    } finally { error.mockRestore(); }
  });

  it('tus › refuses Upload-Length over 5 MB at creation with 413 and creates nothing', async () => {
    const s = await signUpStudent(t);
    const before = tusFiles().length;
    const { res } = await create(s.agent, 5 * 1024 * 1024 + 1);
    expect(res.status).toBe(413);
    expect(tusFiles().length).toBe(before);
    expect((await create(s.agent, 5 * 1024 * 1024)).res.status).toBe(201);
  });

  it('tus › only the owner can HEAD, PATCH or DELETE an upload; others get 404, anonymous 401', async () => {
    const owner = await signUpStudent(t);
    const other = await signUpStudent(t);
    const { url } = await create(owner.agent, 1000);
    await patch(owner.agent, url!, 0, pdf(1000).subarray(0, 400));
    expect((await head(other.agent, url!)).status).toBe(404);
    expect((await patch(other.agent, url!, 400, Buffer.alloc(600))).status).toBe(404);
    expect((await other.agent.delete(url!).set('Tus-Resumable', '1.0.0')).status).toBe(404);
    expect((await head(t.request(), url!)).status).toBe(401);
    expect((await t.request().post('/api/uploads/tus').set('Tus-Resumable', '1.0.0').set('Upload-Length', '10')).status).toBe(401);
    // Untouched by the attempts.
    expect((await head(owner.agent, url!)).headers['upload-offset']).toBe('400');
  });

  it("tus › an upload's owner check cannot be sidestepped by naming another upload in the query string (HEAD, PATCH, DELETE act on the caller's own upload or none)", async () => {
    const victim = await signUpStudent(t);
    const attacker = await signUpStudent(t);
    const theirs = (await create(victim.agent, 1000, 'id.pdf')).url!;
    await patch(victim.agent, theirs, 0, pdf(1000).subarray(0, 300));
    const mine = (await create(attacker.agent, 1000)).url!;
    const smuggled = `${mine}?x=/${theirs.split('/').pop()}`;

    const peek = await head(attacker.agent, smuggled);
    expect(peek.headers['upload-offset']).toBe('0');
    expect(peek.headers['upload-metadata'] ?? '').not.toContain(b64('id.pdf'));
    const write = await patch(attacker.agent, smuggled, 300, Buffer.alloc(700));
    expect(write.status).toBe(409);
    expect((await attacker.agent.delete(smuggled).set('Tus-Resumable', '1.0.0')).status).toBe(204);

    // The victim's upload is as they left it, still theirs and still resumable.
    const after = await head(victim.agent, theirs);
    expect(after.status).toBe(200);
    expect(after.headers['upload-offset']).toBe('300');
    expect((await patch(victim.agent, theirs, 300, pdf(1000).subarray(300))).status).toBe(200);
    const listed = await victim.agent.get('/api/uploads');
    expect(JSON.stringify(listed.body)).toContain('id.pdf');
  });

  it('tus › a finished upload whose bytes are not an allowed type is refused with 415 and its partial deleted', async () => {
    const s = await signUpStudent(t);
    const { url } = await create(s.agent, EXE.length, 'cv.pdf');
    const id = url!.split('/').pop()!;
    expect(tusFiles().some((f) => f.startsWith(id))).toBe(true);
    const res = await patch(s.agent, url!, 0, EXE);
    expect(res.status).toBe(415);
    expect(JSON.parse(res.text).error.code).toBe('unsupported_media_type');
    expect(tusFiles().some((f) => f.startsWith(id))).toBe(false);
    expect((await head(s.agent, url!)).status).toBe(404);
    expect((await s.agent.get('/api/uploads')).body.uploads).toEqual([]);
  });

  it('tus › on a new DATA_DIR the start-up purge finds nothing to purge (it ran before the folder existed and failed)', async () => {
    // Inside this file's DATA_DIR, removed after all tests: FileStore still runs its own mkdir in the background,
    // and removing the folder under it at once would fail that mkdir.
    const fresh = path.join(dataDir, 'a-new-data-dir');
    expect(fs.existsSync(fresh)).toBe(false);
    expect(await purgeAbandonedTusUploads({ ...t.config, dataDir: fresh })).toBe(0);
    expect(fs.existsSync(path.join(fresh, 'uploads', 'tus'))).toBe(true);
  });

  it('tus › unfinished uploads older than 24 h are purged, younger ones kept', async () => {
    const s = await signUpStudent(t);
    const old = (await create(s.agent, 2000)).url!.split('/').pop()!;
    const fresh = (await create(s.agent, 2000)).url!.split('/').pop()!;
    await patch(s.agent, `/api/uploads/tus/${old}`, 0, pdf(2000).subarray(0, 500));
    const info = path.join(tusDir(), `${old}.json`);
    const meta = JSON.parse(fs.readFileSync(info, 'utf8'));
    meta.creation_date = new Date(Date.now() - 25 * 3600_000).toISOString();
    fs.writeFileSync(info, JSON.stringify(meta));
    expect(await purgeAbandonedTusUploads(t.config)).toBeGreaterThanOrEqual(1);
    expect(tusFiles().some((f) => f.startsWith(old))).toBe(false);
    expect((await head(s.agent, `/api/uploads/tus/${old}`)).status).toBe(404);
    expect((await head(s.agent, `/api/uploads/tus/${fresh}`)).status).toBe(200);
  });

  it('tus › PATCH bodies pass the same-origin check from this origin and are refused from another', async () => {
    const s = await signUpStudent(t);
    const file = pdf(800);
    const { url } = await create(s.agent, file.length);
    const cross = await patch(s.agent, url!, 0, file).set('Origin', 'https://evil.example').set('Sec-Fetch-Site', 'cross-site');
    expect(cross.status).toBe(403);
    const same = await patch(s.agent, url!, 0, file).set('Origin', t.url).set('Sec-Fetch-Site', 'same-origin');
    expect(same.status).toBe(200);
  });
});
