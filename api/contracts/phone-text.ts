/**
 * The characters and digits of a phone number, without zod (phone.ts builds the schemas on it): so that a page that
 * only shows numbers (site/lib/phone.ts, staff lists) does not load the forms' zod chunk (senior review M1).
 * Rule and messages: see phone.ts. Our wording where the spec is silent; spec §5 for the length messages.
 */

/** Digits, spaces, ( ) - . and one + at the start; '' passes (blank is the length rule's business). */
export const PHONE_PATTERN = /^\+?[0-9 ().-]*$/;

/** Our own wording (the spec is silent on characters), in the words of personNameCharsMessage (person-name.ts). */
export const PHONE_CHARS_MESSAGE = 'Phone number may contain only digits, spaces, brackets, hyphens, full stops and a + at the start';
/** Spec §5 (registration, application step 1, profile, walk-in). */
export const PHONE_MIN_MESSAGE = 'Phone number must be at least 10 characters';
/**
 * Spec §5 (assessment form; the contact form reuses it and counts digits). Every other phone field gives it too for a
 * number of 10 characters or more with fewer than 10 digits ("----------", "08 21 23 45"): no SMS can reach that.
 */
export const PHONE_MIN_DIGITS_MESSAGE = 'Phone number must be at least 10 digits';
/** Our own wording, for a number over the field's maximum. */
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

/** The number of digits 0–9 in `v`. */
export const phoneDigits = (v: string): number => v.replace(/\D/g, '').length;
