-- The content version moves only when a statement changed rows (volume audit): the statement-level triggers of
-- 0004 also fired for statements that touched nothing: the `ON DELETE SET NULL` of announcements.created_by runs an
-- UPDATE of announcements on every account deletion, and each one rebuilt the static site.
-- Transition tables tell how many rows a statement changed; a trigger with one may name one event only, so each
-- table gets three. The function stays one statement-level call per statement (a bulk change bumps once).
CREATE OR REPLACE FUNCTION "bump_content_version_if_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE v bigint;
BEGIN
	IF NOT EXISTS (SELECT 1 FROM "changed_rows") THEN RETURN NULL; END IF;
	UPDATE "content_version" SET "version" = "version" + 1, "changed_at" = now() WHERE "id" = 1 RETURNING "version" INTO v;
	PERFORM pg_notify('content_changed', v::text);
	RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "courses_content_version" ON "courses";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "announcements_content_version" ON "announcements";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "settings_content_version" ON "settings";
--> statement-breakpoint
CREATE TRIGGER "courses_content_version_insert" AFTER INSERT ON "courses" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version_if_rows"();
--> statement-breakpoint
CREATE TRIGGER "courses_content_version_update" AFTER UPDATE ON "courses" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version_if_rows"();
--> statement-breakpoint
CREATE TRIGGER "courses_content_version_delete" AFTER DELETE ON "courses" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version_if_rows"();
--> statement-breakpoint
CREATE TRIGGER "announcements_content_version_insert" AFTER INSERT ON "announcements" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version_if_rows"();
--> statement-breakpoint
CREATE TRIGGER "announcements_content_version_update" AFTER UPDATE ON "announcements" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version_if_rows"();
--> statement-breakpoint
CREATE TRIGGER "announcements_content_version_delete" AFTER DELETE ON "announcements" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version_if_rows"();
--> statement-breakpoint
CREATE TRIGGER "settings_content_version_insert" AFTER INSERT ON "settings" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version_if_rows"();
--> statement-breakpoint
CREATE TRIGGER "settings_content_version_update" AFTER UPDATE ON "settings" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version_if_rows"();
--> statement-breakpoint
CREATE TRIGGER "settings_content_version_delete" AFTER DELETE ON "settings" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "bump_content_version_if_rows"();
