/** Users (spec §3 User) plus auth tokens, password resets and erasure requests (DESIGN §4). */
import { pgTable, serial, text, timestamp, integer, bigint, json, uniqueIndex, index } from 'drizzle-orm/pg-core';

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  email: text('email').notNull(),
  passwordHash: text('password_hash').notNull(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  phone: text('phone'),
  dateOfBirth: text('date_of_birth'),
  nationality: text('nationality'),
  idNumber: text('id_number'),
  addressLine1: text('address_line1'),
  addressLine2: text('address_line2'),
  city: text('city'),
  state: text('state'),
  postalCode: text('postal_code'),
  country: text('country'),
  emergencyContactName: text('emergency_contact_name'),
  emergencyContactPhone: text('emergency_contact_phone'),
  emergencyContactRelation: text('emergency_contact_relation'),
  role: text('role', { enum: ['student', 'admin'] }).notNull().default('student'),
  privacyConsentAt: timestamp('privacy_consent_at', { withTimezone: true }),
  privacyNoticeVersion: text('privacy_notice_version'),
  /** When the owner proved the address by opening the mailed link (issue #12); null = unverified. */
  emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
  /** When the user turned SMS updates off from their profile (issue #17); null = SMS on. */
  smsOptOutAt: timestamp('sms_opt_out_at', { withTimezone: true }),
  /** When the user turned announcement e-mails off (profile checkbox or the List-Unsubscribe link; POPIA s69); null = on. */
  announcementMailOptOutAt: timestamp('announcement_mail_opt_out_at', { withTimezone: true }),
  /** When a relay rejected the address permanently (SMTP 5xx on the recipient); announcements skip it. Cleared by re-verification. */
  emailBouncedAt: timestamp('email_bounced_at', { withTimezone: true }),
  /**
   * When an admin's Erase (or a restore's --erasures-from) anonymised the row (features/erasure, anonymiseUserRow);
   * null = not erased. The record of an erasure: the anonymised address alone is not one (migration 0029).
   */
  erasedAt: timestamp('erased_at', { withTimezone: true }),
  /**
   * Login generation (migration 0032): raised by endAllSessions and by a role change (promoteToAdmin). Each cookie
   * session (`sess.epoch`) and bearer token (auth_tokens.session_epoch) records the value at login; one older than this
   * is refused (auth/session.ts), even if a request in flight wrote its row back.
   */
  sessionEpoch: integer('session_epoch').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('users_email_uq').on(t.email)]);

export const authTokens = pgTable('auth_tokens', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  /** The express-session id of the same login: logging out through either ends both (issue #12). */
  sessionId: text('session_id'),
  /** Idle limit of the login's role in ms (DESIGN §4); null for tokens issued before it existed. */
  idleMs: bigint('idle_ms', { mode: 'number' }),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  /** users.session_epoch when the token was issued (migration 0032); null (issued before it) counts as 0. */
  sessionEpoch: integer('session_epoch'),
}, (t) => [uniqueIndex('auth_tokens_hash_uq').on(t.tokenHash), index('auth_tokens_user_idx').on(t.userId), index('auth_tokens_session_idx').on(t.sessionId)]);

/** Single-use e-mail verification links (issue #12): SHA-256 of the token, 24 h, for the address it was sent to. */
export const emailVerifications = pgTable('email_verifications', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  email: text('email').notNull(),
  tokenHash: text('token_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('email_verifications_hash_uq').on(t.tokenHash), index('email_verifications_user_idx').on(t.userId)]);

export const passwordResets = pgTable('password_resets', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /**
   * Where the link was sent: only a link known to have been e-mailed proves the address when used (security audit
   * F3). Null: not known, so it proves nothing: links made before migration 0024, or by a node of an older release
   * during a rolling deploy, which writes no channel (a walk-in's SMS link then read 'email'; rolling-deploy audit).
   */
  channel: text('channel', { enum: ['email', 'sms'] }),
}, (t) => [uniqueIndex('password_resets_hash_uq').on(t.tokenHash), index('password_resets_user_idx').on(t.userId)]);

export const erasureRequests = pgTable('erasure_requests', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  status: text('status', { enum: ['open', 'done', 'declined'] }).notNull().default('open'),
  reason: text('reason'),
  /** The admin's reason for declining; `reason` keeps the person's own words (POPIA audit). */
  decisionReason: text('decision_reason'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  resolvedAt: timestamp('resolved_at', { withTimezone: true }),
}, (t) => [index('erasure_requests_user_idx').on(t.userId)]);

/** express-session store table, the layout connect-pg-simple expects. */
export const sessions = pgTable('session', {
  sid: text('sid').primaryKey(),
  sess: json('sess').notNull(),
  expire: timestamp('expire', { precision: 6 }).notNull(),
}, (t) => [index('IDX_session_expire').on(t.expire)]);
