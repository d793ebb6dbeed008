/**
 * A submitted application's step-1 details fill the applicant's empty profile fields (spec §5 step 1 "Defaults from
 * the logged-in user", §4 User), in the submit's own transaction, without overwriting what the profile holds.
 * Audit: after /apply/1 GET /api/auth/me still had dateOfBirth, nationality and the address null, so /apply/3 made
 * the applicant type seven fields again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { startTestApp, signUpStudent, signInAdmin, insertUpload, uniqueEmail, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';
import { users } from '../../db/schema/users.ts';
import { fillEmptyPersonalDetails } from '../../auth/users-repo.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

type Student = Awaited<ReturnType<typeof signUpStudent>>;
async function docs(userId: number) {
  return { idDocument: await insertUpload(t, userId), transcripts: await insertUpload(t, userId) };
}
async function apply(s: Student, courseId: number, extra: Record<string, unknown> = {}) {
  return s.agent.post('/api/applications').send({ ...validApplication(courseId, await docs(s.user.id)), ...extra });
}
const me = async (s: Student) => (await s.agent.get('/api/auth/me').expect(200)).body.user;
const EMPTY = { dateOfBirth: null, nationality: null, addressLine1: null, addressLine2: null, city: null, state: null, postalCode: null, country: null };
const FROM_APPLICATION = {
  dateOfBirth: '2001-04-12', nationality: 'za', addressLine1: '12 Church Street', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za',
};

describe(`a submitted application fills the empty profile fields (${DB_KIND})`, () => {
  it('after a submit GET /api/auth/me carries the date of birth, nationality and address; a blank address line 2 stays null', async () => {
    const s = await signUpStudent(t);
    expect(await me(s)).toMatchObject(EMPTY);
    expect((await apply(s, 1)).status).toBe(201);
    expect(await me(s)).toMatchObject({ ...FROM_APPLICATION, addressLine2: null, phone: '0821234567', firstName: 'Thandi', email: s.email });
    expect((await s.agent.get('/api/profile').expect(200)).body.user).toMatchObject(FROM_APPLICATION);
  });

  it('a South African date of birth filled from the application survives the next profile save without an ID number', async () => {
    const s = await signUpStudent(t);
    expect((await apply(s, 4)).status).toBe(201);
    const profile = (await s.agent.get('/api/profile').expect(200)).body.user;
    expect(profile).toMatchObject({ nationality: 'za', idNumber: null, dateOfBirth: '2001-04-12' });
    const keys = ['firstName', 'lastName', 'phone', 'nationality', 'idNumber', 'addressLine1', 'addressLine2', 'city', 'state', 'postalCode', 'country'] as const;
    const edit = Object.fromEntries(keys.map((k) => [k, profile[k] ?? '']));
    const saved = await s.agent.put('/api/profile').send({ ...edit, city: 'Makhado' });
    expect(saved.status).toBe(200);
    expect(saved.body.user).toMatchObject({ city: 'Makhado', dateOfBirth: '2001-04-12' });
  });

  it("never overwrites a value the profile has (name, e-mail and phone included); '' and null count as empty", async () => {
    const s = await signUpStudent(t, { firstName: 'Rudzani', phone: '0711111111' });
    await t.database.db.update(users).set({ nationality: 'us', dateOfBirth: '1999-01-31', city: 'Pretoria', addressLine1: '', state: null }).where(eq(users.id, s.user.id));
    const res = await apply(s, 2, { addressLine2: 'Unit 4' });
    expect(res.status).toBe(201);
    expect(res.body.application.personal).toMatchObject({ nationality: 'za', city: 'Thohoyandou', phone: '0821234567' });
    expect(await me(s)).toMatchObject({
      nationality: 'us', dateOfBirth: '1999-01-31', city: 'Pretoria', firstName: 'Rudzani', lastName: 'Mokoena', email: s.email, phone: '0711111111',
      addressLine1: '12 Church Street', addressLine2: 'Unit 4', state: 'Limpopo', postalCode: '0950', country: 'za',
    });
  });

  it('an empty phone is filled too', async () => {
    const s = await signUpStudent(t);
    await t.database.db.update(users).set({ phone: null }).where(eq(users.id, s.user.id));
    expect((await apply(s, 3, { phone: '072 555 1234' })).status).toBe(201);
    expect((await me(s)).phone).toBe('072 555 1234');

    // Step 1 takes a phone of any length; the profile at most 20 characters: one the profile form would refuse is not copied.
    const long = await signUpStudent(t);
    await t.database.db.update(users).set({ phone: null }).where(eq(users.id, long.user.id));
    expect((await apply(long, 3, { phone: '082 123 4567 000 000 00' })).status).toBe(201);
    expect(await me(long)).toMatchObject({ phone: null, city: 'Thohoyandou' });
  });

  it('a refused submit (400 bad field, 404 unknown course, 409 duplicate) writes nothing to the user', async () => {
    const s = await signUpStudent(t);
    const before = (await t.database.db.select().from(users).where(eq(users.id, s.user.id)))[0]!;
    const bad = await apply(s, 1, { academicHistory: { highSchool: { name: '' } } });
    expect(bad.status).toBe(400);
    expect((await apply(s, 99999)).status).toBe(404);
    expect(await me(s)).toMatchObject(EMPTY);
    const after = (await t.database.db.select().from(users).where(eq(users.id, s.user.id)))[0]!;
    expect(after).toEqual(before);

    // A duplicate: the first submit filled the profile; the profile is then cleared, and the refused second one must not fill it again.
    expect((await apply(s, 4)).status).toBe(201);
    await t.database.db.update(users).set(EMPTY).where(eq(users.id, s.user.id));
    expect((await apply(s, 4)).status).toBe(409);
    expect(await me(s)).toMatchObject(EMPTY);
  });

  it('a submit that fails after the fill inside its transaction (the payment insert) leaves the profile as it was', async () => {
    const s = await signUpStudent(t);
    const db = t.database.db;
    await db.execute(sql.raw(`CREATE FUNCTION fail_payment() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.user_id = ${Number(s.user.id)} THEN RAISE EXCEPTION 'payment refused for the test'; END IF; RETURN NEW; END $$`));
    await db.execute(sql.raw('CREATE TRIGGER fail_payment BEFORE INSERT ON payments FOR EACH ROW EXECUTE FUNCTION fail_payment()'));
    try {
      expect((await apply(s, 5)).status).toBe(500);
    } finally {
      await db.execute(sql.raw('DROP TRIGGER fail_payment ON payments'));
      await db.execute(sql.raw('DROP FUNCTION fail_payment()'));
    }
    expect(await me(s)).toMatchObject(EMPTY);
    expect((await apply(s, 5)).status).toBe(201);
    expect(await me(s)).toMatchObject(FROM_APPLICATION);
  });

  it('fillEmptyPersonalDetails checks emptiness in its UPDATE: a value saved after the submit read the profile is kept', async () => {
    const s = await signUpStudent(t);
    const db = t.database.db;
    // The profile as the submit read it had no city and no state; the person saved a city meanwhile.
    await db.update(users).set({ city: 'Polokwane', state: '  ' }).where(eq(users.id, s.user.id));
    await fillEmptyPersonalDetails(db, s.user.id, { city: 'Thohoyandou', state: 'Limpopo', country: '' });
    expect(await me(s)).toMatchObject({ city: 'Polokwane', state: 'Limpopo', country: null });
    const [row] = await db.select({ updatedAt: users.updatedAt }).from(users).where(eq(users.id, s.user.id));
    await fillEmptyPersonalDetails(db, s.user.id, { city: 'Thohoyandou' });
    expect((await db.select({ updatedAt: users.updatedAt }).from(users).where(eq(users.id, s.user.id)))[0]).toEqual(row);
  });

  it('a walk-in application entered by an admin fills the new account the same way', async () => {
    const { agent } = await signInAdmin(t);
    const created = await agent.post('/api/admin/walk-in/applicants')
      .send({ firstName: 'Mpho', lastName: 'Ndlovu', email: uniqueEmail('walkin'), phone: '0721234567', campusId: 2, privacyConsent: true });
    expect(created.status).toBe(201);
    const id = created.body.applicant.id as number;
    const res = await agent.post('/api/admin/walk-in/applications').send({ ...validApplication(1, await docs(id)), applicantId: id, campusId: 2 });
    expect(res.status).toBe(201);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, id));
    expect(row).toMatchObject({ ...FROM_APPLICATION, addressLine2: null, firstName: 'Mpho', lastName: 'Ndlovu', phone: '0721234567', email: created.body.applicant.email });
  });
});
