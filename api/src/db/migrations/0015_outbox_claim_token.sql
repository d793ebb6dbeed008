-- Outbox leases (operations audit): a random token per claim, checked and renewed before each row is sent
-- (api/src/db/outbox.ts), so a worker whose 60 s lease ran out mid-batch skips rows another node has claimed since.
ALTER TABLE "mail_outbox" ADD COLUMN "claim_token" uuid;--> statement-breakpoint
ALTER TABLE "sms_outbox" ADD COLUMN "claim_token" uuid;
