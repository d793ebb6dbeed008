CREATE TABLE "portal_schema_compat" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"min_reader_when" bigint NOT NULL,
	"as_of_when" bigint NOT NULL,
	"as_of_tag" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
