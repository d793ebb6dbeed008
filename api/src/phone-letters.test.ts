/**
 * Phone numbers with letters are refused by every route that takes one (phone-letters audit; the rule is
 * api/contracts/phone.ts): 400 with the field's message, one test per route family. A number stored before the rule
 * still loads, and a form that sends it back unchanged is told what to fix in the phone field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestApp, signInAdmin, signUpStudent, insertUpload, uniqueEmail, validApplication, validRegistration, DB_KIND, type TestApp } from './test/harness.ts';
import { users } from './db/schema/users.ts';
import { PHONE_CHARS_MESSAGE } from '#contracts/phone-text.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const LETTERS = '082123456b';
/** A weekday at least three days from now, 'YYYY-MM-DD' (an assessment date the booking accepts). */
function weekdayAhead(): string {
  const d = new Date(); d.setUTCDate(d.getUTCDate() + 3);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
const expect400 = (res: { status: number; body: any }, fields: Record<string, string>) => {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.fields).toEqual(fields);
};

describe(`phone numbers with letters (${DB_KIND})`, () => {
  it('auth › POST /api/auth/register and /api/auth/comprehensive-register answer 400 with the phone fields\' message', async () => {
    expect400(await t.request().post('/api/auth/register').send(validRegistration({ phone: LETTERS })), { phone: PHONE_CHARS_MESSAGE });
    const wizard = {
      firstName: 'Lufuno', lastName: 'Netshiavha', email: uniqueEmail('wizard'), password: 'secret123', confirmPassword: 'secret123',
      phone: '0821234567', idNumber: '0104125800086', dateOfBirth: '2001-04-12', nationality: 'za',
      addressLine1: '12 Church Street', addressLine2: '', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za',
      academicHistory: { highSchool: { name: 'Mbilwi Secondary', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', qualification: 'NSC', grade: '72%' } },
      emergencyContactName: 'Mpho Netshiavha', emergencyContactPhone: '082 765 432x', emergencyContactRelation: 'Mother',
      courseId: 1, termsAndConditions: true,
    };
    expect400(await t.request().post('/api/auth/comprehensive-register').send(wizard), { emergencyContactPhone: PHONE_CHARS_MESSAGE });
  });

  it('profile › PUT /api/profile answers 400; a number stored with letters before the rule loads, and saving it unchanged names the phone field', async () => {
    const s = await signUpStudent(t);
    const details = { firstName: 'Thandi', lastName: 'Mokoena', phone: '0821234567', nationality: 'za', idNumber: '0104125800086' };
    expect400(await s.agent.put('/api/profile').send({ ...details, phone: LETTERS }), { phone: PHONE_CHARS_MESSAGE });
    expect400(await s.agent.put('/api/profile').send({ ...details, emergencyContactPhone: '072 333 4444 x' }), { emergencyContactPhone: PHONE_CHARS_MESSAGE });

    await t.database.db.update(users).set({ phone: LETTERS, emergencyContactPhone: '072333444o' }).where(eq(users.id, s.user.id));
    const loaded = await s.agent.get('/api/profile');
    expect(loaded.status).toBe(200);
    expect(loaded.body.user).toMatchObject({ phone: LETTERS, emergencyContactPhone: '072333444o' });
    expect((await s.agent.get('/api/auth/me')).body.user.phone).toBe(LETTERS);
    const { phone, emergencyContactPhone } = loaded.body.user;
    expect400(await s.agent.put('/api/profile').send({ ...details, phone, emergencyContactPhone }), { phone: PHONE_CHARS_MESSAGE, emergencyContactPhone: PHONE_CHARS_MESSAGE });
    const fixed = await s.agent.put('/api/profile').send({ ...details, phone: '082 123 4567', emergencyContactPhone: '072 333 4444' });
    expect(fixed.status).toBe(200);
    expect(fixed.body.user).toMatchObject({ phone: '082 123 4567', emergencyContactPhone: '072 333 4444' });
  });

  it('applications › POST /api/applications answers 400 for a typed number and for one taken from an old profile', async () => {
    const s = await signUpStudent(t);
    const docs = { idDocument: await insertUpload(t, s.user.id), transcripts: await insertUpload(t, s.user.id) };
    expect400(await s.agent.post('/api/applications').send({ ...validApplication(1, docs), email: s.email, phone: LETTERS }), { phone: PHONE_CHARS_MESSAGE });

    await t.database.db.update(users).set({ phone: LETTERS }).where(eq(users.id, s.user.id));
    const { phone: _omitted, ...withoutPhone } = validApplication(1, docs);
    const fromProfile = await s.agent.post('/api/applications').send({ ...withoutPhone, email: s.email });
    expect400(fromProfile, { phone: PHONE_CHARS_MESSAGE });
    // The number is there, only unusable: the message must not send the applicant looking for a missing field.
    expect(fromProfile.body.error.message).toBe(`Your profile's phone number cannot be used: ${PHONE_CHARS_MESSAGE}. Correct it on your profile or send it with the application.`);
  });

  it('walk-in › POST /api/admin/walk-in/applicants answers 400 and creates no account', async () => {
    const { agent } = await signInAdmin(t);
    const email = uniqueEmail('walkin');
    expect400(await agent.post('/api/admin/walk-in/applicants').send({ firstName: 'Mpho', lastName: 'Ndlovu', email, phone: LETTERS, campusId: 2, privacyConsent: true }), { phone: PHONE_CHARS_MESSAGE });
    expect(await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, email))).toEqual([]);
  });

  it('assessment › POST /api/assessment-centre answers 400', async () => {
    expect400(await t.request().post('/api/assessment-centre').send({
      firstName: 'Mpho', lastName: 'Mudau', email: 'mpho@example.com', phone: LETTERS, dateOfBirth: '2004-05-06',
      idNumber: '0405065123086', preferredCampus: 'biaba', courseInterest: 'information-technology', assessmentType: 'combined',
      preferredDate: weekdayAhead(), preferredTime: 'morning', educationLevel: 'grade-12',
    }), { phone: PHONE_CHARS_MESSAGE });
  });

  it('contact › POST /api/contact answers 400 (a number with 10 digits and a letter)', async () => {
    expect400(await t.request().post('/api/contact').send({
      firstName: 'Lufuno', lastName: 'Ndou', email: 'lufuno@example.com', phone: '082 123 4567 b', message: 'When does the next diploma intake start?',
    }), { phone: PHONE_CHARS_MESSAGE });
  });

  it('external › POST /api/external/students answers 400', async () => {
    const email = uniqueEmail('ext-admin');
    const admin = await signInAdmin(t, email, 'admin-pass-123');
    expect((await admin.agent.post('/api/external/login').send({ email, password: 'admin-pass-123' })).status).toBe(200);
    expect400(await admin.agent.post('/api/external/students').send({ name: 'Thandi Mokoena', email: uniqueEmail('enrol'), phone: LETTERS, branchId: '1', course: 'Diploma in IT' }), { phone: PHONE_CHARS_MESSAGE });
  });
});
