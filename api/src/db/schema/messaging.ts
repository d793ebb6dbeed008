/** Notifications, announcements, the mail outbox, contact messages and assessment bookings. */
import { pgTable, serial, text, timestamp, integer, boolean, jsonb, uniqueIndex, index } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const notifications = pgTable('notifications', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  message: text('message').notNull(),
  read: boolean('read').notNull().default(false),
  applicationId: integer('application_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('notifications_user_idx').on(t.userId)]);

export const announcements = pgTable('announcements', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  content: text('content').notNull(),
  imageUrl: text('image_url'),
  active: boolean('active').notNull().default(true),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('announcements_created_by_idx').on(t.createdBy)]);

/** Transactional outbox: a mail row is written in the same transaction as the change it reports (DESIGN §4). */
export const mailOutbox = pgTable('mail_outbox', {
  id: serial('id').primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  status: text('status', { enum: ['pending', 'sent', 'failed'] }).notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
}, (t) => [index('mail_outbox_status_idx').on(t.status)]);

/**
 * SMS outbox (issue #17): like mail_outbox, a row is written in the same transaction as the change it reports;
 * `to` is E.164, `body` at most 160 GSM-7 characters; `kind` is receipt | status | document_rejected.
 */
export const smsOutbox = pgTable('sms_outbox', {
  id: serial('id').primaryKey(),
  to: text('to').notNull(),
  body: text('body').notNull(),
  kind: text('kind').notNull(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  applicationId: integer('application_id'),
  status: text('status', { enum: ['pending', 'sent', 'failed', 'skipped'] }).notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  providerId: text('provider_id'),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
}, (t) => [index('sms_outbox_status_idx').on(t.status, t.id), index('sms_outbox_to_idx').on(t.to), index('sms_outbox_user_idx').on(t.userId)]);

/** Numbers that replied STOP (E.164), or whose owner opted out; nothing is sent to them (issue #17). */
export const smsOptOuts = pgTable('sms_opt_outs', {
  phone: text('phone').primaryKey(),
  /** The keyword received, e.g. STOP. */
  source: text('source').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const contactMessages = pgTable('contact_messages', {
  id: serial('id').primaryKey(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  email: text('email').notNull(),
  phone: text('phone'),
  message: text('message').notNull(),
  idempotencyKey: text('idempotency_key'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('contact_idem_uq').on(t.idempotencyKey)]);

export const assessmentBookings = pgTable('assessment_bookings', {
  id: serial('id').primaryKey(),
  data: jsonb('data').notNull(),
  email: text('email').notNull(),
  preferredDate: text('preferred_date').notNull(),
  idempotencyKey: text('idempotency_key'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('assessment_idem_uq').on(t.idempotencyKey)]);
