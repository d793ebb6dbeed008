/**
 * Phone fields (phone-letters audit): every form's phone number may hold only what people type for one — digits,
 * spaces, brackets, hyphens, full stops and a leading + — so "082123456b" is refused with PHONE_CHARS_MESSAGE, while
 * the spec §5 length messages still show for short numbers. Each schema is read as the API and the forms read it:
 * the first message of the field (fieldErrors, api/src/http/validate.ts; zodResolver's firstError).
 */
import { describe, expect, it } from 'vitest';
import { ComprehensiveRegisterSchema, ProfileUpdateSchema, RegisterEmergencySchema, RegisterPersonalStepSchema, SimpleRegisterSchema } from './auth.ts';
import { ApplicationSubmitSchema, PersonalStepSchema } from './applications.ts';
import { AssessmentBookingSchema } from './assessment.ts';
import { ContactMessageSchema } from './contact.ts';
import { WalkInApplicantSchema } from './walk-in.ts';
import { ExternalStudentInputSchema } from './external.ts';
import { PHONE_CHARS_MESSAGE, isPhoneText, tidyPhone } from './phone-text.ts';

interface Parsed { success: boolean; data?: unknown; error?: { issues: { path: PropertyKey[]; message: string }[] } }
interface Parser { safeParse(v: unknown): Parsed; shape?: Record<string, Parser> }

/** The first message on `field`, or undefined when the field passed. */
const firstMessage = (schema: Parser, body: Record<string, unknown>, field: string): string | undefined =>
  schema.safeParse(body).error?.issues.find((i) => i.path.join('.') === field)?.message;
/** `value` as the field's own schema parses it (it must pass). */
const parsedValue = (schema: Parser, field: string, value: string): unknown => {
  const r = schema.shape![field].safeParse(value);
  expect(r.error?.issues ?? []).toEqual([]);
  return r.data;
};

const VALID_SA_ID = '0104125800086';
const person = { firstName: 'Thandi', lastName: 'Mokoena', email: 'thandi@example.com' };

/** [form, schema, a body that passes, the phone field, its spec §5 length message]. */
const FIELDS: [string, Parser, Record<string, unknown>, string, string][] = [
  ['simple register', SimpleRegisterSchema, { ...person, password: 'secret1', confirmPassword: 'secret1', phone: '0821234567', terms: true }, 'phone', 'Phone number must be at least 10 characters'],
  ['registration wizard step 0', RegisterPersonalStepSchema, { ...person, password: 'secret1', confirmPassword: 'secret1', phone: '0821234567', nationality: 'za', idNumber: VALID_SA_ID }, 'phone', 'Phone number must be at least 10 characters'],
  ['registration wizard emergency contact', RegisterEmergencySchema, { emergencyContactName: 'Mpho Netshiavha', emergencyContactPhone: '0827654321', emergencyContactRelation: 'Mother' }, 'emergencyContactPhone', 'Phone number must be at least 10 characters'],
  ['profile', ProfileUpdateSchema, { firstName: 'Thandi', lastName: 'Mokoena', phone: '0821234567' }, 'phone', 'Phone number must be at least 10 characters'],
  ['profile emergency contact', ProfileUpdateSchema, { firstName: 'Thandi', lastName: 'Mokoena', phone: '0821234567', emergencyContactPhone: '0827654321' }, 'emergencyContactPhone', 'Phone number must be at least 10 characters'],
  ['application step 1', PersonalStepSchema, { courseId: 1, ...person, phone: '0821234567', dateOfBirth: '2001-04-12', nationality: 'za', addressLine1: '12 Church Street', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za' }, 'phone', 'Phone number must be at least 10 characters'],
  ['walk-in applicant', WalkInApplicantSchema, { ...person, phone: '0821234567', campusId: 1, privacyConsent: true }, 'phone', 'Phone number must be at least 10 characters'],
  ['assessment booking', AssessmentBookingSchema, { ...person, phone: '0821234567' }, 'phone', 'Phone number must be at least 10 digits'],
  ['contact form', ContactMessageSchema, { ...person, phone: '0821234567', message: 'When does the next intake start?' }, 'phone', 'Phone number must be at least 10 digits'],
];

describe('phone fields refuse letters (phone-letters audit)', () => {
  for (const [form, schema, body, field, lengthMessage] of FIELDS) {
    it(`${form} › a number with a letter gets the characters message; "0821234567" passes; a short number keeps the spec's length message`, () => {
      // The contact form counts digits (at least 10), so its "082123456b" is short first; "0821234567b" is not.
      expect(firstMessage(schema, { ...body, [field]: '082123456b' }, field)).toBe(schema === ContactMessageSchema ? lengthMessage : PHONE_CHARS_MESSAGE);
      expect(firstMessage(schema, { ...body, [field]: '0821234567b' }, field)).toBe(PHONE_CHARS_MESSAGE);
      expect(firstMessage(schema, { ...body, [field]: '082 123 4567 b' }, field)).toBe(PHONE_CHARS_MESSAGE);
      expect(firstMessage(schema, { ...body, [field]: '0821234567' }, field)).toBeUndefined();
      expect(firstMessage(schema, { ...body, [field]: '08212' }, field)).toBe(lengthMessage);
      expect(firstMessage(schema, { ...body, [field]: '08a' }, field)).toBe(lengthMessage);
    });

    it(`${form} › what people type for a number passes: spaces, a leading +, brackets, hyphens, full stops`, () => {
      for (const typed of ['+27 82 123 4567', '(082) 123-4567', '082.123.4567', '+44 (0)20 7946 0958']) {
        expect(firstMessage(schema, { ...body, [field]: typed }, field), typed).toBeUndefined();
      }
      for (const refused of ['082 123 4567 ext 2', '082+1234567', '+27 82 123 4567/083', '082#1234567']) {
        expect(firstMessage(schema, { ...body, [field]: refused }, field), refused).toBe(PHONE_CHARS_MESSAGE);
      }
    });

    it(`${form} › ten characters but fewer than ten digits get the spec's digits message (no SMS could reach it)`, () => {
      for (const few of ['----------', '((((((((((', '+.........', '08 21 23 45']) {
        expect(firstMessage(schema, { ...body, [field]: few }, field), few).toBe('Phone number must be at least 10 digits');
      }
    });

    it(`${form} › a number pasted from a contacts app (direction marks, no-break spaces, en dashes) is tidied, not refused`, () => {
      expect(parsedValue(schema, field, '\u202A+27\u00A082\u00A0123\u00A04567\u202C')).toBe('+27 82 123 4567');
      expect(parsedValue(schema, field, ' 082\u2013123\u20134567 ')).toBe('082-123-4567');
    });
  }

  it('comprehensive registration and the application submit › both phone fields refuse letters', () => {
    const m = ComprehensiveRegisterSchema.safeParse({ phone: '082123456b', emergencyContactPhone: '082765432x' }).error?.issues ?? [];
    expect(m.find((i) => i.path.join('.') === 'phone')?.message).toBe(PHONE_CHARS_MESSAGE);
    expect(m.find((i) => i.path.join('.') === 'emergencyContactPhone')?.message).toBe(PHONE_CHARS_MESSAGE);
    expect(firstMessage(ApplicationSubmitSchema, { courseId: 1, phone: '082123456b' }, 'phone')).toBe(PHONE_CHARS_MESSAGE);
  });

  it('optional phones › blank still passes (contact form, profile emergency contact, external student)', () => {
    expect(firstMessage(ContactMessageSchema, { ...person, phone: '', message: 'When does the next intake start?' }, 'phone')).toBeUndefined();
    expect(firstMessage(ProfileUpdateSchema, { firstName: 'Thandi', lastName: 'Mokoena', phone: '0821234567', emergencyContactPhone: '' }, 'emergencyContactPhone')).toBeUndefined();
    expect(firstMessage(ExternalStudentInputSchema, { name: 'Thandi Mokoena', email: 'thandi@example.com', phone: '', branchId: '1', course: 'IT' }, 'phone')).toBeUndefined();
  });

  it('external student (admin enrols a walk-in) › letters refused, a typed number passes', () => {
    const body = { name: 'Thandi Mokoena', email: 'thandi@example.com', branchId: '1', course: 'IT' };
    expect(firstMessage(ExternalStudentInputSchema, { ...body, phone: '082123456b' }, 'phone')).toBe(PHONE_CHARS_MESSAGE);
    expect(firstMessage(ExternalStudentInputSchema, { ...body, phone: '+27 (82) 123-4567' }, 'phone')).toBeUndefined();
  });

  it('walk-in applicant › a number over 20 characters says it is too long (it said "at least 10 characters")', () => {
    expect(firstMessage(WalkInApplicantSchema, { ...person, phone: '+27 82 123 4567 89012', campusId: 1, privacyConsent: true }, 'phone')).toBe('Phone number is too long');
  });

  it('isPhoneText and tidyPhone › the rule on its own', () => {
    expect(isPhoneText('082123456b')).toBe(false);
    expect(isPhoneText('+27 82 123 4567')).toBe(true);
    expect(isPhoneText('27+82')).toBe(false);
    expect(isPhoneText('')).toBe(true);
    expect(tidyPhone('\u200E082\u202F123\u22124567\uFEFF ')).toBe('082 123-4567');
  });
});
