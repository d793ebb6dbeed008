/** Applications, their status history, drafts, uploads and payments (spec §3, DESIGN §4 Applications). */
import { pgTable, serial, text, timestamp, integer, numeric, jsonb, boolean, uniqueIndex, index } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './users.ts';
import { campuses, courses } from './catalogue.ts';

export const applications = pgTable('applications', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  courseId: integer('course_id').notNull().references(() => courses.id),
  status: text('status').notNull().default('pending'),
  personal: jsonb('personal').notNull().default({}),
  academicHistory: jsonb('academic_history').notNull().default({}),
  documents: jsonb('documents').notNull().default({}),
  paymentStatus: text('payment_status').notNull().default('pending'),
  /** rand/dollars as the spec shows, two decimals */
  paymentAmount: numeric('payment_amount', { precision: 12, scale: 2 }).notNull(),
  notes: text('notes'),
  /** APS of academicHistory.nscResults; null when none were given (issue #18) */
  aps: integer('aps'),
  /** meets the course's structured requirements; null without NSC results. Recomputed when the course changes. */
  eligible: boolean('eligible'),
  /** shortfalls, e.g. ["Mathematics 45 % — 50 % needed"] */
  eligibilityReasons: jsonb('eligibility_reasons').$type<string[]>().notNull().default([]),
  /** the admin who entered a walk-in application on the applicant's behalf, and where (issue #18 point 6) */
  enteredBy: integer('entered_by').references(() => users.id, { onDelete: 'set null' }),
  enteredCampusId: integer('entered_campus_id').references(() => campuses.id, { onDelete: 'set null' }),
  submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('applications_user_idx').on(t.userId),
  index('applications_status_idx').on(t.status),
  // The admin list's default order (ORDER BY created_at DESC, id DESC: newest first, id breaking ties), so a page is an
  // index walk, not a sort of every row. NULLS FIRST is what a bare DESC means; drizzle's default (NULLS LAST) would not match it.
  index('applications_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  // Foreign keys: per-course counts and eligibility refreshes, and the checks when a course or admin user is deleted.
  index('applications_course_idx').on(t.courseId),
  index('applications_entered_by_idx').on(t.enteredBy),
  index('applications_aps_idx').on(t.aps),
  uniqueIndex('applications_one_active_uq').on(t.userId, t.courseId).where(sql`status <> 'rejected'`),
  // "Which applications cite upload X?" (the orphan purge, the delete check): upload_refs() is migration 0018's
  // immutable function; queries must use the same expression, `upload_refs(documents) @> ARRAY[id]`. fastupdate off:
  // with GIN's pending list every probe also reads every row inserted since the last VACUUM (bench/upload-purge.ts:
  // 20 000 fresh applications in the list made the purge query run for minutes instead of about a second).
  index('applications_upload_refs_idx').using('gin', sql`upload_refs(${t.documents})`).with({ fastupdate: false }),
]);

export const applicationStatusHistory = pgTable('application_status_history', {
  id: serial('id').primaryKey(),
  applicationId: integer('application_id').notNull().references(() => applications.id, { onDelete: 'cascade' }),
  fromStatus: text('from_status'),
  toStatus: text('to_status').notNull(),
  notes: text('notes'),
  changedBy: integer('changed_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('history_application_idx').on(t.applicationId), index('history_changed_by_idx').on(t.changedBy)]);

export const applicationDrafts = pgTable('application_drafts', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  key: text('key').notNull(),
  step: integer('step').notNull().default(0),
  data: jsonb('data').notNull().default({}),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  // 1 for a new draft, +1 at every save: a save names the revision it was based on (lost-update check, drafts.repo.ts).
  revision: integer('revision').notNull().default(1),
}, (t) => [
  uniqueIndex('drafts_user_key_uq').on(t.userId, t.key),
  // "Which drafts mention upload X?" (the orphan purge): `upload_refs(data) @> ARRAY[id]` (migration 0018's function).
  index('drafts_upload_refs_idx').using('gin', sql`upload_refs(${t.data})`).with({ fastupdate: false }),
]);

export const uploads = pgTable('uploads', {
  id: text('id').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  originalName: text('original_name').notNull(),
  storedName: text('stored_name').notNull(),
  mime: text('mime').notNull(),
  /** bytes */
  size: integer('size').notNull(),
  /** hex SHA-256 of the bytes, shown to the applicant as a receipt (issue #16 point 3); null for older rows */
  sha256: text('sha256'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('uploads_user_idx').on(t.userId)]);

export const payments = pgTable('payments', {
  id: serial('id').primaryKey(),
  applicationId: integer('application_id').notNull().references(() => applications.id, { onDelete: 'cascade' }),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  method: text('method', { enum: ['card', 'paypal'] }).notNull(),
  last4: text('last4'),
  reference: text('reference').notNull(),
  amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
  currency: text('currency').notNull().default('USD'),
  status: text('status').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /**
   * When a status change to payment_pending took this completed payment out of "Fees collected" (markPaymentPending,
   * migration 0030); null otherwise. Leaving payment_pending restores such rows (restoreHeldPayments) and clears it.
   */
  heldAt: timestamp('held_at', { withTimezone: true }),
}, (t) => [index('payments_user_idx').on(t.userId), index('payments_application_idx').on(t.applicationId)]);

/**
 * Every review of one document (issue #16 point 3): an admin marks the upload in a slot verified or rejected
 * (with a reason). The latest row for (application, slot, upload) is that document's state; older rows are the history.
 */
export const documentReviews = pgTable('document_reviews', {
  id: serial('id').primaryKey(),
  applicationId: integer('application_id').notNull().references(() => applications.id, { onDelete: 'cascade' }),
  slot: text('slot').notNull(),
  uploadId: text('upload_id').notNull(),
  status: text('status', { enum: ['verified', 'rejected'] }).notNull(),
  reason: text('reason'),
  reviewedBy: integer('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
}, (t) => [index('document_reviews_application_idx').on(t.applicationId, t.slot), index('document_reviews_reviewed_by_idx').on(t.reviewedBy)]);
