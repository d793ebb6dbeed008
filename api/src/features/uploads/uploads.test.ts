import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signUpStudent, signInAdmin, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';
import { startS3Server, type TestS3Server } from '../../test/s3-server.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const JPG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0'), Buffer.alloc(64)]);
const DOC = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]);
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(58), Buffer.from([0x80, 0, 0, 0]), Buffer.alloc(64), Buffer.from('PE\0\0'), Buffer.alloc(200)]);
const HTML = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');

/** A minimal stored (uncompressed) zip: enough for a DOCX signature. */
function zip(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = []; const centrals: Buffer[] = []; let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const data = Buffer.from(text); const fname = Buffer.from(name); const crc = zlib.crc32(data);
    const local = Buffer.alloc(30); local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(20, 4); local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18); local.writeUInt32LE(data.length, 22); local.writeUInt16LE(fname.length, 26);
    const central = Buffer.alloc(46); central.writeUInt32LE(0x02014b50, 0); central.writeUInt16LE(20, 4); central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16); central.writeUInt32LE(data.length, 20); central.writeUInt32LE(data.length, 24); central.writeUInt16LE(fname.length, 28); central.writeUInt32LE(offset, 42);
    locals.push(local, fname, data); centrals.push(central, fname); offset += 30 + fname.length + data.length;
  }
  const cd = Buffer.concat(centrals); const end = Buffer.alloc(22); end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8); end.writeUInt16LE(centrals.length / 2, 10); end.writeUInt32LE(cd.length, 12); end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
const DOCX = zip({
  '[Content_Types].xml': '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  'word/document.xml': '<w:document/>',
});

// Every test runs on both document-store drivers (issue #13): local disk, and S3 against a real s3rver.
describe.each(['local', 's3'] as const)(`uploads (${DB_KIND}, %s document store)`, (driver) => {
  let t: TestApp;
  let s3: TestS3Server | undefined;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(`/tmp/college-uploads-test-${process.pid}-`);
    if (driver === 's3') s3 = await startS3Server();
    t = await startTestApp({ DATA_DIR: dataDir, ...s3?.env });
  });
  afterAll(async () => { await t.close(); await s3?.close(); fs.rmSync(dataDir, { recursive: true, force: true }); });
  /** The keys of every stored document, read from the backend itself (folder or bucket). */
  const storedKeys = async () => (driver === 'local'
    ? (fs.existsSync(path.join(dataDir, 'uploads')) ? fs.readdirSync(path.join(dataDir, 'uploads')).sort() : [])
    : t.store.list());

  it('the app stores documents in the configured driver', () => {
    expect(t.store.kind).toBe(driver);
  });

  it('POST /api/uploads › accepts PDF, DOC, DOCX, JPG and PNG by their bytes and stores them under a random name', async () => {
    const s = await signUpStudent(t);
    for (const [name, buf, mime] of [['cv.pdf', PDF, 'application/pdf'], ['old.doc', DOC, 'application/msword'],
      ['new.docx', DOCX, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'], ['id.jpeg', JPG, 'image/jpeg'], ['id.png', PNG, 'image/png']] as const) {
      const res = await s.agent.post('/api/uploads').attach('file', buf, name);
      expect(res.status, name).toBe(201);
      expect(res.body.upload).toMatchObject({ name, mime, size: buf.length });
    }
    const keys = await storedKeys();
    expect(keys.length).toBe(5);
    expect(keys.some((f) => /cv|old|new|id\./.test(f))).toBe(false);
    expect((await s.agent.get('/api/uploads')).body.uploads.length).toBe(5);
  });

  it('POST /api/uploads › refuses a renamed .exe, HTML posing as a PDF and SVG with 415, writing nothing', async () => {
    const s = await signUpStudent(t);
    const before = (await storedKeys());
    for (const [name, buf] of [['transcript.pdf', EXE], ['transcript.pdf', HTML], ['photo.png', SVG]] as const) {
      const res = await s.agent.post('/api/uploads').attach('file', buf, { filename: name, contentType: 'application/pdf' });
      expect(res.status, name).toBe(415);
      expect(res.body.error.message).toBe('Only PDF, DOC, DOCX, JPG, JPEG and PNG files are accepted');
    }
    expect((await storedKeys())).toEqual(before);
    expect((await s.agent.get('/api/uploads')).body.uploads).toEqual([]);
  });

  it('POST /api/uploads › refuses a file over 5 MB with 413; exactly 5 MB is accepted', async () => {
    const s = await signUpStudent(t);
    const big = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024 + 1 - PDF.length)]);
    const res = await s.agent.post('/api/uploads').attach('file', big, 'big.pdf');
    expect(res.status).toBe(413);
    expect(res.body.error.message).toBe('File size exceeds 5MB limit');
    const edge = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024 - PDF.length)]);
    expect((await s.agent.post('/api/uploads').attach('file', edge, 'edge.pdf')).status).toBe(201);
  });

  it('POST /api/uploads › a ../ name changes nothing outside the upload folder and is shown sanitised', async () => {
    const s = await signUpStudent(t);
    const outside = fs.readdirSync(dataDir).sort();
    const res = await s.agent.post('/api/uploads').attach('file', PDF, '../../etc/evil<script>.pdf');
    expect(res.status).toBe(201);
    expect(res.body.upload.name).toBe('evil_script_.pdf');
    expect(fs.readdirSync(dataDir).sort()).toEqual(driver === 'local' ? [...new Set([...outside, 'uploads'])].sort() : outside);
    expect(fs.existsSync('/etc/evil<script>.pdf')).toBe(false);
    const dl = await s.agent.get(`/api/uploads/${res.body.upload.id}`);
    expect(dl.headers['content-disposition']).toMatch(/^attachment; filename="evil_script_.pdf"/);
  });

  it('walk-in upload › a name with accents and a dash (sent as UTF-8, as browsers do) is stored and downloaded unchanged', async () => {
    const admin = await signInAdmin(t);
    const applicant = (await admin.agent.post('/api/admin/walk-in/applicants').send({ firstName: 'Sébastien', lastName: 'Mudau', email: `walkin.${Date.now()}@example.com`, phone: '0821234567', campusId: 1, privacyConsent: true })).body.applicant;
    const name = 'Sébastien – certified ID.pdf';
    const res = await admin.agent.post(`/api/admin/walk-in/applicants/${applicant.id}/uploads`).attach('file', PDF, name);
    expect(res.status).toBe(201);
    expect(res.body.upload.name).toBe(name);
    const dl = await admin.agent.get(`/api/uploads/${res.body.upload.id}`);
    expect(dl.status).toBe(200);
    expect(dl.headers['content-disposition']).toBe(`attachment; filename="S_bastien _ certified ID.pdf"; filename*=UTF-8''${encodeURIComponent(name)}`);
  });

  it('POST /api/uploads › anonymous 401; no file 400', async () => {
    expect((await t.request().post('/api/uploads').attach('file', PDF, 'a.pdf')).status).toBe(401);
    const s = await signUpStudent(t);
    expect((await s.agent.post('/api/uploads').field('x', 'y')).status).toBe(400);
  });

  it('GET /api/uploads/:id › owner and admin download as an attachment; another student gets 404', async () => {
    const owner = await signUpStudent(t);
    const other = await signUpStudent(t);
    const id = (await owner.agent.post('/api/uploads').attach('file', PNG, 'id.png')).body.upload.id;
    const mine = await owner.agent.get(`/api/uploads/${id}`).buffer(true);
    expect(mine.status).toBe(200);
    expect(mine.headers['content-type']).toBe('image/png');
    expect(mine.headers['content-disposition']).toContain('attachment');
    expect(Buffer.compare(mine.body, PNG)).toBe(0);
    expect((await other.agent.get(`/api/uploads/${id}`)).status).toBe(404);
    expect((await other.agent.delete(`/api/uploads/${id}`)).status).toBe(404);
    expect((await t.request().get(`/api/uploads/${id}`)).status).toBe(401);
    const admin = await signInAdmin(t);
    const asAdmin = await admin.agent.get(`/api/uploads/${id}`).buffer(true);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.headers['content-length']).toBe(String(PNG.length));
    expect(Buffer.compare(asAdmin.body, PNG)).toBe(0);
  });

  it('GET /api/uploads/:id?inline=1 › PDF, PNG and JPEG open in the browser, sandboxed; DOCX still downloads; same access rules', async () => {
    const owner = await signUpStudent(t);
    const other = await signUpStudent(t);
    const admin = await signInAdmin(t);
    for (const [name, buf] of [['ID copy.pdf', PDF], ['scan.png', PNG], ['photo.jpg', JPG]] as const) {
      const id = (await owner.agent.post('/api/uploads').attach('file', buf, name)).body.upload.id;
      for (const who of [owner, admin]) {
        const res = await who.agent.get(`/api/uploads/${id}?inline=1`).buffer(true);
        expect(res.status, name).toBe(200);
        expect(res.headers['content-disposition'], name).toBe(`inline; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`);
        expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['cache-control']).toBe('private, no-store');
        expect(Buffer.compare(res.body, buf)).toBe(0);
      }
      expect((await owner.agent.get(`/api/uploads/${id}`)).headers['content-disposition']).toMatch(/^attachment; /);
      expect((await other.agent.get(`/api/uploads/${id}?inline=1`)).status).toBe(404);
      expect((await t.request().get(`/api/uploads/${id}?inline=1`)).status).toBe(401);
    }
    const docx = (await owner.agent.post('/api/uploads').attach('file', DOCX, 'letter.docx')).body.upload.id;
    expect((await owner.agent.get(`/api/uploads/${docx}?inline=1`).buffer(true)).headers['content-disposition']).toMatch(/^attachment; /);
    const bad = await owner.agent.get(`/api/uploads/${docx}?inline=yes`);
    expect([bad.status, bad.body.error?.fields]).toEqual([400, { inline: 'inline must be 1' }]);
  });

  it('GET /api/uploads/:id › a document whose stored bytes are gone answers 404, not 500', async () => {
    const s = await signUpStudent(t);
    const before = await storedKeys();
    const id = (await s.agent.post('/api/uploads').attach('file', PDF, 'cv.pdf')).body.upload.id;
    const [key] = (await storedKeys()).filter((k) => !before.includes(k));
    await t.store.delete(key);
    const res = await s.agent.get(`/api/uploads/${id}`);
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe('Document not found');
  });

  it('DELETE /api/uploads/:id › the owner removes an unattached file (row and bytes); an attached one is 409', async () => {
    const s = await signUpStudent(t);
    const before = (await storedKeys());
    const loose = (await s.agent.post('/api/uploads').attach('file', PDF, 'loose.pdf')).body.upload.id;
    expect((await storedKeys()).length).toBe(before.length + 1);
    expect((await s.agent.delete(`/api/uploads/${loose}`)).status).toBe(204);
    expect((await storedKeys())).toEqual(before);
    expect((await s.agent.get(`/api/uploads/${loose}`)).status).toBe(404);

    const idDocument = (await s.agent.post('/api/uploads').attach('file', PDF, 'id.pdf')).body.upload.id;
    const transcripts = (await s.agent.post('/api/uploads').attach('file', PNG, 'tr.png')).body.upload.id;
    expect((await s.agent.post('/api/applications').send(validApplication(1, { idDocument, transcripts }))).status).toBe(201);
    expect((await s.agent.delete(`/api/uploads/${idDocument}`)).status).toBe(409);
    expect((await s.agent.get(`/api/uploads/${idDocument}`)).status).toBe(200);
  });
});
