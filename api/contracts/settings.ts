/** College settings an admin edits on /admin/settings (issue #6). Imports only zod. */
import { z } from 'zod';
import { isReservedEmail, RESERVED_EMAIL_MESSAGE } from './mailbox.ts';

/** A fee in dollars/rand: '50', '75.5' or '75.50' in, always two decimals out ('75.50', spec §9 format). */
const feeAmount = () => z.string({ error: 'Application fee is required' }).trim()
  .regex(/^\d{1,6}(\.\d{1,2})?$/, 'Application fee must be an amount like 50.00')
  .transform((v) => Number(v).toFixed(2));

export const SettingsSchema = z.object({
  applicationFee: feeAmount().describe('Fee in dollars/rand, two decimals (spec §9: 50.00)'),
  officeEmail: z.string().trim().toLowerCase().pipe(z.email({ error: 'Please enter a valid email address' })).refine((v) => !isReservedEmail(v), RESERVED_EMAIL_MESSAGE).describe('Where contact messages go'),
  accreditationNumber: z.string().trim().min(1, 'Accreditation number is required').max(100),
  portalAccessUrl: z.url({ error: 'Please enter a valid URL', protocol: /^https?$/ }).describe("The header's 'Portal Access' target"),
});
export type SettingsInput = z.input<typeof SettingsSchema>;
export type Settings = z.output<typeof SettingsSchema>;

/**
 * GET /api/settings/application-fee answer (public, anonymous): the fee charged now, two decimals, e.g.
 * {applicationFee: '50.00'} (spec §9 default; admin-editable on /admin/settings).
 */
export interface ApplicationFeeView { applicationFee: string }

/**
 * The `expectedFee` of a submit (POST /api/applications, POST /api/admin/walk-in/applications): the fee the
 * applicant was shown and agreed to, e.g. '75.50'. Optional, so older callers keep working (they are charged the
 * current fee, as before). A loose object: the submit's other fields pass through untouched to the submit schema.
 * The server answers 409 `fee_changed` (feeChangedMessage in application-steps.ts) when it is not the current fee.
 */
export const ExpectedFeeSchema = z.looseObject({
  expectedFee: feeAmount().optional().describe('The fee the applicant agreed to, dollars/rand, e.g. 75.50'),
});
