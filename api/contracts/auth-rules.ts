/**
 * Zod-free account rules (spec §5, issue #4): the password ceiling, the SA ID number checks and their
 * messages. auth.ts re-exports them; islands and tests that need only these do not load a validator.
 */

/** Longest accepted password in characters; never truncated (ASVS 6.2.1, 6.2.9). */
export const PASSWORD_MAX = 128;

export const SA_ID_MESSAGE = 'This South African ID number is not valid: check the 13 digits';

/**
 * Birth date from a South African ID number's first six digits (YYMMDD), spec §5:
 * YY ≤ 21 → 20YY else 19YY; month 1–12, day 1–31, year 1900–2025, else ''.
 * Returns 'YYYY-MM-DD' or ''.
 */
export function birthDateFromIdNumber(idNumber: string): string {
  const digits = (idNumber ?? '').replace(/\s/g, '');
  if (!/^\d{6}/.test(digits)) return '';
  const yy = Number(digits.slice(0, 2));
  const mm = Number(digits.slice(2, 4));
  const dd = Number(digits.slice(4, 6));
  const year = yy <= 21 ? 2000 + yy : 1900 + yy;
  if (mm < 1 || mm > 12 || dd < 1 || dd > 31 || year < 1900 || year > 2025) return '';
  return `${year}-${String(mm).padStart(2, '0')}-${String(dd).padStart(2, '0')}`;
}

/** Luhn check of a 13-digit SA ID number (issue #4: checked when nationality is South Africa). */
export function isValidSaIdNumber(idNumber: string): boolean {
  if (!/^\d{13}$/.test(idNumber)) return false;
  let sum = 0;
  for (let i = 0; i < 13; i++) {
    let d = Number(idNumber[12 - i]);
    if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
  }
  return sum % 10 === 0;
}
