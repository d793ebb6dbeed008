-- Admin search by words (admin-search.repo.ts searchMatch): every word of a search reads the users table, and two of
-- its tests had no index, so each word was a sequential scan of users computing regexp_replace on every row (20 000
-- applications, 10 000 users, busy 2-core machine: a page and its count 65-530 ms for 1-6 words, 200-910 ms for a phone
-- typed in groups; bench/admin-search-words.ts).
-- Trigram indexes on the exact expressions of those tests (the planner matches an index only on the same expression,
-- constants included; search-index.test.ts checks the plans), so a word is a BitmapOr of four index scans:
--  - the first and last name run together without joiners (nameContains; JOINERS must stay as in admin-search.repo.ts),
--  - the phone as typed (ILIKE on coalesce(phone, '')),
--  - the phone's digits without the national prefix 0 / 27 / 0027 (phoneDigitsContain).
-- Only adds indexes (immutable_unaccent and pg_trgm: migration 0021): older releases run on it unchanged.
CREATE INDEX IF NOT EXISTS users_joined_name_trgm_idx ON users USING gin (regexp_replace(immutable_unaccent(first_name || last_name), '[[:space:]''`´‘’ʼ.‐‑–—-]+', '', 'g') gin_trgm_ops) WITH (fastupdate = off);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS users_phone_trgm_idx ON users USING gin (coalesce(phone, '') gin_trgm_ops) WITH (fastupdate = off);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS users_phone_digits_trgm_idx ON users USING gin (regexp_replace(regexp_replace(coalesce(phone, ''), '\D', '', 'g'), '^(0027|27|0)', '') gin_trgm_ops) WITH (fastupdate = off);
