/**
 * Amounts typed the South African way (DESIGN §4 Locale: en-ZA, ZAR), for the external payment amount and the course
 * price. Zod-free so any contract or island can use it.
 *
 * Rules (decision, money audit):
 * - An optional leading 'R' (rand sign, either case, optionally followed by a space) is dropped; a leading '-' is
 *   kept so the caller can refuse it with its own message ('-R5', 'R-5', '-5' all mean minus five).
 * - Spaces (normal, no-break U+00A0, thin U+2009, narrow no-break U+202F) are thousands grouping: '1 250,00'.
 * - One ',' or one '.' is the decimal mark (in South Africa the comma is the decimal mark: '1,25' = 1.25).
 * - When both appear, the last one is the decimal mark and the other groups thousands: '1,250.00' = 1250.00,
 *   '1.250,00' = 1250.00. A mark that appears more than once groups thousands: '1,250,000' = 1250000.
 * - Grouping must be in threes after a first group of one to three digits ('12 50' and '1,2,3' are not numbers).
 * - '1,250' is therefore 1.250 (three decimals), never silently 1250 or 1.25: the callers' "at most 2 decimal
 *   places" rule refuses it, so the person retypes it as '1250' or '1,25'.
 */

/** Characters read as thousands-grouping spaces: space, no-break space, thin space, narrow no-break space. */
const GROUP_SPACES = /[ \u00A0\u2009\u202F]/g;
const GROUPED = /^\d{1,3}(?:G\d{3})+$/;

/** `digits` grouped with `sep` in threes ('1,250,000' with ','), or plain digits; → plain digits or null. */
function ungroup(digits: string, sep: string | null): string | null {
  if (/^\d+$/.test(digits)) return digits;
  if (sep === null) return null;
  const grouped = new RegExp(GROUPED.source.replace('G', sep === '.' ? '\\.' : sep));
  return grouped.test(digits) ? digits.split(sep).join('') : null;
}

/**
 * Normalise a typed amount to a plain decimal string: '-?DIGITS(.DIGITS)?' with every decimal the person typed
 * kept (so 'at most 2 decimals' can still be checked), e.g. 'R1 250,50' → '1250.50', '1,250.00' → '1250.00',
 * '-5' → '-5', '1,250' → '1.250'. Returns null when the text is not an amount under the rules above
 * (empty text included: the caller says 'Amount is required' first).
 */
export function normaliseAmountText(input: string): string | null {
  let text = input.trim();
  let negative = false;
  if (text.startsWith('-')) { negative = true; text = text.slice(1).trim(); }
  if (/^r/i.test(text)) text = text.slice(1).trim();
  if (!negative && text.startsWith('-')) { negative = true; text = text.slice(1).trim(); }
  // Spaces group thousands: require threes around each space before removing them.
  if (GROUP_SPACES.test(text)) {
    GROUP_SPACES.lastIndex = 0;
    const spaced = text.replace(GROUP_SPACES, ' ');
    const m = /^(\d{1,3}(?: \d{3})+)([.,]\d+)?$/.exec(spaced);
    if (!m) return null;
    text = m[1].replace(/ /g, '') + (m[2] ?? '');
  }
  if (!/^[\d.,]+$/.test(text)) return null;
  const commas = text.split(',').length - 1;
  const points = text.split('.').length - 1;
  let whole: string | null;
  let frac: string | undefined;
  if (commas === 0 && points === 0) {
    whole = text;
  } else if (commas > 0 && points > 0) {
    const decimalMark = text.lastIndexOf(',') > text.lastIndexOf('.') ? ',' : '.';
    const groupMark = decimalMark === ',' ? '.' : ',';
    if (text.split(decimalMark).length - 1 !== 1) return null;
    const at = text.lastIndexOf(decimalMark);
    whole = ungroup(text.slice(0, at), groupMark);
    frac = text.slice(at + 1);
  } else {
    const mark = commas > 0 ? ',' : '.';
    if (commas + points === 1) {
      const at = text.indexOf(mark);
      whole = text.slice(0, at);
      frac = text.slice(at + 1);
    } else {
      whole = ungroup(text, mark);
    }
  }
  if (whole === null || !/^\d+$/.test(whole)) return null;
  if (frac !== undefined && !/^\d+$/.test(frac)) return null;
  return `${negative ? '-' : ''}${whole}${frac !== undefined ? `.${frac}` : ''}`;
}

/**
 * Two-decimal string of a normalised amount ('1250.5' → '1250.50', '7' → '7.00'), without going through a float.
 * `plain` must be what normaliseAmountText returned and have at most two decimals.
 */
export function toTwoDecimals(plain: string): string {
  const [whole, frac = ''] = plain.split('.');
  return `${whole.replace(/^(-?)0+(?=\d)/, '$1')}.${frac.padEnd(2, '0')}`;
}
