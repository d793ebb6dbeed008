/** Shared form rules (issue #14 points 3–5): what a person sees on the first submit, school years, SA ID numbers. */
import { describe, expect, it } from 'vitest';
import { ChangePasswordSchema, ComprehensiveRegisterSchema, RegisterAcademicSchema, RegisterPersonalStepSchema, ResetPasswordConfirmSchema, SimpleRegisterSchema, ProfileUpdateSchema, SA_ID_MESSAGE } from './auth.ts';
import { AcademicStepSchema, PersonalStepSchema } from './applications.ts';
import { AssessmentBookingSchema, todayInSouthAfrica } from './assessment.ts';
import { birthDateFromIdNumber, saIdNumberProblem } from './auth-rules.ts';

const messages = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

const VALID_SA_ID = '0104125800086';
const year = new Date().getFullYear();

describe('first submit shows every message', () => {
  it("SimpleRegisterSchema › 'Passwords do not match' comes with the other field messages, not after them", () => {
    const m = messages(SimpleRegisterSchema.safeParse({ firstName: 'A', lastName: '', email: 'x', password: 'secret1', confirmPassword: 'secret2', phone: '1', terms: false }));
    expect(m).toMatchObject({ firstName: 'First name must be at least 2 characters', email: 'Please enter a valid email address', phone: 'Phone number must be at least 10 characters', confirmPassword: 'Passwords do not match', terms: 'You must agree to the terms and conditions' });
  });

  it('RegisterPersonalStepSchema › mismatch and a bad SA ID are reported together with the empty fields', () => {
    const m = messages(RegisterPersonalStepSchema.safeParse({ firstName: '', lastName: 'Mokoena', email: '', password: 'secret1', confirmPassword: 'other12', phone: '', dateOfBirth: '', nationality: 'za', idNumber: '0104125800085' }));
    expect(m).toMatchObject({ firstName: 'First name must be at least 2 characters', confirmPassword: 'Passwords do not match', idNumber: SA_ID_MESSAGE });
  });

  it('ComprehensiveRegisterSchema, ResetPasswordConfirmSchema, ChangePasswordSchema › the mismatch shows while other fields fail', () => {
    expect(messages(ComprehensiveRegisterSchema.safeParse({ password: 'secret1', confirmPassword: 'secret2' })).confirmPassword).toBe('Passwords do not match');
    expect(messages(ResetPasswordConfirmSchema.safeParse({ token: 'x', password: 'secret1', confirmPassword: 'secret2' }))).toMatchObject({ token: 'This reset link is invalid or has expired', confirmPassword: 'Passwords do not match' });
    expect(messages(ChangePasswordSchema.safeParse({ currentPassword: '', password: 'secret1', confirmPassword: 'secret2' }))).toMatchObject({ currentPassword: 'Please enter your current password', confirmPassword: 'Passwords do not match' });
  });
});

describe('school years (DESIGN §6)', () => {
  const hs = { name: 'Mbilwi', city: 'Thohoyandou', country: 'South Africa', qualification: 'NSC', grade: '70%' };
  for (const [name, schema] of [['registration wizard', RegisterAcademicSchema], ['application wizard', AcademicStepSchema]] as const) {
    it(`${name} › 1985 and 2030 refused; end before start refused; 1990..${year} accepted`, () => {
      const far = messages(schema.safeParse({ academicHistory: { highSchool: { ...hs, from: '1985', to: String(year + 1) } } }));
      expect(far).toMatchObject({ 'academicHistory.highSchool.from': `Year must be between 1990 and ${year}`, 'academicHistory.highSchool.to': `Year must be between 1990 and ${year}` });
      const backwards = messages(schema.safeParse({ academicHistory: { highSchool: { ...hs, from: '2019', to: '2015' }, college: { name: 'UNIVEN', from: '2021', to: '2020' } } }));
      expect(backwards).toEqual({ 'academicHistory.highSchool.to': 'End year cannot be before the start year', 'academicHistory.college.to': 'End year cannot be before the start year' });
      expect(schema.safeParse({ academicHistory: { highSchool: { ...hs, from: '1990', to: String(year) } } }).success).toBe(true);
      // The order is checked while other fields still fail.
      expect(messages(schema.safeParse({ academicHistory: { highSchool: { from: '2019', to: '2015' } } }))['academicHistory.highSchool.to']).toBe('End year cannot be before the start year');
    });
  }
});

describe('one South African ID number check (issue #14 point 5)', () => {
  it('saIdNumberProblem › checks 13 digits, the birth date and the Luhn check digit', () => {
    expect(saIdNumberProblem(VALID_SA_ID)).toBeNull();
    expect(saIdNumberProblem('0104 1258 00086')).toBeNull();
    expect(saIdNumberProblem('0104125800085')).toBe(SA_ID_MESSAGE); // wrong check digit
    expect(saIdNumberProblem('0102305800082')).toBe(SA_ID_MESSAGE); // Luhn fine, 30 February
    expect(saIdNumberProblem('0113325800085')).toBe(SA_ID_MESSAGE); // Luhn fine, month 13
    expect(saIdNumberProblem('01041258000')).toBe(SA_ID_MESSAGE);
  });

  it('birthDateFromIdNumber › fills the date of birth only from a valid ID', () => {
    expect(birthDateFromIdNumber(VALID_SA_ID)).toBe('2001-04-12');
    expect(birthDateFromIdNumber('0104125800085')).toBe('');
    expect(birthDateFromIdNumber('010412')).toBe('');
    expect(birthDateFromIdNumber('8001015009087')).toBe('1980-01-01');
  });

  it('assessment form, registration and profile › all refuse a wrong check digit', () => {
    expect(messages(AssessmentBookingSchema.safeParse({ idNumber: '0104125800085' })).idNumber).toBe(SA_ID_MESSAGE);
    expect(messages(AssessmentBookingSchema.safeParse({ idNumber: '12345' })).idNumber).toBe('ID number must be 13 digits');
    expect(messages(AssessmentBookingSchema.safeParse({ idNumber: VALID_SA_ID })).idNumber).toBeUndefined();
    expect(messages(ComprehensiveRegisterSchema.safeParse({ nationality: 'za', idNumber: '0104125800085' })).idNumber).toBe(SA_ID_MESSAGE);
    expect(messages(ProfileUpdateSchema.safeParse({ firstName: 'Thandi', lastName: 'Mokoena', phone: '0821234567', nationality: 'za', idNumber: '0104125800085' })).idNumber).toBe(SA_ID_MESSAGE);
  });
});

describe('application step 1 date of birth (spec §5 step 1, the shared typedBirthDateProblem rule)', () => {
  const step1 = (dateOfBirth: unknown) => messages(PersonalStepSchema.safeParse({
    courseId: 1, firstName: 'Thandi', lastName: 'Mokoena', email: 'thandi@example.com', phone: '0821234567', dateOfBirth,
    nationality: 'za', addressLine1: '12 Church Street', city: 'Thohoyandou', state: 'Limpopo', postalCode: '0950', country: 'za',
  }));
  const dayAfter = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

  it('PersonalStepSchema › impossible calendar dates get the spec message on dateOfBirth', () => {
    for (const bad of ['2031-02-30', '1999-13-45', '0000-00-00', '2001-02-29']) {
      expect(step1(bad), bad).toEqual({ dateOfBirth: 'Please enter a valid date in YYYY-MM-DD format' });
    }
  });

  it('PersonalStepSchema › a wrong shape or no date keeps the spec message, once', () => {
    expect(step1('12/04/2001')).toEqual({ dateOfBirth: 'Please enter a valid date in YYYY-MM-DD format' });
    expect(step1('')).toEqual({ dateOfBirth: 'Please enter a valid date in YYYY-MM-DD format' });
    expect(step1(undefined)).toEqual({ dateOfBirth: 'Please enter a valid date in YYYY-MM-DD format' });
  });

  it('PersonalStepSchema › today, a future date or one before 1900 is refused; a real past date passes', () => {
    const today = todayInSouthAfrica();
    expect(step1(today)).toEqual({ dateOfBirth: 'Please enter a valid date of birth' });
    expect(step1(dayAfter(today))).toEqual({ dateOfBirth: 'Please enter a valid date of birth' });
    expect(step1('2999-01-01')).toEqual({ dateOfBirth: 'Please enter a valid date of birth' });
    expect(step1('1899-12-31')).toEqual({ dateOfBirth: 'Please enter a valid date of birth' });
    expect(step1('2001-04-12')).toEqual({});
    expect(step1('2000-02-29')).toEqual({});
  });
});
