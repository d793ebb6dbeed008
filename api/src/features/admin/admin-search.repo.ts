/**
 * The admin search box's SQL (admin-day audit item 1: searches officers commonly type found nothing), shared by the
 * Students list and the applications list and its CSV export (admin.repo.ts). Values are always bound parameters.
 */
import { and, ilike, or, sql, type SQL } from 'drizzle-orm';
import { users } from '../../db/schema/users.ts';
import { applications } from '../../db/schema/applications.ts';
import { unaccentContains } from '../../db/text-search.ts';

/** `%`/`_` are literal in a search box. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A South African number's leading 0, 27 or 0027 (the same national number typed three ways), on digits only. */
const NATIONAL_PREFIX = '^(0027|27|0)';
const NON_DIGIT = String.raw`\D`;

/**
 * The digits of a phone-like search term (only digits, spaces, +, (), - and dots) without its leading 0, 27 or 0027,
 * so that "0721234567", "+27 72 123 4567" and "(072) 123-4567" all look for 721234567; '' when the term is not
 * phone-like or leaves fewer than 3 digits.
 */
function phoneSearchDigits(term: string): string {
  if (!/^[\d\s+().-]+$/.test(term)) return '';
  const national = term.replace(/\D/g, '').replace(new RegExp(NATIONAL_PREFIX), '');
  return national.length >= 3 ? national : '';
}

/** LIKE wildcards, escaped after unaccent, which maps fullwidth ％ ＿ ＼ to % _ \ (as in unaccentContains). */
const LIKE_SPECIAL = String.raw`([\\%_])`;
const ESCAPED = String.raw`\\\1`;

/** What the search ignores inside a name: spaces, apostrophes (unaccent turns ’ into '), hyphens, dots. */
const JOINERS = "[[:space:]'`\u00b4\u2018\u2019\u02bc.\u2010\u2011\u2013\u2014-]";
/** The same characters for JavaScript: joiners between two other characters of a typed word. */
const INNER_JOINERS = /(?<=[^\s'`\u00b4\u2018\u2019\u02bc.\u2010\u2011\u2013\u2014-])[\s'`\u00b4\u2018\u2019\u02bc.\u2010\u2011\u2013\u2014-]+(?=[^\s'`\u00b4\u2018\u2019\u02bc.\u2010\u2011\u2013\u2014-])/gu;

/**
 * True when `word` appears in the student's name, case and accents ignored: either as typed in "first last"
 * (unaccentContains, so "bulk-" still means a hyphen) or, with the joiners inside the word dropped, in the first and
 * last name run together without their joiners: "oneill" and "o-neill" find "O’Neill", "makhadolongsurname" finds
 * "Makhado-Longsurname", "vandermerwe" finds "van der Merwe". The second test is not answered by users_name_trgm_idx
 * (pg_trgm splits words at an apostrophe, so "oneill" shares no trigram "one" with "o'neill") but by
 * users_joined_name_trgm_idx (migration 0031), built on this exact expression with JOINERS as it is: change them together
 * (search-index.test.ts fails when the index no longer applies).
 */
function nameContains(word: string): SQL {
  const bare = word.replace(INNER_JOINERS, '');
  return or(
    unaccentContains(sql`${users.firstName} || ' ' || ${users.lastName}`, word),
    sql`regexp_replace(immutable_unaccent(${users.firstName} || ${users.lastName}), ${JOINERS + '+'}, '', 'g') ilike ('%' || regexp_replace(unaccent(${bare}::text), ${LIKE_SPECIAL}, ${ESCAPED}, 'g') || '%')`,
  )!;
}

/** `users.phone`'s digits without the national prefix contain `national` (phoneSearchDigits); users_phone_digits_trgm_idx (migration 0031) is on this exact expression. */
const phoneDigitsContain = (national: string): SQL =>
  sql`regexp_replace(regexp_replace(coalesce(${users.phone}, ''), ${NON_DIGIT}, '', 'g'), ${NATIONAL_PREFIX}, '') like ${`%${national}%`}`;

/**
 * The Students list's APP reference test: the user who made application `id`. A scalar subquery on the primary key (at
 * most one row; none: NULL, no match) rather than `IN (subquery)`, so that a word's OR stays indexable (users_pkey
 * beside the trigram indexes of migration 0031) instead of a pass over every user (digit words, phones typed in groups).
 */
export const userOfApplication = (id: number): SQL =>
  sql`${users.id} = (select ${applications.userId} from ${applications} where ${applications.id} = ${id})`;

/** Words of a search that count (more are ignored): each one reads the users table (through indexes since migration 0031). */
export const MAX_SEARCH_WORDS = 6;

/**
 * The admin search box (Students list, applications list and its CSV; admin-day audit item 1) as one parameterised
 * condition: every whitespace-separated word of `term` (the first MAX_SEARCH_WORDS) must match, in any order, one of
 *   - the person's name (nameContains: case, accents, apostrophes, hyphens and spaces ignored),
 *   - their e-mail or phone as typed (`%`/`_` literal), or their phone's digits (0 / 27 / +27 / 0027 alike),
 *   - an APP reference ("APP-12", "app12", "12"), through `appRef(id)`,
 *   - whatever `extra(likePattern)` adds (the applications list: the course title);
 * or, when the whole term looks like a phone number ("082 123 4567"), the phone's digits match it as one number.
 * `people(cond)` turns a condition on `users` into one on the caller's rows (a subquery for applications).
 */
export function searchMatch(term: string, people: (cond: SQL) => SQL, appRef: (id: number) => SQL, extra?: (like: string) => SQL): SQL {
  const words = term.split(/\s+/).filter(Boolean).slice(0, MAX_SEARCH_WORDS);
  const perWord = words.map((word) => {
    const like = `%${likeEscape(word)}%`;
    const national = phoneSearchDigits(word);
    const appId = /^(?:app-?)?(\d{1,9})$/i.exec(word);
    return or(
      people(or(nameContains(word), ilike(users.email, like), ilike(sql`coalesce(${users.phone}, '')`, like), national ? phoneDigitsContain(national) : undefined)!),
      appId ? appRef(Number(appId[1])) : undefined,
      extra ? extra(like) : undefined,
    )!;
  });
  const whole = words.length > 1 ? phoneSearchDigits(term) : '';
  const all = and(...perWord)!;
  return whole ? or(people(phoneDigitsContain(whole)), all)! : all;
}
