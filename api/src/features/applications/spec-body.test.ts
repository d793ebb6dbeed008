import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestApp, signUpStudent, signInAdmin, insertUpload, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';
import { applications, uploads } from '../../db/schema/applications.ts';
import { siteOrigin } from '../../mail/links.ts';
import { mailsTo } from '../../test/mail.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const VALID_SA_ID = '0104125800086';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const dataUrl = (buf: Buffer, mime = 'application/pdf') => `data:${mime};base64,${buf.toString('base64')}`;
const highSchool = { name: 'Mbilwi Secondary', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', qualification: 'NSC', grade: '72%' };

/** A student whose profile holds every step-1 detail. */
async function studentWithProfile() {
  const s = await signUpStudent(t);
  const res = await s.agent.put('/api/profile').send({
    firstName: 'Thandi', lastName: 'Mokoena', phone: '0821234567', nationality: 'za', idNumber: VALID_SA_ID,
    addressLine1: '12 Church Street', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za',
  });
  expect(res.status).toBe(200);
  return s;
}

/** Exactly the spec §7 body: userId, courseId, academicHistory, documents, status, paymentStatus, paymentAmount. */
const specBody = (userId: number, courseId: number, documents: Record<string, string>) => ({
  userId, courseId, academicHistory: { highSchool }, documents, status: 'pending', paymentStatus: 'completed', paymentAmount: '50.00',
});

describe(`POST /api/applications with the spec §7 body (${DB_KIND})`, () => {
  it('POST /api/applications › the spec §7 body from a student whose profile holds their details answers 201 with the profile details', async () => {
    const s = await studentWithProfile();
    const transcripts = await insertUpload(t, s.user.id);
    const res = await s.agent.post('/api/applications').send(specBody(s.user.id, 1, { idDocument: dataUrl(PDF), transcripts }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [row] = await t.database.db.select().from(applications).where(eq(applications.id, res.body.application.id));
    expect(row.personal).toMatchObject({ firstName: 'Thandi', phone: '0821234567', dateOfBirth: '2001-04-12', nationality: 'za', city: 'Thohoyandou', email: s.email });
    expect(row).toMatchObject({ status: 'pending', paymentStatus: 'completed', paymentAmount: '50.00', userId: s.user.id });
    const docs = row.documents as Record<string, string>;
    expect(docs.transcripts).toBe(transcripts);
    expect(docs.idDocument).toMatch(/^[A-Za-z0-9_-]{10,64}$/);
    const download = await s.agent.get(`/api/uploads/${docs.idDocument}`).buffer(true).parse((r, cb) => { const c: Buffer[] = []; r.on('data', (d: Buffer) => c.push(d)); r.on('end', () => cb(null, Buffer.concat(c))); });
    expect(download.status).toBe(200);
    expect(Buffer.compare(download.body, PDF)).toBe(0);
  });

  it('POST /api/applications › ignores a userId that is not the caller (the application is the caller\'s)', async () => {
    const s = await studentWithProfile();
    const other = await signUpStudent(t);
    const res = await s.agent.post('/api/applications').send(specBody(other.user.id, 2, { idDocument: dataUrl(PDF), transcripts: dataUrl(PDF) }));
    expect(res.status).toBe(201);
    expect(res.body.application.userId).toBe(s.user.id);
  });

  it('POST /api/applications › a profile without the details gets 400 naming the missing profile fields; nothing is written', async () => {
    const s = await signUpStudent(t);
    const res = await s.agent.post('/api/applications').send(specBody(s.user.id, 1, { idDocument: dataUrl(PDF), transcripts: dataUrl(PDF) }));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^Your profile is missing your date of birth, nationality, address, city, state\/province, postal code, country\./);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['addressLine1', 'city', 'country', 'dateOfBirth', 'nationality', 'postalCode', 'state']);
    expect(await t.database.db.select().from(applications).where(eq(applications.userId, s.user.id))).toHaveLength(0);
    expect(await t.database.db.select().from(uploads).where(eq(uploads.userId, s.user.id))).toHaveLength(0);
  });

  it("POST /api/applications › a document that is neither an upload id nor a data URL gets 'Please upload the document'", async () => {
    const s = await studentWithProfile();
    const res = await s.agent.post('/api/applications').send(specBody(s.user.id, 1, { idDocument: 'C:\\fakepath\\id.pdf', transcripts: 'data:text/plain,hello', englishProficiency: 'x' }));
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toMatchObject({ 'documents.idDocument': 'Please upload the document', 'documents.transcripts': 'Please upload the document', 'documents.englishProficiency': 'Please upload the document' });
    // Shaped like an upload id but no upload of theirs: a browser placeholder identifier.
    const placeholder = await s.agent.post('/api/applications').send(specBody(s.user.id, 1, { idDocument: dataUrl(PDF), transcripts: 'placeholder-doc-1234' }));
    expect(placeholder.status).toBe(400);
    expect(placeholder.body.error.fields).toEqual({ 'documents.transcripts': 'Please upload the document' });
    expect(await t.database.db.select().from(uploads).where(eq(uploads.userId, s.user.id))).toHaveLength(0);
  });

  it('POST /api/applications › a data URL over 5 MB is 413 and one that is not PDF/DOC/DOCX/JPG/PNG by its bytes is 415; no upload is left', async () => {
    const s = await studentWithProfile();
    const big = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024)]);
    const tooBig = await s.agent.post('/api/applications').send(specBody(s.user.id, 1, { idDocument: dataUrl(PDF), transcripts: dataUrl(big) }));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error.fields).toEqual({ 'documents.transcripts': 'File size exceeds 5MB limit' });
    const html = Buffer.from('<!doctype html><script>alert(1)</script>');
    const wrongType = await s.agent.post('/api/applications').send(specBody(s.user.id, 1, { idDocument: dataUrl(PDF), transcripts: dataUrl(html, 'application/pdf') }));
    expect(wrongType.status).toBe(415);
    expect(Object.keys(wrongType.body.error.fields)).toEqual(['documents.transcripts']);
    expect(await t.database.db.select().from(uploads).where(eq(uploads.userId, s.user.id))).toHaveLength(0);
    expect(await t.database.db.select().from(applications).where(eq(applications.userId, s.user.id))).toHaveLength(0);
  });

  it('POST /api/applications › a duplicate active application removes the data-URL uploads it would have stored', async () => {
    const s = await studentWithProfile();
    expect((await s.agent.post('/api/applications').send(specBody(s.user.id, 3, { idDocument: dataUrl(PDF), transcripts: dataUrl(PDF) }))).status).toBe(201);
    const again = await s.agent.post('/api/applications').send(specBody(s.user.id, 3, { idDocument: dataUrl(PDF), transcripts: dataUrl(PDF) }));
    expect(again.status).toBe(409);
    expect(await t.database.db.select().from(uploads).where(eq(uploads.userId, s.user.id))).toHaveLength(2);
  });
});

describe(`school years (${DB_KIND})`, () => {
  const year = new Date().getFullYear();
  const apply = async (hs: Record<string, string>, college?: Record<string, string>) => {
    const s = await signUpStudent(t);
    const docs = { idDocument: await insertUpload(t, s.user.id), transcripts: await insertUpload(t, s.user.id) };
    const body = validApplication(1, docs);
    return s.agent.post('/api/applications').send({ ...body, academicHistory: { highSchool: { ...highSchool, ...hs }, ...(college ? { college } : {}) } });
  };

  it('POST /api/applications › the end year is never before the start year (high school and college)', async () => {
    const res = await apply({ from: '2019', to: '2015' }, { name: 'UNIVEN', from: '2022', to: '2020' });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toMatchObject({
      'academicHistory.highSchool.to': 'End year cannot be before the start year',
      'academicHistory.college.to': 'End year cannot be before the start year',
    });
  });

  it('POST /api/applications › years run from 1990 to the current year: 1989 and next year refused, this year accepted', async () => {
    const res = await apply({ from: '1989', to: String(year + 1) });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toMatchObject({
      'academicHistory.highSchool.from': `Year must be between 1990 and ${year}`,
      'academicHistory.highSchool.to': `Year must be between 1990 and ${year}`,
    });
    expect((await apply({ from: String(year - 4), to: String(year) })).status).toBe(201);
  });
});

describe(`e-mail links (${DB_KIND})`, () => {
  it('status e-mails › link to the application with an absolute URL: without PUBLIC_URL the listen address, as reset links do, whatever the Host header says', async () => {
    const admin = await signInAdmin(t);
    const s = await studentWithProfile();
    const app = await s.agent.post('/api/applications').send(specBody(s.user.id, 4, { idDocument: dataUrl(PDF), transcripts: dataUrl(PDF) }));
    const id = app.body.application.id;
    expect((await admin.agent.put(`/api/admin/applications/${id}/status`).set('Host', 'apply.college.test:8443').send({ status: 'under_review', notes: '' })).status).toBe(200);
    const mails = (await mailsTo(t, s.email)).filter((m) => !m.subject.startsWith('Please confirm your e-mail'));
    expect(mails).toHaveLength(2);
    // One origin rule for every link (mail/links.ts): the request's Host is the client's choice.
    for (const m of mails) expect(m.text).toContain(`${siteOrigin(t.config)}/applications/${id}`);
    for (const m of mails) expect(m.text).not.toContain('apply.college.test');
    for (const m of mails) expect(m.text).not.toMatch(/ \/my-applications|at \/applications/);
  });

  it('status e-mails › use PUBLIC_URL when it is set, whatever the Host header says', async () => {
    const t2 = await startTestApp({ PUBLIC_URL: 'https://www.college.example/' });
    try {
      const s = await signUpStudent(t2);
      const docs = { idDocument: await insertUpload(t2, s.user.id), transcripts: await insertUpload(t2, s.user.id) };
      const res = await s.agent.post('/api/applications').set('Host', 'evil.example').send(validApplication(1, docs));
      expect(res.status).toBe(201);
      const [mail] = (await mailsTo(t2, s.email)).filter((m) => !m.subject.startsWith('Please confirm your e-mail'));
      expect(mail.text).toContain(`https://www.college.example/applications/${res.body.application.id}`);
      expect(mail.text).not.toContain('evil.example');
    } finally { await t2.close(); }
  });
});
