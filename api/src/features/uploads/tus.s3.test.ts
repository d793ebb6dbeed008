/**
 * Resumable (tus) uploads on the S3 document store (issue #16 point 1 with issue #13): the same endpoint as
 * tus.test.ts, with `@tus/s3-store` on a real S3-protocol server (s3rver plus the multipart calls of
 * api/src/test/s3-multipart-shim.ts), so the bytes travel as an S3 multipart upload.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signUpStudent, DB_KIND, type TestApp } from '../../test/harness.ts';
import { startS3Server, type TestS3Server } from '../../test/s3-server.ts';
import { findUploadRow } from './uploads.repo.ts';
import { purgeAbandonedTusUploads } from './tus.service.ts';

let t: TestApp;
let s3: TestS3Server;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(`/tmp/college-tus-s3-test-${process.pid}-`);
  s3 = await startS3Server({ bucket: 'tus-documents' });
  t = await startTestApp({ DATA_DIR: dataDir, ...s3.env });
});
afterAll(async () => { await t.close(); await s3.close(); fs.rmSync(dataDir, { recursive: true, force: true }); });

/** A PDF of `n` bytes (valid signature, random padding inside a comment). */
const pdf = (n: number) => Buffer.concat([Buffer.from('%PDF-1.4\n%'), crypto.randomBytes(n - 16), Buffer.from('\n%%EOF')]);
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(58), Buffer.from([0x80, 0, 0, 0]), Buffer.alloc(64), Buffer.from('PE\0\0'), Buffer.alloc(2000)]);
const b64 = (s: string) => Buffer.from(s).toString('base64');
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

type Student = Awaited<ReturnType<typeof signUpStudent>>;
async function create(s: Student, length: number, filename = 'matric.pdf') {
  const res = await s.agent.post('/api/uploads/tus').set('Tus-Resumable', '1.0.0').set('Upload-Length', String(length))
    .set('Upload-Metadata', `filename ${b64(filename)},filetype ${b64('application/pdf')}`);
  expect(res.status).toBe(201);
  return res.headers.location as string;
}
const patch = (s: Student, url: string, offset: number, chunk: Buffer) => s.agent.patch(url).set('Tus-Resumable', '1.0.0')
  .set('Upload-Offset', String(offset)).set('Content-Type', 'application/offset+octet-stream').send(chunk);
const head = (s: Student, url: string) => s.agent.head(url).set('Tus-Resumable', '1.0.0');
const download = (s: Student, id: string) => s.agent.get(`/api/uploads/${id}`).buffer(true)
  .parse((r, cb) => { const c: Buffer[] = []; r.on('data', (d: Buffer) => c.push(d)); r.on('end', () => cb(null, Buffer.concat(c))); });

/**
 * A PATCH whose connection drops: announces `body.length` bytes, sends the first `sent` and destroys the socket.
 * Resolves once the server has seen the connection close.
 */
function cutPatch(s: Student, url: string, offset: number, body: Buffer, sent: number): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(new URL(url, t.url), {
      method: 'PATCH',
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream', 'Content-Length': String(body.length), Authorization: `Bearer ${s.token}` },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(body.subarray(0, sent), () => setImmediate(() => req.destroy()));
  });
}

/** HEAD until the server reports an offset (the cut request may still be settling there); returns it. */
async function offsetAfterCut(s: Student, url: string): Promise<number> {
  for (let i = 0; ; i++) {
    const h = await head(s, url);
    if (h.status === 200) return Number(h.headers['upload-offset']);
    if (i > 50) throw new Error(`HEAD kept answering ${h.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe(`resumable uploads on the S3 document store (${DB_KIND})`, () => {
  it('tus on S3 › a document sent in two PATCHes, cut mid-way and resumed from the offset HEAD reports, is checked, lists in GET /api/uploads, downloads identical and leaves no tus object in the bucket', async () => {
    expect(t.store.kind).toBe('s3');
    const s = await signUpStudent(t);
    const file = pdf(1_500_000);
    const url = await create(s, file.length);
    const id = url.split('/').pop()!;

    // First PATCH: 600 000 bytes arrive whole.
    const first = await patch(s, url, 0, file.subarray(0, 600_000));
    expect(first.status).toBe(204);
    expect(first.headers['upload-offset']).toBe('600000');
    // Second PATCH: the connection drops after 300 000 more bytes.
    await cutPatch(s, url, 600_000, file.subarray(600_000), 300_000);
    // The client asks where to go on: at least what the first PATCH stored, at most what was sent.
    const offset = await offsetAfterCut(s, url);
    expect(offset).toBeGreaterThanOrEqual(600_000);
    expect(offset).toBeLessThanOrEqual(900_000);
    expect((await head(s, url)).headers['upload-length']).toBe(String(file.length));
    // Resuming anywhere else is refused; from the reported offset it completes.
    expect((await patch(s, url, 0, file.subarray(0, 10))).status).toBe(409);
    // As tus-js-client does: a 409 means the cut request was still storing bytes when HEAD answered (CI, 2026-11-27:
    // 'expected 409 to be 200' in the run of 7cf8aaa; it passed in the run before), so ask again and resume from the new offset.
    let done = await patch(s, url, offset, file.subarray(offset));
    for (let i = 0; done.status === 409 && i < 5; i++) {
      await new Promise((r) => setTimeout(r, 200));
      const now = await offsetAfterCut(s, url);
      expect(now).toBeLessThanOrEqual(900_000);
      done = await patch(s, url, now, file.subarray(now));
    }
    expect(done.status).toBe(200);
    expect(done.headers['upload-offset']).toBe(String(file.length));
    const upload = JSON.parse(done.text).upload;
    expect(upload).toMatchObject({ id, name: 'matric.pdf', mime: 'application/pdf', size: file.length, sha256: sha256(file) });

    expect((await s.agent.get('/api/uploads')).body.uploads.map((u: { id: string }) => u.id)).toEqual([id]);
    const dl = await download(s, id);
    expect(dl.status).toBe(200);
    expect(sha256(dl.body)).toBe(sha256(file));
    // The bucket holds the stored document only: no tus object, .info or .part is left behind.
    const row = await findUploadRow(t.database.db, id);
    expect(await t.store.list()).toEqual([row!.storedName]);
    // The last answer was lost: HEAD says complete, so the client does not start over.
    const again = await head(s, url);
    expect(again.status).toBe(200);
    expect(again.headers['upload-offset']).toBe(String(file.length));
    await s.agent.delete(`/api/uploads/${id}`).expect(204);
  });

  it('tus on S3 › a finished upload that is not an allowed type is refused with 415 and nothing of it stays in the bucket', async () => {
    const s = await signUpStudent(t);
    const before = await t.store.list();
    const url = await create(s, EXE.length, 'cv.pdf');
    expect((await patch(s, url, 0, EXE.subarray(0, 1000))).status).toBe(204);
    const res = await patch(s, url, 1000, EXE.subarray(1000));
    expect(res.status).toBe(415);
    expect(JSON.parse(res.text).error.code).toBe('unsupported_media_type');
    expect((await head(s, url)).status).toBe(404);
    expect((await s.agent.get('/api/uploads')).body.uploads).toEqual([]);
    expect(await t.store.list()).toEqual(before);
  });

  it('tus on S3 › a cancelled upload (DELETE) and an upload abandoned for over 24 h leave nothing in the bucket; a younger one is kept', async () => {
    const s = await signUpStudent(t);
    const before = await t.store.list();
    const cancelled = await create(s, 4000);
    await patch(s, cancelled, 0, pdf(4000).subarray(0, 1500));
    expect((await s.agent.delete(cancelled).set('Tus-Resumable', '1.0.0')).status).toBe(204);
    expect(await t.store.list()).toEqual(before);

    const old = await create(s, 4000);
    await patch(s, old, 0, pdf(4000).subarray(0, 1500));
    const fresh = await create(s, 4000);
    // Age the old upload's S3 multipart upload by 25 hours (s3rver dates it by its folder's `key` file).
    const uploads = path.join(s3.directory, 'tus-documents', '._S3rver_uploads');
    const oldId = old.split('/').pop()!;
    let aged = 0;
    for (const u of fs.readdirSync(uploads)) {
      const keyFile = path.join(uploads, u, 'key');
      if (fs.readFileSync(keyFile, 'utf8') !== oldId) continue;
      const then = new Date(Date.now() - 25 * 3600_000);
      fs.utimesSync(keyFile, then, then);
      aged++;
    }
    expect(aged).toBe(1);
    expect(await purgeAbandonedTusUploads(t.config)).toBeGreaterThanOrEqual(1);
    expect((await head(s, old)).status).toBe(404);
    expect((await head(s, fresh)).status).toBe(200);
    expect((await t.store.list()).filter((k) => k.startsWith(oldId))).toEqual([]);
  });
});
