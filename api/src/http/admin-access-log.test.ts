import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, signUpStudent, signInAdmin, validApplication, DB_KIND, type TestApp } from '../test/harness.ts';

let t: TestApp;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
/** Uploads a small PDF as `s`; resolves to its id. */
const upload = async (s: Awaited<ReturnType<typeof signUpStudent>>) => (await s.agent.post('/api/uploads').attach('file', PDF, 'id.pdf')).body.upload.id as string;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

/**
 * The `[access]` lines console.info printed for the requests `run` made, read once the server has closed every one of
 * their responses. The line is written on the response's 'close', which for a document comes after the client has its
 * last byte (the file stream still has to see its end): a fixed pause after the last request missed it on a busy run.
 */
async function accessLines(run: () => Promise<void>): Promise<string[]> {
  const spy = vi.spyOn(console, 'info');
  const open = new Set<Promise<void>>();
  const track = (_req: unknown, res: import('node:http').ServerResponse) => { open.add(new Promise<void>((r) => res.once('close', () => r()))); };
  t.server.on('request', track);
  try {
    await run();
    await Promise.all(open);
    return spy.mock.calls.map((c) => c.map(String).join(' ')).filter((l) => l.startsWith('[access]'));
  } finally { t.server.off('request', track); spy.mockRestore(); }
}

describe(`admin access log (${DB_KIND})`, () => {
  it('an admin reading an application, the students list, contact messages, bookings, the CSV export and a document writes one line each: admin id, path, count; no personal data', async () => {
    const s = await signUpStudent(t, { firstName: 'Ḓivhani', lastName: 'Nemakonde', phone: '0825551234' });
    const idDocument = await upload(s);
    const app = await s.agent.post('/api/applications').send({ ...validApplication(1, { idDocument, transcripts: idDocument }), firstName: 'Ḓivhani', lastName: 'Nemakonde' });
    expect(app.status).toBe(201);
    const id = app.body.application.id as number;
    const admin = await signInAdmin(t);
    const a = admin.user.id;

    const lines = await accessLines(async () => {
      expect((await admin.agent.get(`/api/admin/applications/${id}`)).status).toBe(200);
      expect((await admin.agent.get(`/api/admin/students?q=${encodeURIComponent('Nemakonde')}`)).status).toBe(200);
      expect((await admin.agent.get('/api/admin/contact-messages')).status).toBe(200);
      expect((await admin.agent.get('/api/admin/assessment-bookings')).status).toBe(200);
      expect((await admin.agent.get(`/api/admin/applications/export.csv?q=${encodeURIComponent(s.email)}`)).status).toBe(200);
      expect((await admin.agent.get(`/api/uploads/${idDocument}`)).status).toBe(200);
      expect((await admin.agent.get('/api/admin/stats')).status).toBe(200);
      expect((await admin.agent.get('/api/admin/applications/999999')).status).toBe(404);
    });
    expect(lines).toEqual([
      `[access] admin ${a} read GET /api/admin/applications/${id} → 200, 1 record`,
      `[access] admin ${a} read GET /api/admin/students (search) → 200, 1 record`,
      expect.stringMatching(new RegExp(`^\\[access\\] admin ${a} read GET /api/admin/contact-messages → 200, \\d+ records?$`)),
      expect.stringMatching(new RegExp(`^\\[access\\] admin ${a} read GET /api/admin/assessment-bookings → 200, \\d+ records?$`)),
      `[access] admin ${a} read GET /api/admin/applications/export.csv (search) → 200, 1 record`,
      `[access] admin ${a} read GET /api/uploads/${idDocument} → 200, 1 record`,
    ]);
    for (const l of lines) for (const pii of ['Nemakonde', 'Ḓivhani', s.email, '0825551234', '082 555']) expect(l).not.toContain(pii);
  });

  it('a student reading their own application and document writes no access line', async () => {
    const s = await signUpStudent(t);
    const idDocument = await upload(s);
    const app = await s.agent.post('/api/applications').send(validApplication(1, { idDocument, transcripts: idDocument }));
    const lines = await accessLines(async () => {
      expect((await s.agent.get(`/api/applications/${app.body.application.id}`)).status).toBe(200);
      expect((await s.agent.get(`/api/uploads/${idDocument}`)).status).toBe(200);
      expect((await s.agent.get('/api/admin/students')).status).toBe(403);
    });
    expect(lines).toEqual([]);
  });
});

describe(`admin access log: every spelling of a personal read, the external system, record counts (${DB_KIND})`, () => {
  it('upper- and mixed-case paths, a trailing slash, the external reads and an .CSV export each write one line with the right count', async () => {
    const s = await signUpStudent(t, { firstName: 'Mpho', lastName: 'Ramaphakela' });
    const idDocument = await upload(s);
    const app = await s.agent.post('/api/applications').send({ ...validApplication(1, { idDocument, transcripts: idDocument }), email: s.email, firstName: 'Mpho', lastName: 'Ramaphakela' });
    expect(app.status).toBe(201);
    const id = app.body.application.id as number;
    const email = `access-ext-${id}@example.com`;
    const admin = await signInAdmin(t, email, 'admin-pass-123');
    const a = admin.user.id;
    // A decision: the detail now holds a history of several entries, and is still one record.
    expect((await admin.agent.put(`/api/admin/applications/${id}/status`).send({ status: 'accepted' })).status).toBe(200);
    const detail = await admin.agent.get(`/api/admin/applications/${id}`);
    expect(detail.body.history.length).toBeGreaterThan(1);
    expect((await admin.agent.post('/api/external/login').send({ email, password: 'admin-pass-123' })).status).toBe(200);

    let exported = 0;
    const lines = await accessLines(async () => {
      const upper = await admin.agent.get(`/API/ADMIN/APPLICATIONS/${id}`);
      expect(upper.status).toBe(200);
      expect(upper.body.application.id).toBe(id);
      expect((await admin.agent.get('/api/Admin/Students/')).status).toBe(200);
      expect((await admin.agent.get(`/api/admin/applications/${id}`)).status).toBe(200);
      const encoded = String(id).replace(/\d/g, (d) => `%3${d}`);
      const viaEncoded = await admin.agent.get(`/api/applications/${encoded}`);
      expect(viaEncoded.status).toBe(200);
      expect(viaEncoded.body.application.id).toBe(id);
      const csv = await admin.agent.get('/api/admin/applications/export.CSV').buffer(true).parse((res, cb) => {
        let text = ''; res.setEncoding('utf8'); res.on('data', (c: string) => { text += c; }); res.on('end', () => cb(null, text));
      });
      expect(csv.status).toBe(200);
      exported = (csv.body as string).trimEnd().split('\n').length - 1;
      const enrolable = await admin.agent.get(`/api/external/enrolable-applications?q=${encodeURIComponent('Ramaphakela')}`);
      expect(enrolable.status).toBe(200);
      expect(enrolable.body.applications).toHaveLength(1);
      expect((await admin.agent.get('/api/external/students')).status).toBe(200);
      expect((await admin.agent.get('/api/external/branches/1/students')).status).toBe(200);
      expect((await admin.agent.get('/api/external/payments')).status).toBe(200);
      expect((await admin.agent.get('/api/external/payments.csv')).status).toBe(200);
      expect((await admin.agent.get('/api/external/branches')).status).toBe(200);
    });
    expect(lines).toEqual([
      `[access] admin ${a} read GET /API/ADMIN/APPLICATIONS/${id} → 200, 1 record`,
      expect.stringMatching(new RegExp(`^\\[access\\] admin ${a} read GET /api/Admin/Students/ → 200, \\d+ records?$`)),
      `[access] admin ${a} read GET /api/admin/applications/${id} → 200, 1 record`,
      `[access] admin ${a} read GET /api/applications/${String(id).replace(/\d/g, (d) => `%3${d}`)} → 200, 1 record`,
      `[access] admin ${a} read GET /api/admin/applications/export.CSV → 200, ${exported} records`,
      `[access] admin ${a} read GET /api/external/enrolable-applications (search) → 200, 1 record`,
      expect.stringMatching(new RegExp(`^\\[access\\] admin ${a} read GET /api/external/students → 200, \\d+ records?$`)),
      expect.stringMatching(new RegExp(`^\\[access\\] admin ${a} read GET /api/external/branches/1/students → 200, \\d+ records?$`)),
      expect.stringMatching(new RegExp(`^\\[access\\] admin ${a} read GET /api/external/payments → 200, \\d+ records?$`)),
      expect.stringMatching(new RegExp(`^\\[access\\] admin ${a} read GET /api/external/payments\\.csv → 200, \\d+ records?$`)),
    ]);
    expect(exported).toBeGreaterThan(1);
    for (const l of lines) for (const pii of ['Ramaphakela', 'Mpho', s.email]) expect(l).not.toContain(pii);
  });

  it('a request line with the absolute URL (GET http://host/api/admin/students) is the same read and writes the same line, with the path only', async () => {
    const admin = await signInAdmin(t);
    const { port } = t.server.address() as import('node:net').AddressInfo;
    let answer = '';
    const lines = await accessLines(async () => {
      answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.write(`GET http://127.0.0.1:${port}/api/admin/students HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${admin.token}\r\nConnection: close\r\n\r\n`);
        });
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (c: string) => { text += c; });
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
    });
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(answer).toContain('"students"');
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^\\[access\\] admin ${admin.user.id} read GET /api/admin/students → 200, \\d+ records?$`))]);
  });
});
