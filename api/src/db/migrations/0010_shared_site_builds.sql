CREATE TABLE "shared_site_builds" (
	"content_hash" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"object_key" text,
	"bytes" integer,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "shared_site_builds_status" CHECK ("status" IN ('building', 'ready', 'failed'))
);
