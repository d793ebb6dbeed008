/**
 * SMS wording and encoding (issue #17). Every message is one GSM-7 segment: at most 160 septets, no emoji
 * and no curly quotes (3GPP TS 23.038; anything else would switch the whole message to UCS-2 and 70
 * characters). Text is transliterated to ASCII first (`transliteration`: "Zoë’s" → "Zoe's"), and the length
 * is counted by `sms-segments-calculator`, which counts the GSM-7 extension characters ([ ] { } ^ ~ | \ €)
 * as two. Messages name the application as `APP-{id}` and end with a short absolute link and the STOP
 * instruction (opt-out by reply, issue #17).
 */
import { transliterate } from 'transliteration';
import { SegmentedMessage } from 'sms-segments-calculator';
import { statusLabel } from '#contracts/common.ts';
import { SITE_CONTENT } from '../site-content.ts';

/** Longest single-segment GSM-7 message, in septets. */
export const SMS_MAX = 160;
const STOP = 'Reply STOP to opt out';
const SENDER: string = SITE_CONTENT.shortName;

/** ASCII transliteration minus the one printable ASCII character GSM-7 lacks (the backtick). */
export function toGsm7(text: string): string {
  return gsm7Part(text).trim();
}

function gsm7Part(text: string): string {
  return transliterate(text.replace(/[\u2018\u2019\u201A\u201B\u2032`]/g, "'").replace(/[\u201C\u201D\u201E\u2033]/g, '"'), { unknown: '' })
    .replace(/`/g, "'").replace(/[^\x20-\x7E\n]/g, '').replace(/ {2,}/g, ' ');
}

/**
 * Septets `text` takes in GSM-7: 1 per basic-set character, 2 per extension-table character ([ ] { } ^ ~ | \\ €),
 * never the multipart headers (3GPP TS 23.038; `messageSize` of sms-segments-calculator, in bits). Infinity when
 * `text` cannot be sent as GSM-7.
 *
 * The same answer as `new SegmentedMessage(text, 'auto')`, added up per character from charSeptets: a text is GSM-7
 * exactly when each of its characters is, except that a CR LF pair is one grapheme of two code units, which the
 * library counts as UCS-2 (that rare text goes to the library whole). Building a SegmentedMessage per call cost
 * ≈ 1 ms for 150 characters (its segmenter re-adds every segment's size per character), and fit calls this per
 * character of a course title: a receipt SMS took 3–8 ms of the event loop inside the submit's transaction.
 */
export function gsm7Length(text: string): number {
  if (text.includes('\r\n')) return libraryGsm7Length(text);
  let septets = 0;
  for (const ch of text) septets += charSeptets(ch);
  return septets;
}

/** gsm7Length by sms-segments-calculator itself: one SegmentedMessage of the whole text. */
function libraryGsm7Length(text: string): number {
  const m = new SegmentedMessage(text, 'auto');
  return m.encodingName === 'GSM-7' ? m.messageSize / 7 : Infinity;
}

/** Septets of each character (code point) seen so far, from libraryGsm7Length of that character alone. */
const SEPTETS = new Map<string, number>();

/** Septets of one character (code point) in GSM-7: 1, 2 (extension table) or Infinity (not in GSM-7). */
function charSeptets(ch: string): number {
  let n = SEPTETS.get(ch);
  if (n === undefined) {
    n = libraryGsm7Length(ch);
    // Bounded: an admin's free-text reason could bring any character; the GSM-7 set itself is 138.
    if (SEPTETS.size < 4096) SEPTETS.set(ch, n);
  }
  return n;
}

const ELLIPSIS = '...';
/** Where a cut may end: a space or punctuation on either side of it. */
const BOUNDARY = /[\s,;:.!?)\/-]/;

/**
 * The longest start of `v` taking at most `room` septets, cut after a whole word (inside a word only when its first
 * word alone is too long), without trailing spaces or punctuation; '' when nothing fits.
 */
function cutToWord(v: string, room: number): string {
  let k = 0;
  for (let used = 0; k < v.length; k++) {
    used += gsm7Length(v[k]!);
    if (used > room) break;
  }
  let keep = v.slice(0, k);
  if (k < v.length && !BOUNDARY.test(v[k]!) && !BOUNDARY.test(v[k - 1] ?? ' ')) {
    const last = Math.max(...[...keep].map((c, i) => (BOUNDARY.test(c) ? i : -1)));
    if (last > 0) keep = keep.slice(0, last);
  }
  return keep.replace(/[\s,;:.!?(/-]+$/, '');
}

/** One wording of a message: `head + sep + variable + tail` (`sep` only when some of the variable part is kept). */
type Wording = [head: string, sep: string, tail: string];

/** A variable part cut shorter than this many septets (and than itself) makes a shorter wording worth trying. */
const MEANINGFUL = 30;

/**
 * `wording` with `variable` shortened until the whole fits in one segment (SMS_MAX septets): cut after a whole word
 * and marked "...", which takes the place of a full stop starting the tail (no "...."), so the message fills up to 160;
 * left out with its separator when nothing of it fits. `kept`: septets of the variable part kept.
 */
function fitOne([head, sep, tail]: Wording, v: string): { text: string; kept: number } {
  const h = gsm7Part(head), t = gsm7Part(tail);
  const build = (x: string, tl: string) => `${h}${x ? `${gsm7Part(sep)}${x}` : ''}${tl}`.replace(/ {2,}/g, ' ');
  const whole = build(v, t);
  if (!v || gsm7Length(whole) <= SMS_MAX) return { text: whole, kept: gsm7Length(v) };
  const cutTail = t.replace(/^\./, '');
  const room = SMS_MAX - gsm7Length(build(ELLIPSIS, cutTail));
  const kept = room > 0 ? cutToWord(v, room) : '';
  return kept ? { text: build(`${kept}${ELLIPSIS}`, cutTail), kept: gsm7Length(kept) } : { text: build('', t), kept: 0 };
}

/**
 * The message in the first of `wordings` (longest, most natural first) that holds all of `variable` in one segment;
 * else in the first that keeps a meaningful part of it (MEANINGFUL septets, cut as fitOne does); else in the one
 * keeping the most of it. When no wording fits even without it (a PUBLIC_URL over about 66 characters), the last,
 * longer than 160, which queueSms refuses.
 */
function fit(wordings: Wording[], variable: string): string {
  const v = toGsm7(variable);
  const all = gsm7Length(v);
  const fitting = wordings.map((w) => fitOne(w, v)).filter((r) => gsm7Length(r.text) <= SMS_MAX);
  const best = fitting.find((r) => r.kept === all) ?? fitting.find((r) => r.kept >= Math.min(MEANINGFUL, all))
    ?? fitting.reduce<{ text: string; kept: number } | undefined>((a, r) => (!a || r.kept > a.kept ? r : a), undefined);
  return (best ?? fitOne(wordings.at(-1)!, v)).text;
}

/** The link to the application's page: `{origin}/applications/{id}` (PUBLIC_URL or the request's origin). */
export function applicationLink(origin: string, applicationId: number): string {
  return `${origin.replace(/\/+$/, '')}/applications/${applicationId}`;
}

/**
 * "Application received" (spec §2 Application form, submit), with as much of the course title as fits; shorter
 * wording ("VSC: APP-{id} received: {course}") when a long PUBLIC_URL leaves too little room.
 */
export function receiptSms(applicationId: number, courseTitle: string, link: string): string {
  return fit([
    [`${SENDER}: we received application APP-${applicationId}`, ' for ', `. Track it: ${link} ${STOP}`],
    [`${SENDER}: APP-${applicationId} received`, ': ', `. Track it: ${link} ${STOP}`],
  ], courseTitle);
}

/**
 * A status change (spec §4 statuses; the label as the applicant sees it, always whole with a PUBLIC_URL up to 66
 * characters: "VSC: APP-{id} is now {label}" when the longer wording does not fit).
 */
export function statusSms(applicationId: number, status: string, link: string): string {
  return fit([
    [`${SENDER}: application APP-${applicationId}`, ' is now ', `. Details: ${link} ${STOP}`],
    [`${SENDER}: APP-${applicationId}`, ' is now ', `. Details: ${link} ${STOP}`],
  ], statusLabel(status as any));
}

/** Top-level domains a phone turns into a link even without `http://` or `www.` ("evil.co.za", "bit.ly"). */
const LINK_TLDS = 'com|net|org|info|biz|za|ly|io|co|me|app|link|xyz|site|online|top|click|ru|cn|tk|ml|ga|cf|gq|example';
/** Web addresses in free text: with a scheme, starting www., or a domain with a path or a TLD of LINK_TLDS. */
const LINKS = new RegExp(`(?:\\b[a-z][a-z0-9+.-]*:\\/\\/|\\bwww\\.)\\S+|\\b(?:[a-z0-9-]+\\.)+(?:(?:${LINK_TLDS})\\b(?:\\/\\S*)?|[a-z]{2,}\\/\\S*)`, 'gi');

/**
 * `text` without web addresses (LINKS), spaces tidied: an admin's rejection reason goes into the SMS without links, so
 * the only link an SMS carries is the college's own (issue #17 audit F6: "Reset your password at https://evil.example/…"
 * beside it). The whole reason stays readable in the application.
 */
export function withoutLinks(text: string): string {
  return text.replace(LINKS, '').replace(/\s+([,.;:!?])/g, '$1').replace(/ {2,}/g, ' ').trim();
}

/**
 * A rejected document: which slot (e.g. "ID Document") and, as far as room allows, the admin's reason without web
 * addresses (withoutLinks); shorter
 * wording ("{label} rejected: {reason} {link}") when the longer one would keep less than a meaningful part of it.
 */
export function documentRejectedSms(applicationId: number, documentLabel: string, reason: string, link: string): string {
  const why = withoutLinks(reason).trim().replace(/[.!]+$/, '');
  return fit([
    [`${SENDER}: APP-${applicationId} ${documentLabel} not accepted`, ': ', `. Upload again: ${link} ${STOP}`],
    [`${SENDER}: APP-${applicationId} ${documentLabel} rejected`, ': ', `. Upload: ${link} ${STOP}`],
    [`${SENDER}: APP-${applicationId} ${documentLabel} rejected`, ': ', ` ${link} ${STOP}`],
  ], why);
}


/**
 * The path of the set-password link sent by SMS: the reset-password page itself, served at this short path by the
 * static site (api/src/site-build/serve.ts), with the token in the fragment (`/r#token=…`), which browsers never send
 * to a server or put in a Referer.
 */
export const SET_PASSWORD_SMS_PATH = '/r';

/**
 * The set-password link for an SMS: `{origin}/r#token={token}` (origin without a trailing slash). With the walk-in's
 * 22-character SMS token it is the origin plus 31 characters, so setPasswordSms fits an origin of up to 66.
 */
export function setPasswordSmsLink(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}${SET_PASSWORD_SMS_PATH}#token=${token}`;
}

/**
 * A walk-in's set-password link (issue #18 point 6): the account staff created for them, valid `days` days. `link`
 * from setPasswordSmsLink; 94 characters besides the origin (an origin over 66 makes it too long: queueSms refuses it).
 */
export function setPasswordSms(link: string, days: number): string {
  return fit([[`${SENDER}: choose your password within ${days} days: `, '', `${link} ${STOP}`]], '');
}
