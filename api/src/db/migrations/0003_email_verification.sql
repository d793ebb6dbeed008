ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "users" SET "email_verified_at" = now() WHERE "role" = 'admin';
--> statement-breakpoint
CREATE TABLE "email_verifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_verifications" ADD CONSTRAINT "email_verifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "email_verifications_hash_uq" ON "email_verifications" USING btree ("token_hash");
--> statement-breakpoint
CREATE INDEX "email_verifications_user_idx" ON "email_verifications" USING btree ("user_id");
--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD COLUMN "session_id" text;
--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD COLUMN "idle_ms" bigint;
--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD COLUMN "last_used_at" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX "auth_tokens_session_idx" ON "auth_tokens" USING btree ("session_id");
