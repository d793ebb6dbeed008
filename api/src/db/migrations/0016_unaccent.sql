-- Name searches compare unaccent(name) with unaccent(term) (names audit): "Nemudzivhadi" finds "Ṋemudzivhadi",
-- "o'neill" finds "O’Neill". unaccent is a trusted extension since PostgreSQL 13, so the database owner may create it;
-- PGlite loads it through the `extensions` option (api/src/db/client.ts).
CREATE EXTENSION IF NOT EXISTS unaccent;
