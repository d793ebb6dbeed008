/**
 * People's phone numbers for display, one way (plain-language audit 8: '+27821234567', '0821234567' and the college's
 * '015 962 0000' side by side): a South African number as written at home, national and spaced ('082 123 4567'),
 * another country's as international ('+44 7911 123456'), with libphonenumber-js's metadata (the same library the
 * SMS outbox reads numbers with). Input: the number as stored (E.164 or national, spaces allowed); '' for none; a
 * number the library cannot read is shown as given, and so is one stored before letters were refused ("082123456b":
 * the library drops the letter and would show a shorter number that looks dialable; api/contracts/phone.ts).
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { isPhoneText, tidyPhone } from '../../api/contracts/phone-text.ts';

export function formatPhone(raw: string | null | undefined): string {
  if (!raw) return '';
  if (!isPhoneText(tidyPhone(raw))) return raw;
  const n = parsePhoneNumberFromString(raw, 'ZA');
  if (!n || !n.isPossible()) return raw;
  return n.country === 'ZA' || (!n.country && n.countryCallingCode === '27') ? n.formatNational() : n.formatInternational();
}
