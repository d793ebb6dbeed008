/** Applications, their status history, drafts, uploads and payments (spec §3, DESIGN §4 Applications). */
import { pgTable, serial, text, timestamp, integer, numeric, jsonb, uniqueIndex, index } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './users.ts';
import { courses } from './catalogue.ts';

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
  submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('applications_user_idx').on(t.userId),
  index('applications_status_idx').on(t.status),
  uniqueIndex('applications_one_active_uq').on(t.userId, t.courseId).where(sql`status <> 'rejected'`),
]);

export const applicationStatusHistory = pgTable('application_status_history', {
  id: serial('id').primaryKey(),
  applicationId: integer('application_id').notNull().references(() => applications.id, { onDelete: 'cascade' }),
  fromStatus: text('from_status'),
  toStatus: text('to_status').notNull(),
  notes: text('notes'),
  changedBy: integer('changed_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('history_application_idx').on(t.applicationId)]);

export const applicationDrafts = pgTable('application_drafts', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  key: text('key').notNull(),
  step: integer('step').notNull().default(0),
  data: jsonb('data').notNull().default({}),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('drafts_user_key_uq').on(t.userId, t.key)]);

export const uploads = pgTable('uploads', {
  id: text('id').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  originalName: text('original_name').notNull(),
  storedName: text('stored_name').notNull(),
  mime: text('mime').notNull(),
  /** bytes */
  size: integer('size').notNull(),
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
}, (t) => [index('payments_user_idx').on(t.userId)]);
