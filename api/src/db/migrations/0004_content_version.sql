CREATE TABLE "content_version" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"hooked_version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "content_version_single_row" CHECK ("id" = 1)
);
--> statement-breakpoint
INSERT INTO "content_version" ("id", "version") VALUES (1, 1) ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "bump_content_version"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE v bigint;
BEGIN
	UPDATE "content_version" SET "version" = "version" + 1, "changed_at" = now() WHERE "id" = 1 RETURNING "version" INTO v;
	PERFORM pg_notify('content_changed', v::text);
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "courses_content_version" AFTER INSERT OR UPDATE OR DELETE ON "courses" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version"();
--> statement-breakpoint
CREATE TRIGGER "announcements_content_version" AFTER INSERT OR UPDATE OR DELETE ON "announcements" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version"();
--> statement-breakpoint
CREATE TRIGGER "settings_content_version" AFTER INSERT OR UPDATE OR DELETE ON "settings" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version"();
