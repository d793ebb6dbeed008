/**
 * Zod-free account rules (spec §5, issue #4): the password ceiling, the SA ID number checks and their
 * messages, and the typed date-of-birth rule. auth.ts re-exports them; islands and tests that need only these do
 * not load a validator.
 */
import { isRealDate, todayInSouthAfrica } from './sa-calendar.ts';

/** Longest accepted password in characters; never truncated (ASVS 6.2.1, 6.2.9). */
export const PASSWORD_MAX = 128;

/**
 * The e-mail field's message when registering with an address that already has an account (409; the toast keeps
 * spec §8 'Registration failed' / 'Could not create account'). The same words on the API and in the forms, where
 * 'log in' and 'reset your password' become links to /login and /forgot-password (EmailTakenError.tsx).
 */
export const EMAIL_TAKEN_MESSAGE = 'If you already have an account with this e-mail, log in or reset your password.';

export const SA_ID_MESSAGE = 'This South African ID number is not valid: check the 13 digits';

/** Birth date 'YYYY-MM-DD' encoded in the first six digits (YYMMDD) by the spec §5 rule, or '' (no valid ID check). */
function encodedBirthDate(digits: string): string {
  if (!/^\d{6}/.test(digits)) return '';
  const yy = Number(digits.slice(0, 2));
  const mm = Number(digits.slice(2, 4));
  const dd = Number(digits.slice(4, 6));
  const year = yy <= 21 ? 2000 + yy : 1900 + yy;
  if (mm < 1 || mm > 12 || dd < 1 || dd > 31 || year < 1900 || year > 2025) return '';
  // A real calendar day: 310230 (30 February) is not a birth date.
  const d = new Date(Date.UTC(year, mm - 1, dd));
  if (d.getUTCMonth() !== mm - 1) return '';
  return `${year}-${String(mm).padStart(2, '0')}-${String(dd).padStart(2, '0')}`;
}

/** Spaces and dashes (ASCII, Unicode hyphens and dashes, minus) that people type between an ID number's digit groups. */
const ID_SEPARATORS = /[\s\-\u2010-\u2015\u2212]/g;

/** `idNumber` without spaces and dashes: "040506-5123-086" and "040506 5123 086" → "0405065123086". */
export function saIdDigits(idNumber: string): string {
  return (idNumber ?? '').replace(ID_SEPARATORS, '');
}

/**
 * The ID number as it is stored (names audit): a valid South African ID number typed with spaces or dashes becomes its
 * 13 digits; anything else (a passport or foreign ID number) is kept as typed, trimmed.
 */
export function normalisedIdNumber(idNumber: string): string {
  const digits = saIdDigits(idNumber);
  return saIdNumberProblem(digits) === null ? digits : (idNumber ?? '').trim();
}

/**
 * The one South African ID number check (issue #14 point 5), used by registration, the assessment form and
 * the profile, in the browser and the API: 13 digits (spaces and dashes ignored: saIdDigits), a birth date YYMMDD by the spec §5 rule
 * (month 1–12, a real day, year 1900–2025) and the Luhn check digit. Returns null when valid, else SA_ID_MESSAGE.
 */
export function saIdNumberProblem(idNumber: string): string | null {
  const digits = saIdDigits(idNumber);
  if (!/^\d{13}$/.test(digits) || !encodedBirthDate(digits)) return SA_ID_MESSAGE;
  let sum = 0;
  for (let i = 0; i < 13; i++) {
    let d = Number(digits[12 - i]);
    if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
  }
  return sum % 10 === 0 ? null : SA_ID_MESSAGE;
}

/** True when `idNumber` passes saIdNumberProblem. */
export function isValidSaIdNumber(idNumber: string): boolean {
  return saIdNumberProblem(idNumber) === null;
}

/**
 * Birth date from a South African ID number (spec §5: YY ≤ 21 → 20YY else 19YY; month 1–12, day 1–31,
 * year 1900–2025), filled only from a valid ID (issue #14 point 5: check digit and date). Returns 'YYYY-MM-DD' or ''.
 */
export function birthDateFromIdNumber(idNumber: string): string {
  const digits = saIdDigits(idNumber);
  return isValidSaIdNumber(digits) ? encodedBirthDate(digits) : '';
}

/**
 * Why a typed date of birth 'YYYY-MM-DD' is refused, or null. Blank → 'Date of birth is required'; not a real
 * calendar date in that format → application step 1's 'Please enter a valid date in YYYY-MM-DD format' (spec §5);
 * before 1900-01-01 or not before today (South African time) → 'Please enter a valid date of birth'. The bounds,
 * isRealDate and todayInSouthAfrica (sa-calendar.ts) are the assessment form's date-of-birth rule (assessment.ts). `today` is 'YYYY-MM-DD'.
 */
export function typedBirthDateProblem(value: string, today: string = todayInSouthAfrica()): string | null {
  const v = value.trim();
  if (!v) return 'Date of birth is required';
  if (!isRealDate(v)) return 'Please enter a valid date in YYYY-MM-DD format';
  if (v < '1900-01-01' || v >= today) return 'Please enter a valid date of birth';
  return null;
}
