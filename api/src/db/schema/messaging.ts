/** Notifications, announcements, the mail outbox, contact messages and assessment bookings. */
import { pgTable, serial, text, timestamp, integer, smallint, boolean, jsonb, uuid, uniqueIndex, index } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './users.ts';

export const notifications = pgTable('notifications', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  message: text('message').notNull(),
  read: boolean('read').notNull().default(false),
  applicationId: integer('application_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  // A user's list, newest first, and its keyset pages `(created_at, id) < (…)` (GET /api/notifications); also the
  // index of the foreign key to users. NULLS FIRST is what a bare DESC means (see applications_created_idx).
  index('notifications_user_created_idx').on(t.userId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
]);

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

/**
 * Transactional outbox: a mail row is written in the same transaction as the change it reports (DESIGN §4).
 * `priority` orders the queue (lower first, then id): 0 transactional mail (password reset, verification, application
 * receipt, status change, …), 1 bulk mail (announcements to every student), so a reset link never waits behind an
 * announcement to 5 000 students (api/src/mail/outbox.ts MAIL_PRIORITY). `locked_until` and `claim_token` are the
 * worker's lease (api/src/db/outbox.ts): a random token per claim, checked and renewed before each row is sent, so a
 * node whose lease ran out never sends a row another node has claimed since.
 */
export const mailOutbox = pgTable('mail_outbox', {
  id: serial('id').primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  /** Reply-To address (the visitor, on the office's copy of a form message); null: replies go to the sender. */
  replyTo: text('reply_to'),
  /** Bulk mail only: the list headers (List-Unsubscribe URL, List-Id), MailListHeaders in mail/mailer.ts; null = transactional, none. */
  listHeaders: jsonb('list_headers'),
  status: text('status', { enum: ['pending', 'sent', 'failed'] }).notNull().default('pending'),
  priority: smallint('priority').notNull().default(0),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  claimToken: uuid('claim_token'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
}, (t) => [
  index('mail_outbox_status_idx').on(t.status),
  // The worker's claim (pending rows by priority, then id) reads the queue in order instead of sorting it.
  index('mail_outbox_due_idx').on(t.priority, t.id).where(sql`status = 'pending'`),
]);

/**
 * SMS outbox (issue #17): like mail_outbox, a row is written in the same transaction as the change it reports;
 * `to` is E.164, `body` at most 160 GSM-7 characters; `kind` is receipt | status | document_rejected | set_password.
 * `locked_until` and `claim_token` are the worker's lease, as in mail_outbox.
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
  claimToken: uuid('claim_token'),
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
