-- Security review HIGH: an erasure was told only by its address, erased-<id>@erased.invalid, which anyone could
-- register (POST /api/auth/register) before the address rule refused .invalid; a restore's --erasures-from then
-- "erased again" such accounts. users.erased_at now records the erasure (anonymiseUserRow sets it).
ALTER TABLE "users" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
-- Backfill only rows an erasure wrote: its address for that very id AND its unusable password hash ('!erased', not a
-- PHC string, so never one registration or a reset stores) AND its name. An account that registered such an address
-- has an argon2 hash and stays not erased. When: the erasure request's decision, else the row's last update (the
-- anonymisation; a restore's re-erasure files no request).
UPDATE "users" SET "erased_at" = coalesce(
  (SELECT max(r."resolved_at") FROM "erasure_requests" r WHERE r."user_id" = "users"."id" AND r."status" = 'done'),
  "users"."updated_at")
WHERE "erased_at" IS NULL AND "email" = 'erased-' || "id" || '@erased.invalid' AND "password_hash" = '!erased'
  AND "first_name" = 'Erased' AND "last_name" = 'applicant';
