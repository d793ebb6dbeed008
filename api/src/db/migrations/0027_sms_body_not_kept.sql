-- Privacy audit F1: an SMS no longer keeps its text once final (sent: '(delivered; body not kept)'; failed or skipped:
-- '(not delivered; body not kept)', api/src/sms/sms-outbox.ts). Rows that became final before that still held theirs,
-- among them walk-ins' set-password links (/r#token=…) and admins' rejection reasons.
UPDATE "sms_outbox" SET "body" = '(delivered; body not kept)' WHERE "status" = 'sent' AND "body" <> '(delivered; body not kept)';--> statement-breakpoint
UPDATE "sms_outbox" SET "body" = '(not delivered; body not kept)' WHERE "status" IN ('failed', 'skipped') AND "body" <> '(not delivered; body not kept)';
