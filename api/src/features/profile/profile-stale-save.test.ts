/**
 * A profile save made from an older version of the profile does not erase newer data (issue #16, no lost work):
 * the profile page sends back the `updatedAt` it loaded as `expectedUpdatedAt`; when an application submitted since
 * filled empty details (fillEmptyPersonalDetails) or another tab saved, PUT /api/profile answers 409 with
 * PROFILE_EDIT_CONFLICT and the profile as it is now, and writes nothing. And a submit's step 1 never fills
 * nationality 'za' over a stored passport number, which made the person's next save fail (saIdForSouthAfricans).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { startTestApp, signUpStudent, insertUpload, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';
import { users } from '../../db/schema/users.ts';
import { PROFILE_EDIT_CONFLICT, SA_ID_MESSAGE } from '#contracts/auth.ts';
import { EXPECTED_VERSION_RANGE_MESSAGE } from '#contracts/expected-version.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

type Student = Awaited<ReturnType<typeof signUpStudent>>;
const FORM_FIELDS = ['firstName', 'lastName', 'phone', 'nationality', 'idNumber', 'dateOfBirth', 'addressLine1', 'addressLine2', 'city', 'state', 'postalCode', 'country', 'emergencyContactName', 'emergencyContactPhone', 'emergencyContactRelation'] as const;

/** The instant `iso` written with the offset +hh:00 (`hours` 0..23), as a client far east of UTC might send it. */
const withOffset = (iso: string, hours: number) => `${new Date(Date.parse(iso) + hours * 3_600_000).toISOString().slice(0, -1)}+${String(hours).padStart(2, '0')}:00`;

/** GET /api/profile's user. */
const profileOf = async (s: Student) => (await s.agent.get('/api/profile').expect(200)).body.user;
/** What the profile page sends for `profile` as loaded (blanks as ''), with its version, and `changes` typed on top. */
function formBody(profile: Record<string, unknown>, changes: Record<string, unknown> = {}) {
  const values = Object.fromEntries(FORM_FIELDS.map((k) => [k, profile[k] ?? '']));
  return { ...values, announcementEmails: profile.announcementEmails, expectedUpdatedAt: profile.updatedAt, ...changes };
}
async function apply(s: Student, courseId: number, extra: Record<string, unknown> = {}) {
  const documents = { idDocument: await insertUpload(t, s.user.id), transcripts: await insertUpload(t, s.user.id) };
  const res = await s.agent.post('/api/applications').send({ ...validApplication(courseId, documents), ...extra });
  expect(res.status).toBe(201);
}
const FILLED = { dateOfBirth: '2001-04-12', nationality: 'za', addressLine1: '12 Church Street', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za' };

describe(`PUT /api/profile from an older version (${DB_KIND})`, () => {
  it('a page opened before an application submit and saved after it gets 409 with the message and the filled profile; nothing is erased', async () => {
    const s = await signUpStudent(t);
    const opened = await profileOf(s);
    expect(opened).toMatchObject({ nationality: null, city: null, updatedAt: expect.any(String) });
    await apply(s, 1);

    const stale = await s.agent.put('/api/profile').send(formBody(opened, { lastName: 'Mokoena-Mudau' }));
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 'conflict', message: PROFILE_EDIT_CONFLICT });
    expect(stale.body.user).toMatchObject({ ...FILLED, lastName: 'Mokoena' });
    expect(stale.body.user.updatedAt).not.toBe(opened.updatedAt);
    expect(await profileOf(s)).toMatchObject({ ...FILLED, lastName: 'Mokoena', updatedAt: stale.body.user.updatedAt });

    // Saved again from the version the 409 carried (what Reload loads), the change goes through and the filled details stay.
    const again = await s.agent.put('/api/profile').send(formBody(stale.body.user, { lastName: 'Mokoena-Mudau' }));
    expect(again.status).toBe(200);
    expect(again.body.user).toMatchObject({ ...FILLED, lastName: 'Mokoena-Mudau' });
  });

  it('two tabs: the second save from the same version is refused and the first tab’s change stays; each save answers the next version', async () => {
    const s = await signUpStudent(t);
    const opened = await profileOf(s);
    const first = await s.agent.put('/api/profile').send(formBody(opened, { city: 'Polokwane' }));
    expect(first.status).toBe(200);
    const second = await s.agent.put('/api/profile').send(formBody(opened, { phone: '0729998888' }));
    expect(second.status).toBe(409);
    expect(second.body.user).toMatchObject({ city: 'Polokwane', phone: opened.phone });
    expect(await profileOf(s)).toMatchObject({ city: 'Polokwane', phone: opened.phone });

    // The first tab saves on from the version its save answered, twice in a row.
    const next = await s.agent.put('/api/profile').send(formBody(first.body.user, { state: 'Limpopo' }));
    expect(next.status).toBe(200);
    const third = await s.agent.put('/api/profile').send(formBody(next.body.user, { postalCode: '0699' }));
    expect(third.status).toBe(200);
    expect(third.body.user).toMatchObject({ city: 'Polokwane', state: 'Limpopo', postalCode: '0699' });
  });

  it('a save without expectedUpdatedAt is not checked (API clients); a malformed one is a 400', async () => {
    const s = await signUpStudent(t);
    const opened = await profileOf(s);
    await apply(s, 2);
    const { expectedUpdatedAt: _v, ...body } = formBody(opened, { city: 'Makhado' });
    const put = await s.agent.put('/api/profile').send(body);
    expect(put.status).toBe(200);
    // The date of birth the submit filled is kept: a South African without an ID number keeps the stored one (ec57f0b).
    expect(put.body.user).toMatchObject({ city: 'Makhado', dateOfBirth: '2001-04-12' });
    const bad = await s.agent.put('/api/profile').send(formBody(put.body.user, { expectedUpdatedAt: 'yesterday' }));
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toHaveProperty('expectedUpdatedAt');
  });

  it('a version that is no instant PostgreSQL can hold (year 0000) is a 400 on the field; one written with an offset like +16:00 is that instant', async () => {
    const s = await signUpStudent(t);
    const opened = await profileOf(s);
    // Zod's ISO date-time accepted both; PostgreSQL's ::timestamptz refused them and the save answered 500.
    const yearZero = await s.agent.put('/api/profile').send(formBody(opened, { city: 'Tzaneen', expectedUpdatedAt: '0000-01-01T00:00:00Z' }));
    expect(yearZero.status).toBe(400);
    expect(yearZero.body.error.fields).toEqual({ expectedUpdatedAt: EXPECTED_VERSION_RANGE_MESSAGE });

    const stale = await s.agent.put('/api/profile').send(formBody(opened, { city: 'Tzaneen', expectedUpdatedAt: withOffset('2026-01-01T10:00:00.000Z', 16) }));
    expect(stale.status).toBe(409);
    const same = await s.agent.put('/api/profile').send(formBody(opened, { city: 'Tzaneen', expectedUpdatedAt: withOffset(opened.updatedAt, 16) }));
    expect(same.status).toBe(200);
    expect(same.body.user.city).toBe('Tzaneen');
  });

  it('a stored updated_at with microseconds matches the milliseconds the page was given', async () => {
    const s = await signUpStudent(t);
    // PGlite's now() has millisecond resolution, PostgreSQL's microseconds: set some, so the check is the same on both.
    await t.database.db.update(users).set({ updatedAt: sql`date_trunc('milliseconds', ${users.updatedAt}) + interval '123 microseconds'` }).where(eq(users.id, s.user.id));
    const opened = await profileOf(s);
    const saved = await s.agent.put('/api/profile').send(formBody(opened, { city: 'Louis Trichardt' }));
    expect(saved.status).toBe(200);
    expect(saved.body.user.city).toBe('Louis Trichardt');
  });
});

describe(`a submit does not fill a nationality that contradicts the stored ID number (${DB_KIND})`, () => {
  it('a passport number and no nationality: the submit leaves the nationality empty, fills the rest, and the next save goes through', async () => {
    const s = await signUpStudent(t);
    await t.database.db.update(users).set({ idNumber: 'P12345678' }).where(eq(users.id, s.user.id));
    await apply(s, 3);
    const after = await profileOf(s);
    expect(after).toMatchObject({ ...FILLED, nationality: null, idNumber: 'P12345678' });

    const saved = await s.agent.put('/api/profile').send(formBody(after, { city: 'Makhado' }));
    expect(saved.status).toBe(200);
    // The date of birth the submit filled stays: a passport number gives none to take instead.
    expect(saved.body.user).toMatchObject({ city: 'Makhado', nationality: null, idNumber: 'P12345678', dateOfBirth: '2001-04-12' });

    // Choosing South Africa with that passport number is still refused, with the SA ID message on the field.
    const za = await s.agent.put('/api/profile').send(formBody(saved.body.user, { nationality: 'za' }));
    expect(za.status).toBe(400);
    expect(za.body.error.fields.idNumber).toBe(SA_ID_MESSAGE);
  });

  it('a valid South African ID number (or none) and no nationality: the submit fills za as before', async () => {
    const withId = await signUpStudent(t);
    await t.database.db.update(users).set({ idNumber: '0104125800086' }).where(eq(users.id, withId.user.id));
    await apply(withId, 1);
    const p = await profileOf(withId);
    expect(p).toMatchObject({ nationality: 'za', idNumber: '0104125800086', dateOfBirth: '2001-04-12' });
    expect((await withId.agent.put('/api/profile').send(formBody(p, { city: 'Musina' }))).status).toBe(200);

    const without = await signUpStudent(t);
    await apply(without, 1);
    expect(await profileOf(without)).toMatchObject({ nationality: 'za', idNumber: null });
  });
});
