/**
 * The CSV export's Eligible column says what the screens say (admin-day audit item 4): 'Yes', 'No', and
 * 'No NSC results' (EligibilityBadge, the list's eligibility filter, Reports) for an applicant who gave none, not 'Unknown'.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, signUpStudent, signInAdmin, insertUpload, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

describe(`applications CSV eligibility (${DB_KIND})`, () => {
  it('GET /api/admin/applications/export.csv › Eligible is Yes, No or "No NSC results", the screen\'s words', async () => {
    const admin = await signInAdmin(t);
    const ids: number[] = [];
    for (const lastName of ['Csvyes', 'Csvno', 'Csvnone']) {
      const s = await signUpStudent(t, { firstName: 'Elig', lastName });
      const docs = { idDocument: await insertUpload(t, s.user.id), transcripts: await insertUpload(t, s.user.id) };
      const res = await s.agent.post('/api/applications').send({ ...validApplication(1, docs), email: s.email, firstName: 'Elig', lastName });
      expect(res.status).toBe(201);
      ids.push(res.body.application.id);
    }
    await t.database.db.execute(sql`update applications set eligible = case id when ${ids[0]} then true when ${ids[1]} then false else null end where id in (${ids[0]}, ${ids[1]}, ${ids[2]})`);
    const res = await admin.agent.get('/api/admin/applications/export.csv').query({ q: 'elig', sort: 'id', dir: 'asc' });
    expect(res.status).toBe(200);
    const [header, ...rows] = res.text.replace(/^\uFEFF/, '').trim().split('\n');
    const col = header!.split(',').indexOf('Eligible');
    const eligible = rows.map((l) => l.split(',')[col]);
    expect(eligible).toEqual(['Yes', 'No', 'No NSC results']);
  });
});
