/** College settings an admin edits on /admin/settings (issue #6). Imports only zod; written with `zod/mini` (the form validates with it). */
import * as z from 'zod/mini';
import { isReservedEmail, RESERVED_EMAIL_MESSAGE } from './mailbox.ts';
import { httpUrl } from './common.ts';

/** A fee in dollars/rand: '50', '75.5' or '75.50' in, always two decimals out ('75.50', spec §9 format). */
const feeAmount = () => z.pipe(
  z.string({ error: 'Application fee is required' }).check(z.trim(), z.regex(/^\d{1,6}(\.\d{1,2})?$/, 'Application fee must be an amount like 50.00')),
  z.transform((v: string) => Number(v).toFixed(2)),
);

export const SettingsSchema = z.object({
  /** Fee in dollars/rand, two decimals (spec §9: 50.00). */
  applicationFee: feeAmount(),
  /** Where contact messages go. */
  officeEmail: z.pipe(z.string().check(z.trim(), z.toLowerCase()), z.email({ error: 'Please enter a valid email address' }))
    .check(z.refine((v) => !isReservedEmail(v), RESERVED_EMAIL_MESSAGE)),
  // zod's English wording for a too-long text, spelt out: the browser (zod/mini only) does not load zod's messages.
  accreditationNumber: z.string().check(z.trim(), z.minLength(1, 'Accreditation number is required'), z.maxLength(100, 'Too big: expected string to have <=100 characters')),
  /** The header's 'Portal Access' target. */
  portalAccessUrl: httpUrl('Please enter a valid URL'),
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
 * Built in a pure function call, so that the browser, which never parses with it, drops it (issue #17).
 */
export const ExpectedFeeSchema = /*#__PURE__*/ (() => z.looseObject({
  /** The fee the applicant agreed to, dollars/rand, e.g. 75.50. */
  expectedFee: z.optional(feeAmount()),
}))();
