import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import { startTestApp, signInAdmin, signUpStudent, validApplication, DB_KIND, type TestApp } from '../test/harness.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

/** GET `path` with Accept-Encoding: gzip over node:http, which never decodes: status, headers and the body exactly as sent. */
function wire(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    import('node:http').then(({ get }) => {
      get(`${t.url}${path}`, { headers: { 'accept-encoding': 'gzip', ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      }).on('error', reject);
    }, reject);
  });
}

// %PDF with enough repetitive text that gzip would shrink it a lot, were it re-encoded.
const PDF = Buffer.from(`%PDF-1.4\n${'1 0 obj<< /Type /Page >>endobj\n'.repeat(200)}trailer<<>>\n%%EOF\n`);

describe(`API answers are compressed (${DB_KIND})`, () => {
  it('GET /api/courses with Accept-Encoding: gzip comes gzipped (first read and the cached repeat), and unzips to the list', async () => {
    const plain = await wire('/api/courses', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const attempt of ['first', 'cached']) {
      const res = await wire('/api/courses');
      expect(res.status, attempt).toBe(200);
      expect(res.headers['content-encoding'], attempt).toBe('gzip');
      expect(res.headers.vary, attempt).toMatch(/accept-encoding/i);
      expect(res.bytes.length, attempt).toBeLessThan(plain.bytes.length / 2);
      expect(JSON.parse(zlib.gunzipSync(res.bytes).toString('utf8'))).toEqual(JSON.parse(plain.bytes.toString('utf8')));
    }
  });

  it('an admin JSON list (GET /api/admin/applications) comes gzipped', async () => {
    const s = await signUpStudent(t);
    const docs = await Promise.all([0, 1].map(async () => (await s.agent.post('/api/uploads').attach('file', PDF, 'doc.pdf')).body.upload.id as string));
    for (const courseId of [1, 2, 3]) expect((await s.agent.post('/api/applications').send(validApplication(courseId, { idDocument: docs[0]!, transcripts: docs[1]! }))).status).toBe(201);
    const admin = await signInAdmin(t);
    const res = await wire('/api/admin/applications', { authorization: `Bearer ${admin.token}` });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(res.bytes).toString('utf8')).total).toBeGreaterThanOrEqual(3);
  });

  it('a document download is sent as stored: no Content-Encoding, the same bytes and Content-Length', async () => {
    const s = await signUpStudent(t);
    const id = (await s.agent.post('/api/uploads').attach('file', PDF, 'transcript.pdf')).body.upload.id as string;
    const res = await wire(`/api/uploads/${id}`, { authorization: `Bearer ${s.token}` });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-length']).toBe(String(PDF.length));
    expect(res.bytes.equals(PDF)).toBe(true);
  });

  it('tus answers are not re-encoded: HEAD of an unfinished upload keeps Upload-Offset, no Content-Encoding', async () => {
    const s = await signUpStudent(t);
    const created = await s.agent.post('/api/uploads/tus').set('Tus-Resumable', '1.0.0').set('Upload-Length', String(PDF.length))
      .set('Upload-Metadata', `filename ${Buffer.from('t.pdf').toString('base64')}`);
    expect(created.status).toBe(201);
    const id = String(created.headers.location).split('/').pop();
    const head = await s.agent.head(`/api/uploads/tus/${id}`).set('Tus-Resumable', '1.0.0').set('Accept-Encoding', 'gzip');
    expect(head.status).toBe(200);
    expect(head.headers['upload-offset']).toBe('0');
    expect(head.headers['content-encoding']).toBeUndefined();
  });
});
