/**
 * The registration date of birth by nationality (spec §2 Student Registration, §5): for a South African it is
 * filled from the ID number and must match it; for every other nationality it is typed as YYYY-MM-DD and checked
 * by the same rule in the wizard and the API (ComprehensiveRegisterSchema, RegisterPersonalStepSchema).
 */
import { describe, expect, it } from 'vitest';
import { ComprehensiveRegisterSchema, RegisterPersonalStepSchema, typedBirthDateProblem, typesDateOfBirth } from './auth.ts';
import { todayInSouthAfrica } from './assessment.ts';

const messages = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

const VALID_SA_ID = '0104125800086'; // born 2001-04-12

const wizard = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Lufuno', lastName: 'Netshiavha', email: 'lufuno@example.com', password: 'secret123', confirmPassword: 'secret123',
  phone: '0821234567', idNumber: VALID_SA_ID, dateOfBirth: '2001-04-12', nationality: 'za',
  addressLine1: '12 Church Street', addressLine2: '', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za',
  academicHistory: { highSchool: { name: 'Mbilwi Secondary', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', qualification: 'NSC', grade: '72%' } },
  emergencyContactName: 'Mpho Netshiavha', emergencyContactPhone: '0827654321', emergencyContactRelation: 'Mother',
  courseId: 1, termsAndConditions: true, ...overrides,
});
const uk = (overrides: Record<string, unknown> = {}) => wizard({ nationality: 'uk', country: 'uk', idNumber: 'P12345678', dateOfBirth: '1998-03-15', ...overrides });

/** The day after `today` ('YYYY-MM-DD'). */
const dayAfter = (today: string) => new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe('registration date of birth by nationality', () => {
  it('za › a valid SA ID gives the date of birth; a different one is refused, an empty one asks for the ID number', () => {
    expect(ComprehensiveRegisterSchema.safeParse(wizard()).success).toBe(true);
    expect(messages(ComprehensiveRegisterSchema.safeParse(wizard({ dateOfBirth: '1999-01-01' })))).toEqual({ dateOfBirth: 'Date of birth must match the ID number' });
    expect(messages(ComprehensiveRegisterSchema.safeParse(wizard({ idNumber: '0104125800085', dateOfBirth: '' })))).toEqual({
      idNumber: 'This South African ID number is not valid: check the 13 digits',
      dateOfBirth: 'Enter a valid ID number so we can fill in your date of birth',
    });
    expect(typesDateOfBirth('za')).toBe(false);
    expect(typesDateOfBirth('')).toBe(false);
  });

  it('uk › a passport number and a typed date of birth pass, in the wizard step and the whole payload', () => {
    expect(typesDateOfBirth('uk')).toBe(true);
    expect(messages(RegisterPersonalStepSchema.safeParse(uk()))).toEqual({});
    const r = ComprehensiveRegisterSchema.safeParse(uk());
    expect(r.success).toBe(true);
    expect(r.data?.dateOfBirth).toBe('1998-03-15');
    // A foreign number that happens to pass the SA check is not read as a birth date.
    expect(ComprehensiveRegisterSchema.safeParse(uk({ idNumber: VALID_SA_ID })).success).toBe(true);
    for (const nationality of ['us', 'ca', 'au', 'other']) expect(ComprehensiveRegisterSchema.safeParse(uk({ nationality })).success, nationality).toBe(true);
  });

  it('uk › an empty, missing or malformed date of birth gets its own message on dateOfBirth, not the ID number one', () => {
    expect(messages(ComprehensiveRegisterSchema.safeParse(uk({ dateOfBirth: '' })))).toEqual({ dateOfBirth: 'Date of birth is required' });
    expect(messages(ComprehensiveRegisterSchema.safeParse(uk({ dateOfBirth: undefined })))).toEqual({ dateOfBirth: 'Date of birth is required' });
    expect(messages(RegisterPersonalStepSchema.safeParse(uk({ dateOfBirth: '  ' })))).toEqual({ dateOfBirth: 'Date of birth is required' });
    expect(messages(ComprehensiveRegisterSchema.safeParse(uk({ dateOfBirth: '15/03/1998' })))).toEqual({ dateOfBirth: 'Please enter a valid date in YYYY-MM-DD format' });
    expect(messages(ComprehensiveRegisterSchema.safeParse(uk({ dateOfBirth: '1998-02-30' })))).toEqual({ dateOfBirth: 'Please enter a valid date in YYYY-MM-DD format' });
  });

  it('uk › a date of birth in the future, today or before 1900 is refused', () => {
    const today = todayInSouthAfrica();
    expect(messages(ComprehensiveRegisterSchema.safeParse(uk({ dateOfBirth: dayAfter(today) })))).toEqual({ dateOfBirth: 'Please enter a valid date of birth' });
    expect(messages(RegisterPersonalStepSchema.safeParse(uk({ dateOfBirth: '2999-01-01' })))).toEqual({ dateOfBirth: 'Please enter a valid date of birth' });
    expect(typedBirthDateProblem(today, today)).toBe('Please enter a valid date of birth');
    expect(typedBirthDateProblem('1899-12-31', today)).toBe('Please enter a valid date of birth');
    expect(typedBirthDateProblem('1900-01-01', today)).toBeNull();
  });
});
