/** Settings, site builds and the local external-system tables (DESIGN §4). */
import { pgTable, serial, text, timestamp, integer, bigint, numeric, jsonb, uniqueIndex, index } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { applications } from './applications.ts';

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const siteBuilds = pgTable('site_builds', {
  id: serial('id').primaryKey(),
  status: text('status', { enum: ['running', 'ok', 'error', 'skipped', 'superseded'] }).notNull(),
  reason: text('reason'),
  contentHash: text('content_hash'),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  durationMs: integer('duration_ms'),
  error: text('error'),
});

export const externalStudents = pgTable('external_students', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  applicationId: integer('application_id').references(() => applications.id, { onDelete: 'set null' }),
  name: text('name').notNull(),
  email: text('email').notNull(),
  phone: text('phone'),
  address: text('address'),
  campus: text('campus').notNull(),
  course: text('course').notNull(),
  status: text('status', { enum: ['active', 'pending', 'graduated', 'withdrawn'] }).notNull().default('active'),
  enrollmentDate: text('enrollment_date').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('external_students_application_uq').on(t.applicationId), index('external_students_user_idx').on(t.userId)]);

export const externalPayments = pgTable('external_payments', {
  id: serial('id').primaryKey(),
  reference: text('reference').notNull(),
  studentId: integer('student_id').notNull().references(() => externalStudents.id),
  amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
  currency: text('currency').notNull().default('ZAR'),
  method: text('method', { enum: ['card', 'cash', 'transfer', 'mobile'] }).notNull().default('card'),
  date: timestamp('date', { withTimezone: true }).notNull().defaultNow(),
  status: text('status').notNull().default('completed'),
  branchName: text('branch_name'),
  description: text('description'),
  idempotencyKey: text('idempotency_key'),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
}, (t) => [uniqueIndex('external_payments_idem_uq').on(t.idempotencyKey), index('external_payments_student_idx').on(t.studentId), index('external_payments_created_by_idx').on(t.createdBy)]);

/**
 * One row (id 1) announcing public content changes to every node (issue #13, DESIGN §6): triggers on courses,
 * announcements and settings bump `version` and `pg_notify('content_changed', version)` in the writing
 * transaction (migration 0004). `hookedVersion` is the last version a node claimed for SITE_BUILD_HOOK_URL,
 * so the hook is called once per change, not once per node.
 */
export const contentVersion = pgTable('content_version', {
  id: integer('id').primaryKey().default(1),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  hookedVersion: bigint('hooked_version', { mode: 'number' }).notNull().default(0),
});

/**
 * One static build per content change across nodes (issue #13, api/src/site-build/shared-builds.ts): the node
 * that claims `contentHash` builds (`building`, with `heartbeatAt` renewed every few seconds), uploads the build
 * to the shared object store under `objectKey` (`bytes` long) and marks it `ready`; the other nodes download it.
 * `failed` (or a heartbeat older than the stale limit) lets the next node claim it.
 */
export const sharedSiteBuilds = pgTable('shared_site_builds', {
  contentHash: text('content_hash').primaryKey(),
  status: text('status', { enum: ['building', 'ready', 'failed'] }).notNull(),
  objectKey: text('object_key'),
  bytes: integer('bytes'),
  claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});

/**
 * Secrets the nodes generate for themselves and share through the database (one row per name), so a start without
 * SESSION_SECRET neither uses a value published in the source nor gives each node its own (see session-secret.ts).
 */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One row (id 1): which releases may run on this database (rolling-deploy audit F3, api/src/db/migration-level.ts).
 * `minReaderWhen` is the journal `when` (ms since epoch) of the newest applied migration that older code cannot run
 * on; a node whose journal's newest `when` is at least that may start even when the database has newer migrations.
 * `asOfWhen`/`asOfTag` name the newest migration the row was computed for: a migration newer than `asOfWhen` is not
 * described by the row, and a node that does not know it refuses. Written by openDatabase after migrating.
 */
export const portalSchemaCompat = pgTable('portal_schema_compat', {
  id: integer('id').primaryKey().default(1),
  minReaderWhen: bigint('min_reader_when', { mode: 'number' }).notNull(),
  asOfWhen: bigint('as_of_when', { mode: 'number' }).notNull(),
  asOfTag: text('as_of_tag').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
