/**
 * The SA ID number as people type it (names audit): "040506-5123-086" was refused at registration; it is accepted,
 * and stored as its 13 digits, so the same person is one ID number however they typed it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestApp, uniqueEmail, DB_KIND, type TestApp } from '../../test/harness.ts';
import { users } from '../../db/schema/users.ts';

/** A valid comprehensive registration (spec §3) of a South African born 2004-05-06; `overrides` replace fields. */
const validWizard = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Lufuno', lastName: 'Netshiavha', email: uniqueEmail('wizard'), password: 'secret123', confirmPassword: 'secret123',
  phone: '0821234567', idNumber: '0405065123086', dateOfBirth: '2004-05-06', nationality: 'za',
  addressLine1: '12 Church Street', addressLine2: '', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za',
  academicHistory: { highSchool: { name: 'Mbilwi Secondary', city: 'Thohoyandou', country: 'South Africa', from: '2019', to: '2022', qualification: 'NSC', grade: '72%' } },
  emergencyContactName: 'Mpho Netshiavha', emergencyContactPhone: '0827654321', emergencyContactRelation: 'Mother',
  courseId: 1, termsAndConditions: true, ...overrides,
});

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

describe(`SA ID numbers as typed (${DB_KIND})`, () => {
  it('POST /api/auth/comprehensive-register › accepts an ID number with dashes and stores its digits', async () => {
    const res = await t.request().post('/api/auth/comprehensive-register').send(validWizard({ idNumber: '040506-5123-086' }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [row] = await t.database.db.select({ idNumber: users.idNumber, dateOfBirth: users.dateOfBirth }).from(users).where(eq(users.id, res.body.user.id));
    expect(row).toEqual({ idNumber: '0405065123086', dateOfBirth: '2004-05-06' });
  });
});
