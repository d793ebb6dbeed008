/**
 * Login and simple registration contracts (spec §2 Login/Registration, §5), and the field rules auth.ts builds its
 * other account schemas from. Apart from auth.ts so that /login and /register, which load their schema when the
 * form is first used (site/islands/ui/lazy-resolver.ts), do not download the comprehensive registration's
 * schemas (NSC results, institutions) with it (issue #17). auth.ts re-exports the schemas. Written with `zod/mini`.
 */
import { z } from 'zod/mini';
import { PASSWORD_MAX } from './auth-rules.ts';
import { passwordsMatch } from './cross-field.ts';
import { personName } from './person-name.ts';
import { isReservedEmail, RESERVED_EMAIL_MESSAGE } from './mailbox.ts';
import { phone } from './phone.ts';

/** Phone: tidied, 10..20 characters (spec §5), digits, spaces, ( ) - . and a leading + only (phone.ts). */
export { phone };

/** An address to look up (sign-in, reset request): trimmed, lower-cased, valid, ≤ 254 characters; 'Please enter a valid email address'. */
export const signInEmail = (): z.ZodMiniPipe<z.ZodMiniString<string>, z.ZodMiniEmail> => z.pipe(
  z.string({ error: 'Please enter a valid email address' }).check(z.trim(), z.toLowerCase()),
  z.email({ error: 'Please enter a valid email address' }).check(z.maxLength(254, 'Please enter a valid email address')),
);
/**
 * An address a person gives (registration and every form that stores one): signInEmail, and not under .invalid
 * (isReservedEmail, #contracts/mailbox.ts: RESERVED_EMAIL_MESSAGE).
 */
export const email = (): z.ZodMiniPipe<z.ZodMiniString<string>, z.ZodMiniEmail> => z.pipe(
  z.string({ error: 'Please enter a valid email address' }).check(z.trim(), z.toLowerCase()),
  z.email({ error: 'Please enter a valid email address' }).check(z.maxLength(254, 'Please enter a valid email address'), z.refine((v) => !isReservedEmail(v), RESERVED_EMAIL_MESSAGE)),
);
/** New password: 6..PASSWORD_MAX characters (never truncated). */
export const password = (): z.ZodMiniString<string> => z.string({ error: 'Password must be at least 6 characters' })
  .check(z.minLength(6, 'Password must be at least 6 characters'), z.maxLength(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`));
/** A person's first or last name: the shared rule of every form (personName, person-name.ts); `label` e.g. 'First name'. */
export const name = (label: string): z.ZodMiniString<string> => personName(label);

/** Login (spec §2 Login, §5): email, password, optional rememberMe. */
export const LoginSchema = z.object({
  email: signInEmail(),
  password: z.string({ error: 'Password must be at least 6 characters' })
    .check(z.minLength(6, 'Password must be at least 6 characters'), z.maxLength(PASSWORD_MAX, 'Password must be at least 6 characters')),
  rememberMe: z._default(z.optional(z.boolean()), false),
});
export type Login = z.infer<typeof LoginSchema>;

/** The account fields both registrations ask for (spec §5): names, email, password twice, phone. */
export const accountFields = (): {
  firstName: z.ZodMiniString<string>; lastName: z.ZodMiniString<string>; email: ReturnType<typeof email>;
  password: z.ZodMiniString<string>; confirmPassword: z.ZodMiniString<string>; phone: z.ZodMiniString<string>;
} => ({
  firstName: name('First name'),
  lastName: name('Last name'),
  email: email(),
  password: password(),
  confirmPassword: z.string({ error: 'Passwords do not match' }),
  phone: phone(),
});

/** Simple register (spec §5). courseId: 'none' or empty means no course. Role is never read. */
export const SimpleRegisterSchema = z.object({
  ...accountFields(),
  courseId: z.pipe(
    z.optional(z.union([z.literal('none'), z.literal(''), z.coerce.number().check(z.int(), z.positive()), z.null()])),
    z.transform((v) => (v === 'none' || v === '' || v == null ? undefined : v)),
  ),
  terms: z.literal(true, { error: 'You must agree to the terms and conditions' }),
}).check(passwordsMatch());
export type SimpleRegister = z.input<typeof SimpleRegisterSchema>;
