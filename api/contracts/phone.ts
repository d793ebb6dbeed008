/**
 * The one rule for the characters of a phone number, on every form that takes one (registration and its emergency
 * contact, profile, application step 1, walk-in desk, assessment booking, contact form, external student). Applicants
 * are texted (issue #17: numbers go to E.164, +27…), and staff call them back, so a number may hold only what people
 * type for one: digits, spaces, brackets, hyphens, full stops and a + at the start ("+27 82 123 4567",
 * "(082) 123-4567", "082.123.4567"). Letters are refused ("082123456b", "082 123 4567 ext 2"): libphonenumber
 * (toE164) drops them without a word, so the SMS went to another number or to none (phone-letters audit). The spec
 * only asks for a length (§5); its messages stay, and a short number still gets them first; a number needs 10
 * digits as well (PHONE_MIN_DIGITS_MESSAGE, the spec's assessment-form wording). Stored numbers load as they are, and
 * are checked when sent again (a profile save) or taken from the profile by a submit (submit-input.ts). The characters
 * and messages are in phone-text.ts (no zod, for pages that only show numbers). Written with `zod/mini`.
 */
import * as z from 'zod/mini';
import { isPhoneText, PHONE_CHARS_MESSAGE, PHONE_MIN_DIGITS_MESSAGE, PHONE_MIN_MESSAGE, PHONE_TOO_LONG_MESSAGE, phoneDigits, tidyPhone } from './phone-text.ts';

/**
 * A required phone number: tidied (tidyPhone), at least 10 characters (`minMessage`, spec §5), at most `max`
 * characters when given (PHONE_TOO_LONG_MESSAGE; application step 1 has none), then PHONE_PATTERN
 * (PHONE_CHARS_MESSAGE), then at least 10 digits (PHONE_MIN_DIGITS_MESSAGE, only for a number the rules before
 * passed, so a field never has two phone messages). Forms show the first message: a short number gets the length one.
 */
export const phone = (minMessage: string = PHONE_MIN_MESSAGE, max: number | null = 20): z.ZodMiniString<string> => z.string({ error: minMessage })
  .check(
    z.overwrite(tidyPhone), z.minLength(10, minMessage),
    ...(max === null ? [] : [z.maxLength(max, PHONE_TOO_LONG_MESSAGE)]),
    z.refine(isPhoneText, PHONE_CHARS_MESSAGE),
    z.refine((v) => v.length < 10 || !isPhoneText(v) || phoneDigits(v) >= 10, PHONE_MIN_DIGITS_MESSAGE),
  );

/**
 * An optional phone number ('' when blank or absent): tidied, at most 20 characters (PHONE_TOO_LONG_MESSAGE), when
 * given at least 10 (`minMessage`; `countDigits`: 10 digits, as the contact form counts), then PHONE_PATTERN, then
 * at least 10 digits (PHONE_MIN_DIGITS_MESSAGE).
 */
export const optionalPhone = (minMessage: string = PHONE_MIN_MESSAGE, countDigits = false): z.ZodMiniDefault<z.ZodMiniOptional<z.ZodMiniString<string>>> => z._default(z.optional(z.string().check(
  z.overwrite(tidyPhone), z.maxLength(20, PHONE_TOO_LONG_MESSAGE),
  z.refine((v) => v === '' || (countDigits ? phoneDigits(v) : v.length) >= 10, minMessage),
  z.refine(isPhoneText, PHONE_CHARS_MESSAGE),
  z.refine((v) => v.length < 10 || !isPhoneText(v) || phoneDigits(v) >= 10, PHONE_MIN_DIGITS_MESSAGE),
)), '');
