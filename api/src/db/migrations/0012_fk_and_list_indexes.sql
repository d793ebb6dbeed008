CREATE INDEX "history_changed_by_idx" ON "application_status_history" USING btree ("changed_by");--> statement-breakpoint
CREATE INDEX "applications_created_idx" ON "applications" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "applications_course_idx" ON "applications" USING btree ("course_id");--> statement-breakpoint
CREATE INDEX "applications_entered_by_idx" ON "applications" USING btree ("entered_by");--> statement-breakpoint
CREATE INDEX "document_reviews_reviewed_by_idx" ON "document_reviews" USING btree ("reviewed_by");--> statement-breakpoint
CREATE INDEX "payments_application_idx" ON "payments" USING btree ("application_id");--> statement-breakpoint
CREATE INDEX "announcements_created_by_idx" ON "announcements" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "sms_outbox_user_idx" ON "sms_outbox" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "external_payments_created_by_idx" ON "external_payments" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "external_students_user_idx" ON "external_students" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "erasure_requests_user_idx" ON "erasure_requests" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "password_resets_user_idx" ON "password_resets" USING btree ("user_id");