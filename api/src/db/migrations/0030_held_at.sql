-- Money audit HIGH: a status change to payment_pending rewrote completed payments to pending with no way back.
-- payments.held_at records which rows that change took out of "Fees collected", so leaving payment_pending restores
-- exactly those (restoreHeldPayments, admin.repo.ts). Nullable, no backfill: rows held before this are not known.
ALTER TABLE "payments" ADD COLUMN "held_at" timestamp with time zone;
