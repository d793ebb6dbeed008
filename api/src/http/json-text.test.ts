import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, signInAdmin, signUpStudent, DB_KIND, type TestApp } from '../test/harness.ts';
import { UNSTORABLE_TEXT } from './json-text.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const contactCount = async () => Number(((await t.database.db.execute(sql`SELECT count(*)::int AS n FROM contact_messages`)) as any).rows[0].n);

describe(`bad input is a 400, never a 500 (${DB_KIND})`, () => {
  it('a NUL character or half an emoji anywhere in a JSON body gets 400 naming the field; nothing is written', async () => {
    const s = await signUpStudent(t);
    const before = (await s.agent.get('/api/profile')).body.user;
    const profile = await s.agent.put('/api/profile').send({ firstName: 'Ru\u0000dzani', lastName: 'Dent', phone: '0821234567' });
    expect(profile.status).toBe(400);
    expect(profile.body.error).toEqual({ code: 'validation_error', message: UNSTORABLE_TEXT, fields: { firstName: UNSTORABLE_TEXT } });
    expect((await s.agent.get('/api/profile')).body.user.firstName).toBe(before.firstName);

    const messages = await contactCount();
    const contact = await t.request().post('/api/contact').send({ firstName: 'Ann', lastName: 'Bee', email: 'ann@example.com', message: 'hello there \u0000 world' });
    expect(contact.status).toBe(400);
    expect(contact.body.error.fields).toEqual({ message: UNSTORABLE_TEXT });
    expect(await contactCount()).toBe(messages);

    const draft = await s.agent.put('/api/applications/draft?key=general').send({ step: 0, data: { academicHistory: { highSchool: { name: 'Mbilwi \ud800' } } } });
    expect(draft.status).toBe(400);
    expect(draft.body.error.fields).toEqual({ 'data.academicHistory.highSchool.name': UNSTORABLE_TEXT });
    const key = await s.agent.put('/api/applications/draft?key=general').send({ step: 0, data: { 'a\u0000': 'y' } });
    expect(key.status).toBe(400);
    const nsc = await s.agent.put('/api/profile/nsc-results').send({ nscResults: [{ subject: 'Other', percent: 50, name: 'ab\u0000c' }] });
    expect(nsc.status).toBe(400);

    // A whole emoji is fine in free text (a name holds only letters and ' ’ - . since person-name.ts).
    const fine = await s.agent.put('/api/profile').send({ firstName: 'Rudzani', lastName: 'Dent', phone: '0821234567', addressLine1: '12 Church Street 🎓' });
    expect(fine.status, JSON.stringify(fine.body)).toBe(200);
    expect((await s.agent.get('/api/profile')).body.user.addressLine1).toBe('12 Church Street 🎓');
  });

  it('a NUL character in a search of the admin lists or the exports gets 400 naming the parameter, not a 500', async () => {
    const admin = await signInAdmin(t);
    for (const path of ['/api/admin/applications', '/api/admin/students', '/api/admin/applications/export.csv']) {
      const res = await admin.agent.get(`${path}?q=Ndlovu%00`);
      expect(res.status, path).toBe(400);
      expect(res.body.error.fields, path).toEqual({ q: UNSTORABLE_TEXT });
    }
    expect((await admin.agent.get('/api/admin/applications?q=Ndlovu')).status).toBe(200);
  });

  it("a course price beyond the column's range gets 'Price is too large', not a 500", async () => {
    const admin = await signInAdmin(t);
    const course = { title: 'Big Price', description: 'A course.', level: 'certificate', duration: 6, department: 'Business', tuitionFee: 'R1', startDate: 'March 2027' };
    for (const price of [1e308, 99999999999999]) {
      const res = await admin.agent.post('/api/courses').send({ ...course, price });
      expect(res.status).toBe(400);
      expect(res.body.error.fields).toMatchObject({ price: 'Price is too large' });
    }
    expect((await admin.agent.post('/api/courses').send({ ...course, price: 4500 })).status).toBe(201);
  });

  it('an upload whose multipart body has no boundary gets 400, not a 500', async () => {
    const s = await signUpStudent(t);
    const res = await s.agent.post('/api/uploads').set('content-type', 'multipart/form-data').send('--x');
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual({ file: 'The upload was not a valid form; please choose the file again' });
  });

  it("a path id is decimal digits only: '0x1', '1e0' and '0b1' do not reach course 1", async () => {
    expect((await t.request().get('/api/courses/1')).status).toBe(200);
    for (const id of ['0x1', '1e0', '0b1', '01', '+1']) expect((await t.request().get(`/api/courses/${id}`)).status, id).toBeGreaterThanOrEqual(400);
  });
});
