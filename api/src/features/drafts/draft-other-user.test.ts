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
const OTHER_USER = 'This application belongs to another account. It is kept on this device; log in as its owner to save it.';

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
