/**
 * Contact form contract (spec §2 Contact: first name, last name, email, phone, message). The spec leaves
 * the form unwired; issue #3 makes it send, so the messages reuse the §5 wording where a rule exists.
 * Written with `zod/mini` (same engine as `zod`, a fraction of the bytes) because the public pages load
 * it in the browser on a cheap phone (issue #3 budgets).
 */
import * as z from 'zod/mini';
import { personName } from './person-name.ts';
import { optionalPhone } from './phone.ts';
import { PHONE_MIN_DIGITS_MESSAGE } from './phone-text.ts';
import { isReservedEmail, RESERVED_EMAIL_MESSAGE } from './mailbox.ts';

export { personName };

/** Client-generated key so a double-click stores one message (8–100 chars of [A-Za-z0-9_-]). */
export const IdempotencyKeySchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{8,100}$/, 'Invalid idempotency key'));

/** Trimmed, lower-cased e-mail address; else 'Please enter a valid email address' (spec §5); not under .invalid (isReservedEmail). */
export const emailAddress = (): z.ZodMiniPipe<z.ZodMiniString<string>, z.ZodMiniEmail> => z.pipe(
  z.string({ error: 'Please enter a valid email address' }).check(z.trim(), z.toLowerCase()),
  z.email({ error: 'Please enter a valid email address' }).check(z.refine((v) => !isReservedEmail(v), RESERVED_EMAIL_MESSAGE)),
);

export const ContactMessageSchema = z.object({
  firstName: personName('First name'),
  lastName: personName('Last name'),
  email: emailAddress(),
  /** Optional; when given at least 10 digits; letters refused (phone.ts). */
  phone: optionalPhone(PHONE_MIN_DIGITS_MESSAGE, true),
  message: z.string({ error: 'Message must be at least 10 characters' })
    .check(z.trim(), z.minLength(10, 'Message must be at least 10 characters'), z.maxLength(5000, 'Message must be at most 5000 characters')),
  idempotencyKey: z.optional(IdempotencyKeySchema),
});
export type ContactMessageInput = z.input<typeof ContactMessageSchema>;
export type ContactMessage = z.output<typeof ContactMessageSchema>;

/** One stored message as admins read it (GET /api/admin/contact-messages → {messages}). */
export interface StoredContactMessage {
  id: number; firstName: string; lastName: string; email: string; phone: string | null; message: string; createdAt: string;
}
