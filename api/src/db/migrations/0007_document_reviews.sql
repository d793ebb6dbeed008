ALTER TABLE "uploads" ADD COLUMN "sha256" text;
--> statement-breakpoint
CREATE TABLE "document_reviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"application_id" integer NOT NULL,
	"slot" text NOT NULL,
	"upload_id" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"reviewed_by" integer,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_reviews" ADD CONSTRAINT "document_reviews_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "document_reviews" ADD CONSTRAINT "document_reviews_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "document_reviews_application_idx" ON "document_reviews" USING btree ("application_id","slot");
