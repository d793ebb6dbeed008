-- Admin name search at volume (volume audit: 100 000 applications → 2.0 s a request, its count 1.64 s, every row's
-- name through unaccent). pg_trgm (a trusted extension since PostgreSQL 13; PGlite loads it in api/src/db/client.ts)
-- gives GIN trigram indexes that answer ILIKE '%…%'. unaccent() is STABLE (it reads its dictionary by name), so an
-- index cannot use it: immutable_unaccent(text) calls it with the dictionary fixed to the one of this database's
-- unaccent extension, schema-qualified, so the answer does not depend on the caller's search_path. Queries must use the
-- exact indexed expression: immutable_unaccent(first_name || ' ' || last_name) (api/src/db/text-search.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DO $do$
DECLARE s text := (SELECT quote_ident(n.nspname) FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'unaccent');
BEGIN
  EXECUTE format($f$CREATE OR REPLACE FUNCTION immutable_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $body$SELECT %1$s.unaccent(%2$L::regdictionary, $1)$body$$f$, s, s || '.unaccent');
END $do$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS users_name_trgm_idx ON users USING gin (immutable_unaccent(first_name || ' ' || last_name) gin_trgm_ops) WITH (fastupdate = off);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS users_email_trgm_idx ON users USING gin (email gin_trgm_ops) WITH (fastupdate = off);
