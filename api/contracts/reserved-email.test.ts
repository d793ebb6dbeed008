/**
 * No form takes an address under .invalid (security review HIGH: registering erased-2@erased.invalid, the address
 * erasure gives user 2, made that erasure fail). One rule (isReservedEmail, mailbox.ts) in every schema that gives an
 * address; the lookups (sign-in, reset request) still accept any well-formed one.
 */
import { describe, expect, it } from 'vitest';
import { isReservedEmail, RESERVED_EMAIL_MESSAGE } from './mailbox.ts';
import { LoginSchema, SimpleRegisterSchema } from './sign-in.ts';
import { ForgotPasswordSchema, RegisterPersonalSchema } from './auth.ts';
import { ApplicationSubmitSchema, PersonalStepSchema } from './applications.ts';
import { WalkInApplicantSchema } from './walk-in.ts';
import { ContactMessageSchema } from './contact.ts';
import { AssessmentBookingSchema } from './assessment.ts';
import { ExternalStudentInputSchema } from './external.ts';
import { SettingsSchema } from './settings.ts';

type Field = { safeParse: (v: unknown) => { success: boolean; error?: { issues: Array<{ message: string }> } } };
const fields: Record<string, Field> = {
  'simple registration': SimpleRegisterSchema.shape.email,
  'comprehensive registration': RegisterPersonalSchema.shape.email,
  'application step 1': PersonalStepSchema.shape.email,
  'application submit': ApplicationSubmitSchema.shape.email,
  'walk-in applicant': WalkInApplicantSchema.shape.email,
  'contact form': ContactMessageSchema.shape.email,
  'assessment booking': AssessmentBookingSchema.shape.email,
  'external student': ExternalStudentInputSchema.shape.email,
  'office e-mail setting': SettingsSchema.shape.officeEmail,
};

describe('addresses under .invalid (RFC 6761)', () => {
  it('isReservedEmail › the .invalid domain and its subdomains, any case; not .test, .example or example.com', () => {
    expect(['erased-2@erased.invalid', ' Erased-2@ERASED.Invalid ', 'a@invalid', 'a@b.c.invalid'].map(isReservedEmail)).toEqual([true, true, true, true]);
    expect(['a@example.com', 'admin@college.example', 'a@x.test', 'a@invalid.co.za', 'invalid@example.com', 'a@notinvalid'].map(isReservedEmail)).toEqual([false, false, false, false, false, false]);
  });

  for (const [name, field] of Object.entries(fields)) {
    it(`${name} › refuses erased-2@erased.invalid with '${RESERVED_EMAIL_MESSAGE}'; takes @example.com and @college.example`, () => {
      const res = field.safeParse(' Erased-2@Erased.Invalid ');
      expect(res.success).toBe(false);
      expect(res.error!.issues.map((i) => i.message)).toEqual([RESERVED_EMAIL_MESSAGE]);
      expect(field.safeParse('erased-2@sub.erased.invalid').success).toBe(false);
      expect(field.safeParse('thandi@example.com').success).toBe(true);
      expect(field.safeParse('admissions@college.example').success).toBe(true);
      expect(field.safeParse('not an address').error?.issues.map((i) => i.message)).toEqual(['Please enter a valid email address']);
    });
  }

  it('sign-in and the reset request only look an address up: a .invalid one is well-formed there', () => {
    expect(LoginSchema.safeParse({ email: 'erased-2@erased.invalid', password: 'secret123' }).success).toBe(true);
    expect(ForgotPasswordSchema.safeParse({ email: 'erased-2@erased.invalid' }).success).toBe(true);
  });
});
