/**
 * Names and ID numbers on the public forms and the registration's emergency contact, as people type them (names
 * audit): a name pasted decomposed (NFD, as from some PDFs) parses to the composed (NFC) one a phone keyboard types,
 * and the assessment form takes an SA ID number with dashes as registration does.
 */
import { describe, expect, it } from 'vitest';
import { ContactMessageSchema } from './contact.ts';
import { AssessmentBookingSchema } from './assessment.ts';
import { RegisterEmergencySchema } from './auth.ts';

const FIRST = 'Ṱhilivhali';
/** A weekday 8–10 days from now (the assessment centre books weekdays, today or later, within a year), YYYY-MM-DD. */
function weekdaySoon(): string {
  const d = new Date(Date.now() + 8 * 86_400_000);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
const LAST = 'Ṋemudzivhadi';

describe('typed names and ID numbers', () => {
  it('contact form › a decomposed name is stored composed', () => {
    expect(FIRST.normalize('NFD')).not.toBe(FIRST);
    const r = ContactMessageSchema.safeParse({ firstName: FIRST.normalize('NFD'), lastName: ` ${LAST.normalize('NFD')} `, email: 'thili@example.com', subject: 'admissions', message: 'When does the next intake start?' });
    expect(r.success, JSON.stringify(r.error?.issues)).toBe(true);
    expect([r.data?.firstName, r.data?.lastName]).toEqual([FIRST, LAST]);
  });

  it('assessment form › a decomposed name is stored composed, and an ID number typed with dashes is its 13 digits', () => {
    const r = AssessmentBookingSchema.safeParse({
      firstName: FIRST.normalize('NFD'), lastName: LAST.normalize('NFD'), email: 'thili@example.com', phone: '0821234567',
      dateOfBirth: '2004-05-06', idNumber: '040506-5123-086', preferredCampus: 'biaba', courseInterest: 'information-technology',
      assessmentType: 'combined', educationLevel: 'grade-12', preferredDate: weekdaySoon(), preferredTime: 'morning',
    });
    expect(r.success, JSON.stringify(r.error?.issues)).toBe(true);
    expect([r.data?.firstName, r.data?.lastName, r.data?.idNumber]).toEqual([FIRST, LAST, '0405065123086']);
  });

  it('registration › the emergency contact name is stored composed', () => {
    const r = RegisterEmergencySchema.safeParse({ emergencyContactName: `Mukhethwa Ḓavhana`.normalize('NFD'), emergencyContactPhone: '0821234567', emergencyContactRelation: 'Mother' });
    expect(r.success, JSON.stringify(r.error?.issues)).toBe(true);
    expect(r.data?.emergencyContactName).toBe('Mukhethwa Ḓavhana');
  });
});
