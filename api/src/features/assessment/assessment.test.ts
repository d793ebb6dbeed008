import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, signInAdmin, signUpStudent, DB_KIND, type TestApp } from '../../test/harness.ts';
import { AssessmentBookingSchema, todayInSouthAfrica } from '#contracts/assessment.ts';
import { submitBooking } from './assessment.service.ts';
import { mailsTo } from '../../test/mail.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

/** First date from today + `from` days whose weekday is in `days` (0 = Sunday). */
function nextDate(from: number, days: number[]): string {
  const d = new Date(`${todayInSouthAfrica()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + from);
  while (!days.includes(d.getUTCDay())) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
const valid = (o: Record<string, unknown> = {}) => ({
  firstName: 'Mpho', lastName: 'Mudau', email: 'mpho@example.com', phone: '0821234567', dateOfBirth: '2004-05-06',
  idNumber: '0405065123086', preferredCampus: 'biaba', courseInterest: 'information-technology', assessmentType: 'combined',
  preferredDate: nextDate(3, [1, 2, 3, 4, 5]), preferredTime: 'morning', educationLevel: 'grade-12', specialNeeds: '', additionalNotes: 'Prefers Tshivenda', ...o,
});
const rows = async (q: ReturnType<typeof sql>) => ((await t.database.db.execute(q)) as any).rows as any[];

describe(`POST /api/assessment-centre (${DB_KIND})`, () => {
  it('stores the booking and queues a confirmation to the applicant; admins list bookings newest first', async () => {
    const res = await t.request().post('/api/assessment-centre').send(valid());
    expect(res.status).toBe(201);
    const later = await t.request().post('/api/assessment-centre').send(valid({ email: 'later@example.com', firstName: 'Later' }));
    expect(later.status).toBe(201);

    const mail = await mailsTo(t, 'mpho@example.com');
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toBe('Assessment Application Submitted');
    expect(mail[0].text).toContain('Biaba Likhade');
    expect(mail[0].text).toContain('Morning (8:00 AM-12:00 PM)');
    expect((await mailsTo(t, t.config.OFFICE_EMAIL, /^New assessment booking/)).length).toBe(2);

    const admin = await signInAdmin(t);
    const list = await admin.agent.get('/api/admin/assessment-bookings');
    expect(list.status).toBe(200);
    expect(list.body.bookings[0]).toMatchObject({ id: later.body.booking.id, firstName: 'Later' });
    expect(list.body.bookings[1]).toMatchObject({ id: res.body.booking.id, preferredCampus: 'biaba', assessmentType: 'combined', additionalNotes: 'Prefers Tshivenda' });
    expect(list.body.bookings[1]).not.toHaveProperty('idempotencyKey');
  });

  it('answers every spec §5 message for an empty form', async () => {
    const res = await t.request().post('/api/assessment-centre').send({});
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual({
      firstName: 'First name must be at least 2 characters',
      lastName: 'Last name must be at least 2 characters',
      email: 'Please enter a valid email address',
      phone: 'Phone number must be at least 10 digits',
      dateOfBirth: 'Date of birth is required',
      idNumber: 'ID number must be 13 digits',
      preferredCampus: 'Please select a preferred campus',
      courseInterest: 'Please select your course interest',
      assessmentType: 'Please select an assessment type',
      preferredDate: 'Please select a preferred date',
      preferredTime: 'Please select a preferred time',
      educationLevel: 'Please select your highest education level',
    });
    const short = await t.request().post('/api/assessment-centre').send(valid({ idNumber: '12345', phone: '082', preferredCampus: 'mars' }));
    expect(short.body.error.fields).toEqual({ idNumber: 'ID number must be 13 digits', phone: 'Phone number must be at least 10 digits', preferredCampus: 'Please select a preferred campus' });
  });

  it('refuses a preferred date in the past or on a weekend, with a clear message', async () => {
    const past = await t.request().post('/api/assessment-centre').send(valid({ preferredDate: '2020-03-02' }));
    expect(past.status).toBe(400);
    expect(past.body.error.fields.preferredDate).toBe('Preferred date cannot be in the past');
    const saturday = await t.request().post('/api/assessment-centre').send(valid({ preferredDate: nextDate(1, [6]) }));
    expect(saturday.status).toBe(400);
    expect(saturday.body.error.fields.preferredDate).toBe('The assessment centre is closed on weekends. Please choose a weekday (Monday to Friday)');
    const sunday = await t.request().post('/api/assessment-centre').send(valid({ preferredDate: nextDate(1, [0]) }));
    expect(sunday.body.error.fields.preferredDate).toMatch(/closed on weekends/);
    const notADate = await t.request().post('/api/assessment-centre').send(valid({ preferredDate: '2031-02-30' }));
    expect(notADate.body.error.fields.preferredDate).toBe('Please select a preferred date');
  });

  describe("today's slot that has ended (clock fixed on Wednesday 25 November 2026, SAST)", () => {
    const PASSED = 'This time has already passed today. Please choose a later time or another day.';
    afterEach(() => { vi.useRealTimers(); });
    const at = (sast: string) => vi.useFakeTimers({ toFake: ['Date'], now: new Date(`2026-11-25T${sast}:00+02:00`) });

    it('at 19:30 SAST a same-day morning or evening slot is refused on preferredTime; tomorrow morning is booked', async () => {
      at('19:30');
      for (const preferredTime of ['morning', 'afternoon', 'evening']) {
        const res = await t.request().post('/api/assessment-centre').send(valid({ preferredDate: '2026-11-25', preferredTime }));
        expect(res.status, preferredTime).toBe(400);
        expect(res.body.error.fields, preferredTime).toEqual({ preferredTime: PASSED });
      }
      const tomorrow = await t.request().post('/api/assessment-centre').send(valid({ preferredDate: '2026-11-26', preferredTime: 'morning', email: 'tomorrow@example.com' }));
      expect(tomorrow.status).toBe(201);
    });

    it('a slot is open until its end: 11:59 morning yes, 12:00 morning no, 17:59 evening yes, 18:00 evening no', async () => {
      at('11:59');
      expect((await t.request().post('/api/assessment-centre').send(valid({ preferredDate: '2026-11-25', preferredTime: 'morning', email: 'm1159@example.com' }))).status).toBe(201);
      at('12:00');
      expect((await t.request().post('/api/assessment-centre').send(valid({ preferredDate: '2026-11-25', preferredTime: 'morning' }))).body.error?.fields).toEqual({ preferredTime: PASSED });
      expect((await t.request().post('/api/assessment-centre').send(valid({ preferredDate: '2026-11-25', preferredTime: 'afternoon', email: 'a1200@example.com' }))).status).toBe(201);
      at('17:59');
      expect((await t.request().post('/api/assessment-centre').send(valid({ preferredDate: '2026-11-25', preferredTime: 'evening', email: 'e1759@example.com' }))).status).toBe(201);
      at('18:00');
      expect((await t.request().post('/api/assessment-centre').send(valid({ preferredDate: '2026-11-25', preferredTime: 'evening' }))).body.error?.fields).toEqual({ preferredTime: PASSED });
    });

    it('submitBooking re-checks with its own clock (a form validated at 11:59 and stored at 12:01)', async () => {
      const input = AssessmentBookingSchema.parse(valid({ preferredDate: nextDate(1, [1, 2, 3, 4, 5]), preferredTime: 'morning' }));
      const day = input.preferredDate;
      await expect(submitBooking(t.database.db, 'office@example.com', input, new Date(`${day}T12:01:00+02:00`))).rejects.toMatchObject({ status: 400, fields: { preferredTime: PASSED } });
      const ok = await submitBooking(t.database.db, 'office@example.com', { ...input, email: 'early@example.com' }, new Date(`${day}T07:00:00+02:00`));
      expect(ok.created).toBe(true);
    });
  });

  it('stores a double-clicked booking once and sends one confirmation', async () => {
    const key = `booking-${Date.now()}`;
    const body = valid({ email: `twice.${Date.now()}@example.com`, idempotencyKey: key });
    const [a, b] = await Promise.all([t.request().post('/api/assessment-centre').send(body), t.request().post('/api/assessment-centre').send(body)]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.booking.id).toBe(b.body.booking.id);
    expect((await rows(sql`SELECT 1 FROM assessment_bookings WHERE idempotency_key = ${key}`)).length).toBe(1);
    expect((await mailsTo(t, body.email)).length).toBe(1);
  });

  it('GET /api/admin/assessment-bookings › 401 for visitors, 403 for students', async () => {
    expect((await t.request().get('/api/admin/assessment-bookings')).status).toBe(401);
    const s = await signUpStudent(t);
    expect((await s.agent.get('/api/admin/assessment-bookings')).status).toBe(403);
  });
});
