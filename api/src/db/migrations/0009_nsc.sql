ALTER TABLE "courses" ADD COLUMN "minimum_aps" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "subject_requirements" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_minimum_aps_range" CHECK ("minimum_aps" BETWEEN 0 AND 42);--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "aps" integer;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "eligible" boolean;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "eligibility_reasons" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "entered_by" integer;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "entered_campus_id" integer;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_entered_by_users_id_fk" FOREIGN KEY ("entered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_entered_campus_id_campuses_id_fk" FOREIGN KEY ("entered_campus_id") REFERENCES "public"."campuses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "applications_aps_idx" ON "applications" USING btree ("aps");--> statement-breakpoint
UPDATE "courses" SET "minimum_aps" = 20 WHERE "title" = 'Business Management';--> statement-breakpoint
UPDATE "courses" SET "minimum_aps" = 24 WHERE "title" = 'Software Development';--> statement-breakpoint
UPDATE "courses" SET "minimum_aps" = 28, "subject_requirements" = '[{"subject":"Mathematics","minimumPercent":60}]'::jsonb WHERE "title" = 'Bachelor of Science in Information Systems';--> statement-breakpoint
UPDATE "courses" SET "minimum_aps" = 26 WHERE "title" = 'Bachelor of Commerce in Supply Chain Management';--> statement-breakpoint
UPDATE "courses" SET "minimum_aps" = 22 WHERE "title" = 'Pharmacy Assistance';--> statement-breakpoint
UPDATE "courses" SET "minimum_aps" = 24 WHERE "title" = 'Bachelor of Arts in Fashion Design';
