/**
 * Names, languages and numbers as people really type them (names audit), in the admin portal: Tshivenda and accented
 * names found without their letters, curly apostrophes, phone numbers typed with or without spaces and +27, and
 * the applications CSV opening in Excel with its letters intact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signInAdmin, signUpStudent, peopleApply, DB_KIND, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInAdmin>>;
let ids: Record<string, number>;
let emails: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp();
  admin = await signInAdmin(t);
  ({ ids, emails } = await peopleApply(t, {
    thilivhali: ['Ṱhilivhali', 'Ṋemudzivhadi', '072 123 4567'],
    mukhethwa: ['Mukhethwa', 'Ḓavhana', '+27 83 555 0101'],
    siobhan: ['Siobhán', 'O’Neill', '0615550102'],
  }));
});
afterAll(async () => { await t.close(); });

/** supertest parser keeping the body as raw bytes. */
const rawBytes = (res: any, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

const appIds = async (q: string) => (await admin.agent.get('/api/admin/applications').query({ q, pageSize: 100 })).body.applications.map((a: any) => a.id);
const studentEmails = async (q: string) => {
  const res = await admin.agent.get('/api/admin/students').query({ q });
  expect(res.status).toBe(200);
  return res.body.students.map((s: any) => s.email);
};

describe(`admin search, names as typed (${DB_KIND})`, () => {
  it('GET /api/admin/applications › finds Tshivenda and accented names typed without their letters', async () => {
    expect(await appIds('Nemudzivhadi')).toEqual([ids.thilivhali]);
    expect(await appIds('thilivhali')).toEqual([ids.thilivhali]);
    expect(await appIds('Thilivhali Nemudzivhadi')).toEqual([ids.thilivhali]);
    expect(await appIds('Davhana')).toEqual([ids.mukhethwa]);
    expect(await appIds('siobhan')).toEqual([ids.siobhan]);
    expect(await appIds("o'neill")).toEqual([ids.siobhan]);
    // Typed with the letters, too, and the wildcards stay literal even as fullwidth characters unaccent turns into them.
    expect(await appIds('Ṋemudzivhadi')).toEqual([ids.thilivhali]);
    expect(await appIds('％')).toEqual([]);
    expect(await appIds('＿')).toEqual([]);
  });

  it('GET /api/admin/students › finds "O’Neill" typed with a straight apostrophe, and Tshivenda names without their letters', async () => {
    expect(await studentEmails("o'neill")).toEqual([emails.siobhan]);
    expect(await studentEmails('O’NEILL')).toEqual([emails.siobhan]);
    expect(await studentEmails('nemudzivhadi')).toEqual([emails.thilivhali]);
    expect(await studentEmails('davhana')).toEqual([emails.mukhethwa]);
  });

  it('GET /api/admin/applications/export.csv › starts with a UTF-8 BOM (Excel) and the Tshivenda name round-trips', async () => {
    const res = await admin.agent.get('/api/admin/applications/export.csv').query({ q: 'nemudzivhadi' }).buffer(true).parse(rawBytes);
    expect(res.status).toBe(200);
    const body = res.body as Buffer;
    expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = body.subarray(3).toString('utf8').trim().split('\n');
    expect(lines[0]).toMatch(/^Application ID,Applicant,/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`APP-${ids.thilivhali},Ṱhilivhali Ṋemudzivhadi,`);
  });

  it('GET /api/admin/students › a phone number finds the student however either was typed: spaces, brackets, 0 or +27', async () => {
    for (const q of ['0721234567', '072 123 4567', '+27721234567', '+27 72 123 4567', '(072) 123-4567', '0027 72 123 4567', '123 4567']) {
      expect(await studentEmails(q), q).toEqual([emails.thilivhali]);
    }
    for (const q of ['0835550101', '083 555 0101', '27835550101']) expect(await studentEmails(q), q).toEqual([emails.mukhethwa]);
    expect(await studentEmails('0615550102')).toEqual([emails.siobhan]);
    expect(await studentEmails('0729999999')).toEqual([]);
  });

  it('GET /api/admin/students › lists names alphabetically as people read them: case and accents ignored', async () => {
    await signUpStudent(t, { firstName: 'Pieter', lastName: 'van der Merwe' });
    await signUpStudent(t, { firstName: 'Zanele', lastName: 'Zulu' });
    await signUpStudent(t, { firstName: 'Lerato', lastName: 'Mabena' });
    const all = (await admin.agent.get('/api/admin/students').query({ pageSize: 100 })).body.students.map((s: any) => s.lastName);
    const order = (...names: string[]) => names.map((n) => all.indexOf(n));
    for (const n of ['Ḓavhana', 'Mabena', 'Ṋemudzivhadi', 'O’Neill', 'van der Merwe', 'Zulu']) expect(all, n).toContain(n);
    const seen = order('Ḓavhana', 'Mabena', 'Ṋemudzivhadi', 'O’Neill', 'van der Merwe', 'Zulu');
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });
});
