/**
 * Two tabs or devices saving one draft (README "Drafts from two tabs or devices"): a save names the revision it was
 * based on; a save based on an older one is refused with 409 and the stored draft, and nothing is stored. Runs on
 * PGlite and, with DATABASE_URL, on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signUpStudent, DB_KIND, type TestApp } from '../../test/harness.ts';
import { upsertDraft } from './drafts.repo.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const CHANGED = 'This application was changed in another tab or on another device.';
const path = '/api/applications/draft?key=course-2';

describe(`draft revisions (${DB_KIND})`, () => {
  it('PUT /api/applications/draft › a save from a stale revision is 409 with the stored draft, and nothing is stored', async () => {
    const s = await signUpStudent(t);
    const first = await s.agent.put(path).send({ step: 0, data: { firstName: 'Thandi' } });
    expect(first.status).toBe(200);
    expect(first.body.draft.revision).toBe(1);
    // The laptop saves steps 1-3 on top of revision 1.
    const laptop = await s.agent.put(path).send({ step: 2, data: { firstName: 'Thandi', lastName: 'Mokoena', academicHistory: { highSchool: { name: 'Mbilwi' } } }, revision: 1 });
    expect(laptop.status).toBe(200);
    expect(laptop.body.draft.revision).toBe(2);
    expect((await s.agent.get(path)).body.draft).toMatchObject({ revision: 2, step: 2 });

    // The phone still holds revision 1 and changes one field.
    const phone = await s.agent.put(path).send({ step: 0, data: { firstName: 'Thandiwe' }, revision: 1 });
    expect(phone.status).toBe(409);
    expect(phone.body.error).toEqual({ code: 'conflict', message: CHANGED });
    expect(phone.body.draft).toMatchObject({ key: 'course-2', step: 2, revision: 2, data: { firstName: 'Thandi', lastName: 'Mokoena' } });
    const stored = (await s.agent.get(path)).body.draft;
    expect(stored).toEqual(laptop.body.draft);

    // "Keep my changes": the phone saves again on the revision the 409 gave it.
    const kept = await s.agent.put(path).send({ step: 0, data: { firstName: 'Thandiwe' }, revision: phone.body.draft.revision });
    expect(kept.status).toBe(200);
    expect(kept.body.draft).toMatchObject({ revision: 3, data: { firstName: 'Thandiwe' } });
  });

  it('PUT /api/applications/draft › without a revision (a client that has seen no draft, or an old wizard) it only creates: a stored draft answers 409', async () => {
    const s = await signUpStudent(t);
    expect((await s.agent.put(path).send({ step: 1, data: { firstName: 'A' } })).status).toBe(200);
    const blind = await s.agent.put(path).send({ step: 0, data: { firstName: 'B' } });
    expect(blind.status).toBe(409);
    expect(blind.body.draft).toMatchObject({ revision: 1, data: { firstName: 'A' } });
    expect((await s.agent.get(path)).body.draft).toMatchObject({ revision: 1, step: 1, data: { firstName: 'A' } });
    // A draft deleted meanwhile (submitted or "Start over" in another tab) is simply created again.
    expect((await s.agent.delete(path)).status).toBe(204);
    const again = await s.agent.put(path).send({ step: 0, data: { firstName: 'C' }, revision: 5 });
    expect(again.status).toBe(200);
    expect(again.body.draft).toMatchObject({ revision: 1, data: { firstName: 'C' } });
  });

  it('PUT /api/applications/draft › a save retried after its reply was lost (same body, same base) is 200 with the revision it made; a different body from that base is still 409', async () => {
    const s = await signUpStudent(t);
    const r = (await s.agent.put(path).send({ step: 0, data: { firstName: 'Lerato' } })).body.draft.revision as number;
    const body = { step: 1, data: { lastName: 'Dlamini', firstName: 'Lerato', academicHistory: { highSchool: { name: 'Mbilwi', years: [2021, 2023] } }, payment: { agreedFee: 5000 } }, revision: r };
    const first = await s.agent.put(path).send(body);
    expect(first.status).toBe(200);
    expect(first.body.draft.revision).toBe(r + 1);
    // The reply was lost (node killed, connection cut); the wizard sends the very same save again.
    const retry = await s.agent.put(path).send(body);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.draft).toEqual(first.body.draft);
    // Nothing else changed: the stored draft is still the one the first attempt wrote (same revision, same time).
    expect((await s.agent.get(path)).body.draft).toEqual(first.body.draft);
    // Card fields are never stored, so a retry that carries them is still the same save.
    const withCard = await s.agent.put(path).send({ ...body, data: { ...body.data, payment: { agreedFee: 5000, cardNumber: '4111111111111111' } } });
    expect(withCard.status).toBe(200);
    expect(withCard.body.draft).toEqual(first.body.draft);
    // Another tab's different save from the same base is a real conflict, as before.
    const other = await s.agent.put(path).send({ ...body, data: { ...body.data, firstName: 'Lebo' } });
    expect(other.status).toBe(409);
    expect(other.body.error).toEqual({ code: 'conflict', message: CHANGED });
    expect(other.body.draft).toEqual(first.body.draft);
    // Same body on another step is a different save too.
    expect((await s.agent.put(path).send({ ...body, step: 2 })).status).toBe(409);
    // A first save (no revision) retried after a lost reply: 200 with revision 1, not 409.
    const fresh = '/api/applications/draft?key=general';
    const created = await s.agent.put(fresh).send({ step: 0, data: { firstName: 'Lerato' } });
    const again = await s.agent.put(fresh).send({ step: 0, data: { firstName: 'Lerato' } });
    expect(again.status).toBe(200);
    expect(again.body.draft).toEqual(created.body.draft);
    // Two saves later, the old body from the old base is stale again (the stored draft is not base + 1).
    await s.agent.put(path).send({ step: 1, data: { firstName: 'Lerato', lastName: 'D' }, revision: r + 1 });
    expect((await s.agent.put(path).send(body)).status).toBe(409);
  });

  it('PUT /api/applications/draft › a revision that is not a whole number from 1 is 400 with a field message', async () => {
    const s = await signUpStudent(t);
    for (const revision of [0, -1, 1.5, '2', 2 ** 31]) {
      const r = await s.agent.put(path).send({ step: 0, data: {}, revision });
      expect(r.status, JSON.stringify(revision)).toBe(400);
      expect(r.body.error.fields.revision, JSON.stringify(revision)).toBeTruthy();
    }
  });

  it('PUT /api/applications/draft › eight saves sent at once from the same revision: exactly one is stored, seven are 409', async () => {
    const s = await signUpStudent(t);
    const base = (await s.agent.put(path).send({ step: 0, data: { firstName: 'Base' } })).body.draft.revision;
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => s.agent.put(path).send({ step: 1, data: { firstName: `Tab ${i}` }, revision: base })));
    const won = answers.filter((r) => r.status === 200);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    const stored = (await s.agent.get(path)).body.draft;
    expect(stored).toMatchObject({ revision: base + 1, data: { firstName: won[0]!.body.draft.data.firstName } });
    for (const r of answers.filter((x) => x.status === 409)) expect(r.body.draft.revision).toBe(base + 1);
  });

  it('upsertDraft › two brand-new drafts written at once, and two writes from one revision at once: one each is applied', async () => {
    const s = await signUpStudent(t);
    const db = t.database.db;
    const created = await Promise.all([upsertDraft(db, s.user.id, 'general', 0, { n: 1 }, undefined), upsertDraft(db, s.user.id, 'general', 0, { n: 2 }, undefined)]);
    expect(created.filter(Boolean)).toHaveLength(1);
    const updated = await Promise.all([1, 2, 3].map((n) => upsertDraft(db, s.user.id, 'general', 1, { n }, 1)));
    expect(updated.filter(Boolean)).toHaveLength(1);
    expect(updated.find(Boolean)!.revision).toBe(2);
  });
});
