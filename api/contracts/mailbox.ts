/**
 * The mailbox an e-mail address reaches, as the project counts and matches addresses: the public forms' per-address
 * rate limit (http/public-forms.ts) and the person's own data in "Download my data", "Delete my account" and the
 * admin Erase (features/profile/profile.repo.ts). One rule, so a `+tag` copy of an address is never one person for
 * the limit and another for POPIA §23/§24 (privacy audit F3). For the person's data an address that is another
 * account's own login is that account's, not the mailbox's (profile.repo.ts idsInMailbox).
 */

/**
 * An e-mail address as the project stores, looks up and counts it: trimmed and lower case ('' for null or undefined).
 * The one rule for accounts (users.email), login and reset counters and outbox matching.
 */
export function normalizeEmail(email: unknown): string {
  return String(email ?? '').trim().toLowerCase();
}

/**
 * What a form says about an address under a reserved top-level domain: 'Please enter an email address that can
 * receive mail (.invalid addresses cannot)'. The spec (§5) gives only 'Please enter a valid email address'; this names why.
 */
export const RESERVED_EMAIL_MESSAGE = 'Please enter an email address that can receive mail (.invalid addresses cannot)';

/**
 * Whether `email` is under the reserved top-level domain .invalid (RFC 6761 §6.4: never resolves, so no mail reaches
 * it): the domain after the last '@', trimmed and case-insensitively, is 'invalid' or ends in '.invalid'. Erasure
 * anonymises an account to erased-<id>@erased.invalid (features/erasure), so no form may claim such an address
 * (security review HIGH: registering erased-2@erased.invalid made user 2's erasure fail). Only .invalid: .test,
 * .example and example.com are reserved too (RFC 2606) but are the seed's and the tests' addresses (@example.com,
 * @college.example) and no erasure writes them. Every e-mail field that gives an address refuses these
 * (RESERVED_EMAIL_MESSAGE); sign-in and the reset request, which only look an address up, do not.
 */
export function isReservedEmail(email: unknown): boolean {
  const s = normalizeEmail(email);
  const domain = s.slice(s.lastIndexOf('@') + 1);
  return domain === 'invalid' || domain.endsWith('.invalid');
}

/** Domains where dots in the local part are ignored, mapped to one name (they are one mailbox service). */
const DOTLESS_DOMAINS: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * The mailbox an e-mail address reaches (security audit F3: 12 messages to victim+1…+12@gmail.com from one IP each
 * mailed an acknowledgement to one inbox): trimmed and lower case, a '+tag' dropped from the local part, and for
 * gmail.com / googlemail.com the dots dropped and the domain made gmail.com.
 * 'V.Ictim+12@GoogleMail.com' → 'victim@gmail.com'. At most 320 characters; a value without '@' is only trimmed and
 * lower-cased.
 */
export function mailboxKey(email: unknown): string {
  const s = normalizeEmail(email).slice(0, 320);
  const at = s.lastIndexOf('@');
  if (at <= 0) return s;
  let local = s.slice(0, at);
  let domain = s.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (DOTLESS_DOMAINS[domain]) { domain = DOTLESS_DOMAINS[domain]!; local = local.replace(/\./g, ''); }
  return `${local}@${domain}`;
}

/**
 * Whether `email`'s local part carries a '+tag' (name+tag@domain, the '+' not first), as mailboxKey drops it. Proving
 * such an address proves the tagged mailbox only: on a domain without sub-addressing name+tag@ is not name@'s
 * inbox, so it never makes name@'s (or another tag's) data its own (security audit 2026-11-28 F1; profile.repo.ts
 * idsInMailbox). The untagged address's owner receives its tags' mail where sub-addressing exists (RFC 5233).
 */
export function hasSubaddress(email: unknown): boolean {
  const s = normalizeEmail(email);
  const at = s.lastIndexOf('@');
  return at > 0 && s.slice(0, at).indexOf('+') > 0;
}

const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * SQL LIKE patterns (backslash escapes) that every lower-cased, trimmed address whose mailboxKey is `key` matches:
 * a coarse pre-filter for a database query, whose rows the caller then keeps only when mailboxKey(address) === key.
 * Other addresses may match too. 'del@gmail.com' → ['%d%e%l%@gmail.com', '%d%e%l%@googlemail.com'];
 * 'name@example.com' → ['name%@example.com']. [] for a key without '@'.
 */
export function mailboxLikePatterns(key: string): string[] {
  const at = key.lastIndexOf('@');
  if (at <= 0) return [];
  const local = key.slice(0, at);
  const domain = key.slice(at + 1);
  const aliases = Object.keys(DOTLESS_DOMAINS).filter((d) => DOTLESS_DOMAINS[d] === domain);
  if (!aliases.length) return [`${likeLiteral(local)}%@${likeLiteral(domain)}`];
  const spread = `%${[...local].map(likeLiteral).join('%')}%`;
  return aliases.map((d) => `${spread}@${likeLiteral(d)}`);
}
