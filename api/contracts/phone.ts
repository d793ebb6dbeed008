/**
 * The one rule for the characters of a phone number, on every form that takes one (registration and its emergency
 * contact, profile, application step 1, walk-in desk, assessment booking, contact form, external student). Applicants
 * are texted (issue #17: numbers go to E.164, +27…), and staff call them back, so a number may hold only what people
 * type for one: digits, spaces, brackets, hyphens, full stops and a + at the start ("+27 82 123 4567",
 * "(082) 123-4567", "082.123.4567"). Letters are refused ("082123456b", "082 123 4567 ext 2"): libphonenumber
 * (toE164) drops them without a word, so the SMS went to another number or to none (phone-letters audit). The spec
 * only asks for a length (§5); its messages stay, and a short number still gets them first. Only new input is
 * checked: stored numbers are read as they are. Written with `zod/mini`, importing only zod: islands validate with it.
 */
import * as z from 'zod/mini';

/** Digits, spaces, ( ) - . and one + at the start; '' passes (blank is the length rule's business). */
export const PHONE_PATTERN = /^\+?[0-9 ().-]*$/;

/** Our own wording (the spec is silent on characters), in the words of personNameCharsMessage (person-name.ts). */
export const PHONE_CHARS_MESSAGE = 'Phone number may contain only digits, spaces, brackets, hyphens, full stops and a + at the start';
/** Spec §5 (registration, application step 1, profile, walk-in). */
export const PHONE_MIN_MESSAGE = 'Phone number must be at least 10 characters';
/** Spec §5 (assessment form; the contact form reuses it and counts digits). */
export const PHONE_MIN_DIGITS_MESSAGE = 'Phone number must be at least 10 digits';
export const PHONE_TOO_LONG_MESSAGE = 'Phone number is too long';

// Copied from a contacts app or a web page a number carries invisible direction marks (U+202A…U+202C around it on
// iOS and Android), no-break or narrow spaces and en dashes: the person cannot see or remove them, so they are tidied.
const INVISIBLE = /[\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;
const ODD_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;
const ODD_DASHES = /[\u2010-\u2015\u2212\uFE63\uFF0D]/g;

/** `v` without invisible format characters, with other spaces as ' ' and other dashes as '-', trimmed. */
export function tidyPhone(v: string): string {
  return v.replace(INVISIBLE, '').replace(ODD_SPACES, ' ').replace(ODD_DASHES, '-').trim();
}

/** Whether `v` (already tidied) holds only phone characters (PHONE_PATTERN). */
export const isPhoneText = (v: string): boolean => PHONE_PATTERN.test(v);

/**
 * A required phone number: tidied (tidyPhone), at least 10 characters (`minMessage`, spec §5), at most `max`
 * characters when given (PHONE_TOO_LONG_MESSAGE; application step 1 has none), then PHONE_PATTERN
 * (PHONE_CHARS_MESSAGE). Forms show one message per field, the first: a short number gets the length message.
 */
export const phone = (minMessage: string = PHONE_MIN_MESSAGE, max: number | null = 20): z.ZodMiniString<string> => z.string({ error: minMessage })
  .check(
    z.overwrite(tidyPhone), z.minLength(10, minMessage),
    ...(max === null ? [] : [z.maxLength(max, PHONE_TOO_LONG_MESSAGE)]),
    z.refine(isPhoneText, PHONE_CHARS_MESSAGE),
  );

/**
 * An optional phone number ('' when blank or absent): tidied, at most 20 characters (PHONE_TOO_LONG_MESSAGE), when
 * given at least 10 (`minMessage`; `countDigits`: 10 digits, as the contact form counts), then PHONE_PATTERN.
 */
export const optionalPhone = (minMessage: string = PHONE_MIN_MESSAGE, countDigits = false): z.ZodMiniDefault<z.ZodMiniOptional<z.ZodMiniString<string>>> => z._default(z.optional(z.string().check(
  z.overwrite(tidyPhone), z.maxLength(20, PHONE_TOO_LONG_MESSAGE),
  z.refine((v) => v === '' || (countDigits ? v.replace(/\D/g, '') : v).length >= 10, minMessage),
  z.refine(isPhoneText, PHONE_CHARS_MESSAGE),
)), '');
