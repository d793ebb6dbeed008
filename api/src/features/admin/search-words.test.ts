/**
 * Admin searches as officers type them (admin-day audit item 1): apostrophes, hyphens and spaces inside names
 * ignored, words in any order (each word must match a first or last name, e-mail, phone or APP reference), and a
 * South African phone number typed as 082 123 4567, 0821234567 or +27821234567 finding the person in the Students list
 * and the applications list alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signInAdmin, peopleApply, DB_KIND, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInAdmin>>;
let ids: Record<string, number>;
let emails: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp();
  admin = await signInAdmin(t);
  ({ ids, emails } = await peopleApply(t, {
    oneill: ['Aoife', 'O’Neill', '0614440001'],
    makhado: ['Rudzani', 'Makhado-Longsurname', '0614440002'],
    thandiwe: ['Thandiwe', 'Mudau', '+27821234567'],
    merwe: ['Pieter', 'van der Merwe', '0614440003'],
  }));
});
afterAll(async () => { await t.close(); });

const appIds = async (q: string) => {
  const res = await admin.agent.get('/api/admin/applications').query({ q, pageSize: 100 });
  expect(res.status).toBe(200);
  return res.body.applications.map((a: any) => a.id);
};
const studentEmails = async (q: string) => {
  const res = await admin.agent.get('/api/admin/students').query({ q });
  expect(res.status).toBe(200);
  return res.body.students.map((s: any) => s.email);
};

describe(`admin search, words as officers type them (${DB_KIND})`, () => {
  const cases: [string, string][] = [
    ['oneill', 'oneill'], ["o'neill", 'oneill'], ['o-neill', 'oneill'], ['O NEILL', 'oneill'], ['aoife oneill', 'oneill'],
    ['Makhado Longsurname', 'makhado'], ['makhadolongsurname', 'makhado'], ['longsurname rudzani', 'makhado'],
    ['mudau thandiwe', 'thandiwe'], ['Thandiwe Mudau', 'thandiwe'],
    ['vandermerwe', 'merwe'], ['merwe pieter', 'merwe'],
    ['0821234567', 'thandiwe'], ['082 123 4567', 'thandiwe'], ['+27821234567', 'thandiwe'], ['+27 82 123 4567', 'thandiwe'],
  ];

  it('GET /api/admin/students › ignores apostrophes, hyphens and spaces in names, takes words in any order, finds phones typed the SA way', async () => {
    for (const [q, key] of cases) expect(await studentEmails(q), q).toEqual([emails[key]]);
    expect(await studentEmails(`APP-${ids.thandiwe}`)).toEqual([emails.thandiwe]);
    expect(await studentEmails(`mudau APP-${ids.thandiwe}`)).toEqual([emails.thandiwe]);
    expect(await studentEmails(`mudau APP-${ids.oneill}`)).toEqual([]);
    expect(await studentEmails('mudau nobody')).toEqual([]);
    expect(await studentEmails('aoife-')).toEqual([]); // a hyphen at a word's end is typed on purpose: not "Aoife O’Neill"
  });

  it('GET /api/admin/applications › the same searches find the same people’s applications', async () => {
    for (const [q, key] of cases) expect(await appIds(q), q).toEqual([ids[key]]);
    expect(await appIds(`mudau APP-${ids.thandiwe}`)).toEqual([ids.thandiwe]);
    expect(await appIds(`mudau APP-${ids.oneill}`)).toEqual([]);
    expect(await appIds('mudau nobody')).toEqual([]);
  });

  it('only the first 6 words count (each word reads the users table; senior review): a 7th word changes nothing', async () => {
    const six = 'mudau thandiwe mudau thandiwe mudau thandiwe';
    expect(await studentEmails(six)).toEqual([emails.thandiwe]);
    expect(await studentEmails(`${six} nobody`)).toEqual([emails.thandiwe]);
    expect(await appIds(`${six} nobody`)).toEqual([ids.thandiwe]);
  });
});
