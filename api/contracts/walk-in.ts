/**
 * Staff-assisted ("walk-in") applications (issue #18 point 6), on `zod/mini` like the application contracts:
 * - `WalkInApplicantSchema`: POST /api/admin/walk-in/applicants — the person's name, e-mail, phone, the campus
 *   where they came in, and their agreement to the privacy notice (POPIA), given at the desk.
 * - `WalkInApplicationSchema`: POST /api/admin/walk-in/applications — the application form's payload
 *   (ApplicationSubmitSchema) plus the applicant's account id and the campus.
 */
import * as z from 'zod/mini';
import { ApplicationSubmitSchema } from './applications.ts';
import { personName } from './person-name.ts';
import { phone } from './phone.ts';
import { isReservedEmail, RESERVED_EMAIL_MESSAGE } from './mailbox.ts';

const id = (message: string) => z.coerce.number({ error: message }).check(z.int({ error: message }), z.positive(message), z.lte(2147483647, message));

export const WalkInApplicantSchema = z.object({
  firstName: personName('First name'),
  lastName: personName('Last name'),
  email: z.pipe(z.string({ error: 'Please enter a valid email address' }).check(z.trim(), z.toLowerCase()), z.email({ error: 'Please enter a valid email address' }).check(z.refine((v) => !isReservedEmail(v), RESERVED_EMAIL_MESSAGE))),
  phone: phone(),
  campusId: id('Please select a campus'),
  privacyConsent: z.literal(true, { error: 'The applicant must agree to the Privacy Policy' }),
});
export type WalkInApplicant = z.input<typeof WalkInApplicantSchema>;

export const WalkInApplicationSchema = z.extend(ApplicationSubmitSchema, {
  applicantId: id('Applicant not found'),
  campusId: id('Please select a campus'),
});
export type WalkInApplication = z.input<typeof WalkInApplicationSchema>;

/** How long a walk-in's set-password link stays valid: 7 days (a person without data may need time), ms. */
export const SET_PASSWORD_TTL_MS = 7 * 24 * 3600_000;
