/**
 * Retention (POPIA §14: records not kept longer than needed): what content/legal/privacy.md "How long we keep it"
 * promises, carried out by an hourly sweep on every node (server.ts, next to the orphan-upload purge). Each step is
 * an idempotent delete or redaction in its own transaction over rows picked FOR UPDATE SKIP LOCKED, so two nodes
 * sweeping at once share the rows instead of waiting on or repeating each other.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { ERASED_PERSONAL, redactApplications } from '../erasure/erasure.repo.ts';
import { describeErrorForLog } from '../../http/error-log.ts';

/** How far this node's clock may stand from the database's before a sweep warns about it, ms. */
export const CLOCK_SKEW_WARN_MS = 5 * 60_000;

/**
 * Retention periods in days, as the privacy notice states them (content/legal/privacy.md, "How long we keep it"):
 * contact messages two years after they were sent; assessment bookings one year after they were made; an
 * unsuccessful (spec §4 status `rejected`) application one year after its last change, then redacted as an erasure
 * redacts it (redactApplications); e-mails and SMS that were sent or given up on (mail_outbox sent/failed,
 * sms_outbox sent/failed/skipped) 90 days after they were queued. Queued (pending) messages are never removed.
 */
export const RETENTION_DAYS = { contactMessages: 730, assessmentBookings: 365, rejectedApplications: 365, messages: 90 } as const;

/** Rows one step takes per transaction; a step repeats until fewer are left. */
export const RETENTION_BATCH = 1000;

/** What one sweep did: rows deleted per table, and unsuccessful applications redacted. */
export interface RetentionResult { contactMessages: number; assessmentBookings: number; rejectedApplications: number; mail: number; sms: number }

/**
 * The moment `days` days before the database's now(), as SQL: created_at and updated_at are set by the database, so
 * the cutoff is too (security review: a node whose clock ran two years fast deleted a 5-minute-old contact message).
 */
const cutoff = (days: number) => sql`(now() - ${days}::integer * interval '1 day')`;

/** Deletes, batch by batch, the rows of `table` that `where` selects; returns how many. */
async function deleteWhere(db: Db, table: 'contact_messages' | 'assessment_bookings' | 'mail_outbox' | 'sms_outbox', where: ReturnType<typeof sql>): Promise<number> {
  const t = sql.raw(table);
  let total = 0;
  for (;;) {
    const res = await db.transaction(async (tx: DbOrTx) => tx.execute(sql`DELETE FROM ${t} WHERE id IN (
      SELECT id FROM ${t} WHERE ${where} ORDER BY id LIMIT ${RETENTION_BATCH} FOR UPDATE SKIP LOCKED) RETURNING id`));
    const n = rowsOf(res).length;
    total += n;
    if (n < RETENTION_BATCH) return total;
  }
}

/**
 * Redacts, batch by batch, the applications with status `rejected` whose last change is before `before` (an SQL
 * timestamp, cutoff) and whose
 * answers are not yet the erased stub; returns how many. The last change is the latest of updated_at, its status
 * history and its document reviews: a review or a payment change does not touch updated_at (review: a rejected
 * application reviewed last week was "a year unchanged"). The redaction sets updated_at, so a row is picked once.
 */
async function redactRejected(db: Db, before: SQL): Promise<number> {
  const erased = JSON.stringify(ERASED_PERSONAL);
  let total = 0;
  for (;;) {
    const n = await db.transaction(async (tx: DbOrTx) => {
      const ids = rowsOf(await tx.execute(sql`SELECT a.id FROM applications a WHERE a.status = 'rejected' AND a.updated_at < ${before}
        AND a.personal <> ${erased}::jsonb
        AND NOT EXISTS (SELECT 1 FROM application_status_history h WHERE h.application_id = a.id AND h.created_at >= ${before})
        AND NOT EXISTS (SELECT 1 FROM document_reviews r WHERE r.application_id = a.id AND r.created_at >= ${before})
        ORDER BY a.id LIMIT ${RETENTION_BATCH} FOR UPDATE OF a SKIP LOCKED`)).map((r) => Number(r.id));
      await redactApplications(tx, ids);
      return ids.length;
    });
    total += n;
    if (n < RETENTION_BATCH) return total;
  }
}

/**
 * One retention sweep (RETENTION_DAYS), its cutoffs counted back from the database's now(): deletes contact messages,
 * assessment bookings and finished mail and SMS past their period, and redacts unsuccessful applications a year after
 * their last change. `nodeNow` (default this node's clock) only serves to warn, once per sweep, when this node's
 * clock stands more than CLOCK_SKEW_WARN_MS from the database's ('[privacy] retention: this node's clock is … ahead
 * of …'); it never moves a cutoff. Safe to run on several nodes at once and to repeat. Returns what it did; rejects
 * on a database error (the steps before it stay done).
 */
export async function applyRetention(db: Db, nodeNow: Date = new Date()): Promise<RetentionResult> {
  const res = await db.execute(sql`SELECT now() AS now`);
  const dbNow = new Date(rowsOf<{ now: string | Date }>(res)[0]!.now);
  const skew = nodeNow.getTime() - dbNow.getTime();
  if (Math.abs(skew) > CLOCK_SKEW_WARN_MS) {
    const minutes = Math.round(Math.abs(skew) / 60_000);
    console.warn(`[privacy] retention: this node's clock is ${minutes} minutes ${skew > 0 ? 'ahead of' : 'behind'} the database's; cutoffs follow the database's clock. Check the node's time synchronisation (NTP).`);
  }
  return {
    contactMessages: await deleteWhere(db, 'contact_messages', sql`created_at < ${cutoff(RETENTION_DAYS.contactMessages)}`),
    assessmentBookings: await deleteWhere(db, 'assessment_bookings', sql`created_at < ${cutoff(RETENTION_DAYS.assessmentBookings)}`),
    rejectedApplications: await redactRejected(db, cutoff(RETENTION_DAYS.rejectedApplications)),
    mail: await deleteWhere(db, 'mail_outbox', sql`status IN ('sent', 'failed') AND created_at < ${cutoff(RETENTION_DAYS.messages)}`),
    sms: await deleteWhere(db, 'sms_outbox', sql`status IN ('sent', 'failed', 'skipped') AND created_at < ${cutoff(RETENTION_DAYS.messages)}`),
  };
}

/**
 * applyRetention for the hourly timer: logs what was removed ('[privacy] retention: …', nothing when nothing was)
 * and logs a failure instead of rejecting (the next hour retries). Resolves when done.
 */
export async function retentionSweep(db: Db): Promise<void> {
  try {
    const r = await applyRetention(db);
    const done = Object.entries(r).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`);
    if (done.length) console.info(`[privacy] retention: removed or redacted ${done.join(', ')}`);
  } catch (err) {
    console.error(`[privacy] retention sweep failed (retried in an hour): ${describeErrorForLog(err)}`);
  }
}
