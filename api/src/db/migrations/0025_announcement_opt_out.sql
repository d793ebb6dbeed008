ALTER TABLE "mail_outbox" ADD COLUMN "list_headers" jsonb;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "announcement_mail_opt_out_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_bounced_at" timestamp with time zone;