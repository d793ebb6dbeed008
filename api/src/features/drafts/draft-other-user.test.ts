/**
 * A draft is saved only into the account it belongs to (security audit, November 2026, LOW: "a wizard draft can be
 * saved into another account on a shared computer"). A save naming `forUserId` that is not the session's user is
 * refused with 409 draft_other_user and nothing is written; a save without it (an older wizard) is as before.
 * Runs on PGlite and, with DATABASE_URL, on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signUpStudent, DB_KIND, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const path = '/api/applications/draft?key=course-2';
const OTHER_USER = 'Another account is logged in on this browser. Your draft is saved on this device; log in again to save it to your account.';

describe(`draft owner (${DB_KIND})`, () => {
  it("PUT /api/applications/draft › a save for another user (A's wizard, B's session) is 409 draft_other_user and writes nothing", async () => {
    const a = await signUpStudent(t);
    const b = await signUpStudent(t);
    const mine = await b.agent.put(path).send({ step: 0, data: { firstName: 'Bongani' }, forUserId: b.user.id });
    expect(mine.status).toBe(200);

    // A's tab saves A's answers with B's session (B logged in in another tab of the same browser).
    const crossed = await b.agent.put(path).send({ step: 1, data: { firstName: 'Thandi', idNumber: '0104125800087' }, revision: mine.body.draft.revision, forUserId: a.user.id });
    expect(crossed.status).toBe(409);
    expect(crossed.body).toEqual({ error: { code: 'draft_other_user', message: OTHER_USER } });
    expect((await b.agent.get(path)).body.draft).toEqual(mine.body.draft);
    // Nothing was filed under A either: the server never writes into an account that is not the session's.
    expect((await a.agent.get(path)).body.draft).toBeNull();

    // A bearer token (the islands' way) is checked the same way as the cookie.
    const bearer = await t.request().put(path).set('Authorization', `Bearer ${b.token}`).send({ step: 1, data: { firstName: 'Thandi' }, forUserId: a.user.id });
    expect(bearer.status).toBe(409);
    expect(bearer.body.error.code).toBe('draft_other_user');
    expect((await b.agent.get(path)).body.draft).toEqual(mine.body.draft);
  });

  it('PUT /api/applications/draft › without forUserId (an older wizard during a rolling deploy) the save is as before; a bad forUserId is 400', async () => {
    const s = await signUpStudent(t);
    const old = await s.agent.put(path).send({ step: 0, data: { firstName: 'Lerato' } });
    expect(old.status).toBe(200);
    expect(old.body.draft).toMatchObject({ revision: 1, data: { firstName: 'Lerato' } });
    const named = await s.agent.put(path).send({ step: 1, data: { firstName: 'Lerato' }, revision: 1, forUserId: s.user.id });
    expect(named.status).toBe(200);
    expect(named.body.draft.revision).toBe(2);
    for (const forUserId of [0, -1, 1.5, '7', null]) {
      expect((await s.agent.put(path).send({ step: 1, data: {}, revision: 2, forUserId })).status, JSON.stringify(forUserId)).toBe(400);
    }
    expect((await s.agent.get(path)).body.draft).toEqual(named.body.draft);
  });
});

describe(`draft owner on delete (${DB_KIND})`, () => {
  it("DELETE /api/applications/draft › a delete for another user (A's \"Start over\" or submit, B's session) is 409 draft_other_user and deletes nothing", async () => {
    const a = await signUpStudent(t);
    const b = await signUpStudent(t);
    const mine = await b.agent.put(path).send({ step: 1, data: { firstName: 'Bongani' }, forUserId: b.user.id });
    expect(mine.status).toBe(200);

    const crossed = await b.agent.delete(`${path}&forUserId=${a.user.id}`);
    expect(crossed.status).toBe(409);
    expect(crossed.body).toEqual({ error: { code: 'draft_other_user', message: OTHER_USER } });
    expect((await b.agent.get(path)).body.draft).toEqual(mine.body.draft);

    const bearer = await t.request().delete(`${path}&forUserId=${a.user.id}`).set('Authorization', `Bearer ${b.token}`);
    expect(bearer.status).toBe(409);
    expect((await b.agent.get(path)).body.draft).toEqual(mine.body.draft);

    // B's own wizard deletes B's draft.
    expect((await b.agent.delete(`${path}&forUserId=${b.user.id}`)).status).toBe(204);
    expect((await b.agent.get(path)).body.draft).toBeNull();
  });

  it('DELETE /api/applications/draft › without forUserId (an older wizard) the delete is as before; a bad forUserId is 400', async () => {
    const s = await signUpStudent(t);
    expect((await s.agent.put(path).send({ step: 0, data: { firstName: 'Lerato' } })).status).toBe(200);
    for (const forUserId of ['0', '-1', '1.5', 'abc', '', '2147483648', `${s.user.id}&forUserId=${s.user.id}`]) {
      expect((await s.agent.delete(`${path}&forUserId=${forUserId}`)).status, forUserId).toBe(400);
    }
    expect((await s.agent.get(path)).body.draft).toMatchObject({ data: { firstName: 'Lerato' } });
    expect((await s.agent.delete(path)).status).toBe(204);
    expect((await s.agent.get(path)).body.draft).toBeNull();
  });
});
