-- upload_refs(doc): the upload ids a JSON document cites, for the orphan-upload purge and the delete check (volume
-- audit: "is this upload referenced?" compared every upload with every application's documents and LIKE-matched every
-- draft's text, quadratic: 46.5 s at 20 000 applications). Every string anywhere in `doc` shaped like an upload id
-- (UPLOAD_ID_PATTERN in api/contracts/applications.ts: 10-64 of A-Z a-z 0-9 _ -), without duplicates; '{}' for none.
-- IMMUTABLE (its answer depends on `doc` only), so GIN indexes on upload_refs(documents) and upload_refs(data)
-- (next migration) answer `upload_refs(x) @> ARRAY[id]`. Strings longer than 64 characters (a draft's data URL)
-- are left out, so an index entry never exceeds the index row size.
CREATE OR REPLACE FUNCTION upload_refs(doc jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT s), '{}'::text[])
  FROM (SELECT v #>> '{}' AS s FROM jsonb_path_query(doc, 'strict $.**') AS v WHERE jsonb_typeof(v) = 'string') AS strs
  WHERE s ~ '^[A-Za-z0-9_-]{10,64}$'
$$;
