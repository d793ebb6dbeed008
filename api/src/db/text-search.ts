/**
 * SQL pieces of the admin and external searches (names audit: "names as people really type them").
 */
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/** LIKE wildcards and the escape character; escaped after unaccent, which maps fullwidth ％ ＿ ＼ to % _ \. */
const LIKE_SPECIAL = String.raw`([\\%_])`;
const ESCAPED = String.raw`\\\1`;

/**
 * `immutable_unaccent(expr) ILIKE '%' || unaccent(term) || '%'`: true when `term` appears in `expr`, ignoring case and accents,
 * so that "Nemudzivhadi" finds "Ṋemudzivhadi", "thilivhali" finds "Ṱhilivhali" and "o'neill" finds "O’Neill"
 * (PostgreSQL's unaccent rules map ṱ ḓ ḽ ṅ ṋ ë to t d l n n e and ’ to '). `%`, `_` and `\` in `term` match themselves.
 * Needs the unaccent extension (migration 0016_unaccent; PGlite loads it in api/src/db/client.ts). immutable_unaccent
 * (migration 0021) is unaccent with its dictionary fixed: the same answer, and indexable, so for
 * `first_name || ' ' || last_name` the trigram index users_name_trgm_idx answers the match (pass that exact expression).
 */
export function unaccentContains(expr: SQL | AnyColumn, term: string): SQL {
  return sql`(immutable_unaccent(${expr}) ilike ('%' || regexp_replace(unaccent(${term}::text), ${LIKE_SPECIAL}, ${ESCAPED}, 'g') || '%'))`;
}
