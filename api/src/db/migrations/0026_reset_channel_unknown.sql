ALTER TABLE "password_resets" ALTER COLUMN "channel" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "password_resets" ALTER COLUMN "channel" DROP NOT NULL;--> statement-breakpoint
-- Links not yet used: their channel may be the old default rather than where they went (a walk-in's SMS link made
-- before 0024, or by a node of an older release during the deploy, read 'email'). Unknown proves nothing.
UPDATE "password_resets" SET "channel" = NULL WHERE "used_at" IS NULL AND "channel" = 'email';