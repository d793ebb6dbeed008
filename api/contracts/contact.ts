/**
 * Contact form contract (spec §2 Contact: first name, last name, email, phone, message). The spec leaves
 * the form unwired; issue #3 makes it send, so the messages reuse the §5 wording where a rule exists.
 */
import { z } from 'zod';

/** Client-generated key so a double-click stores one message (8–100 chars of [A-Za-z0-9_-]). */
export const IdempotencyKeySchema = z.string().regex(/^[A-Za-z0-9_-]{8,100}$/, 'Invalid idempotency key');

export const ContactMessageSchema = z.object({
  firstName: z.string({ error: 'First name must be at least 2 characters' }).trim()
    .min(2, 'First name must be at least 2 characters').max(80, 'First name is too long').describe('Visitor first name'),
  lastName: z.string({ error: 'Last name must be at least 2 characters' }).trim()
    .min(2, 'Last name must be at least 2 characters').max(80, 'Last name is too long').describe('Visitor last name'),
  email: z.string({ error: 'Please enter a valid email address' }).trim().toLowerCase()
    .pipe(z.email({ error: 'Please enter a valid email address' })).describe('Reply address'),
  phone: z.string().trim().max(20, 'Phone number is too long').optional().default('')
    .refine((v) => v === '' || v.replace(/\D/g, '').length >= 10, 'Phone number must be at least 10 digits')
    .describe('Optional phone number'),
  message: z.string({ error: 'Message must be at least 10 characters' }).trim()
    .min(10, 'Message must be at least 10 characters').max(5000, 'Message must be at most 5000 characters').describe('The message'),
  idempotencyKey: IdempotencyKeySchema.optional(),
});
export type ContactMessageInput = z.input<typeof ContactMessageSchema>;
export type ContactMessage = z.output<typeof ContactMessageSchema>;

/** One stored message as admins read it (GET /api/admin/contact-messages). */
export const StoredContactMessageSchema = z.object({
  id: z.number(), firstName: z.string(), lastName: z.string(), email: z.string(), phone: z.string().nullable(),
  message: z.string(), createdAt: z.string(),
});
export type StoredContactMessage = z.infer<typeof StoredContactMessageSchema>;
