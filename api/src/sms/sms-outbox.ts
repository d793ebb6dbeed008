/**
 * Durable SMS (issue #17): the same transactional-outbox pattern as e-mail (api/src/mail/outbox.ts).
 * `queueSms` writes a row in the caller's transaction, so an SMS exists exactly when the change it reports was
 * committed. `drainSmsOutbox` claims due rows with FOR UPDATE SKIP LOCKED and a 60 s lease (several nodes
 * never claim one row twice), renews each row's lease just before sending it (a row another node claimed after this
 * batch's lease ran out is skipped: sent once across nodes), sends it through the driver and marks it sent; a
 * failure is retried with exponential back-off (10 s, 20 s, 40 s … capped at 1 h) up to MAX_ATTEMPTS, and a permanent gateway refusal
 * (SmsSendError.permanent) is recorded as failed at once. One phone's messages go in queue order across nodes (IN_ORDER),
 * a newer status SMS supersedes an unsent older one of the same application, a gateway failure pauses this node's
 * sending (pauseForGateway) instead of trying every queued message, and a driver with sendMany gets up to
 * SMS_PER_REQUEST messages per request. Once a row is sent its body becomes SMS_SENT_BODY, and once it
 * is final unsent (failed, skipped) SMS_UNSENT_BODY. Opted-out numbers are skipped at queue time and again
 * at send time (an opt-out that arrives while a message waits wins).
 */
import { and, eq, notInArray, sql, type SQL } from 'drizzle-orm';
// The mobile metadata: a number is valid only if it can receive an SMS (not a landline, 0861 share-call or 0800).
import { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';
import type { Db } from '../db/client.ts';
import { smsOptOuts, smsOutbox } from '../db/schema/messaging.ts';
import { users } from '../db/schema/users.ts';
import { SmsSendError, type SmsDriver } from './sms-drivers.ts';
import { rowsOf } from '../db/rows.ts';
import { applicationLink, gsm7Length, SMS_MAX, statusSms } from './sms-text.ts';
import { backoffSeconds, claimDue, describeSendError, drainWhileFull, OUTBOX_LEASE_MS, OUTBOX_MAX_ATTEMPTS, releaseClaims, retryLater, sendClaimed, startOutboxWorker, type DrainOptions } from '../db/outbox.ts';

/** Attempts before an SMS is given up: OUTBOX_MAX_ATTEMPTS (about 27 h of retries, api/src/db/outbox.ts). */
export const MAX_ATTEMPTS = OUTBOX_MAX_ATTEMPTS;
/** set_password: a walk-in's first-password link (issue #18, api/src/features/walk-in). */
export type SmsKind = 'receipt' | 'status' | 'document_rejected' | 'set_password';

/**
 * E.164 form of a mobile number `phone` (default region ZA: "082 123 4567" → "+27821234567"), or null when it is not
 * a valid mobile number: a landline ("015 962 1234"), a share-call or toll-free number (0861, 0800) cannot receive an
 * SMS, so queueSms answers `no_phone` for it (libphonenumber-js mobile metadata).
 */
export function toE164(phone: string | null | undefined): string | null {
  if (!phone) return null;
  const p = parsePhoneNumberFromString(phone, 'ZA');
  if (!p || !p.isValid()) return null;
  // libphonenumber's ZA mobile pattern also takes 8-digit national numbers ("082123456"), a digit short of every
  // number the networks issue (ICASA numbering plan: 0 + 9 digits), so a mistyped number got SMS (issue #17 audit F4).
  if (p.countryCallingCode === '27' && p.nationalNumber.length !== 9) return null;
  return p.number;
}

/**
 * Queues one SMS to user `userId` inside `tx` (pass the transaction that makes the change the SMS reports).
 * `body` must already be a one-segment GSM-7 text: build it with receiptSms / statusSms / documentRejectedSms
 * from api/src/sms/sms-text.ts. Nothing is queued (result `{queued: false, reason}`) when the user has no
 * valid phone number, opted out in their profile, or their number replied STOP, nor (logged as an error,
 * reason `too_long`) when `body` is not one GSM-7 segment: an SMS must never make the change itself fail.
 *
 * For document reviews (#16): on a rejection call, in the review's transaction,
 *   `queueSms(tx, { userId, applicationId, kind: 'document_rejected', body: documentRejectedSms(id, label, reason, applicationLink(origin, id)) })`.
 */
export async function queueSms(tx: Db, msg: { userId: number; applicationId?: number | null; kind: SmsKind; body: string }): Promise<{ queued: true; id: number } | { queued: false; reason: 'no_phone' | 'opted_out' | 'too_long' }> {
  if (gsm7Length(msg.body) > SMS_MAX) {
    console.error(`[sms] not queued (${msg.kind}, application ${msg.applicationId ?? '-'}): longer than one GSM-7 segment; shorten PUBLIC_URL`);
    return { queued: false, reason: 'too_long' };
  }
  const [u] = await tx.select({ phone: users.phone, optOut: users.smsOptOutAt }).from(users).where(eq(users.id, msg.userId)).limit(1);
  const to = toE164(u?.phone);
  if (!to) return { queued: false, reason: 'no_phone' };
  if (u!.optOut) return { queued: false, reason: 'opted_out' };
  const row = rowsOf<{ id: number }>(await tx.execute(insertUnlessStopped(to, msg)))[0];
  if (!row) return { queued: false, reason: 'opted_out' };
  const id = Number(row.id);
  if (msg.kind === 'status' && msg.applicationId != null) await supersedeOlderStatus(tx, msg.applicationId, id);
  return { queued: true, id };
}

/**
 * The one statement that queues an SMS to `to` (E.164) unless that number replied STOP: INSERT … SELECT … WHERE NOT
 * EXISTS (sms_opt_outs) RETURNING id, so the STOP list costs no round trip of its own (a row back = queued, none =
 * opted out). Raw SQL on purpose: drizzle 0.45's `insert(smsOutbox).select(…)` always names every column of the table
 * (dialect buildInsertQuery) and checks at run time that the select gives all of them in table order, and a SELECT
 * cannot say DEFAULT, so the typed form would restate the serial id's nextval, status 'pending', attempts 0,
 * created_at now() and five NULLs by hand (and select FROM a dummy table): a copy of the schema's defaults that
 * could drift from it, with no more type checking, as every value would be an sql`` fragment.
 */
function insertUnlessStopped(to: string, msg: { userId: number; applicationId?: number | null; kind: SmsKind; body: string }): SQL {
  return sql`INSERT INTO sms_outbox ("to", body, kind, user_id, application_id)
    SELECT ${to}, ${msg.body}, ${msg.kind}, ${msg.userId}, ${msg.applicationId ?? null}
    WHERE NOT EXISTS (SELECT 1 FROM sms_opt_outs WHERE phone = ${to}) RETURNING id`;
}

/** How long (hours) a document-rejection SMS stands for a later "Documents Required" status SMS (documentSmsSince). */
export const DOCUMENT_SMS_COVERS_HOURS = 24;

/**
 * True when a document-rejection SMS for application `applicationId` was queued (and neither skipped nor finally
 * failed: that one reached nobody) within the last `hours` by the database's clock. The admin's usual order is: reject a document (that SMS names it, its reason and
 * the link), then set Documents Required; the status SMS would then tell the same phone the same thing again, at
 * the college's cost (admin-day audit: two SMS within 30 s). The status e-mail and notification still go. A pending
 * one counted here that later fails for good makes the worker queue the status SMS then (queueStoodForStatusSms).
 */
export async function documentSmsSince(tx: Db, applicationId: number, hours = DOCUMENT_SMS_COVERS_HOURS): Promise<boolean> {
  const [row] = await tx.select({ id: smsOutbox.id }).from(smsOutbox)
    .where(and(eq(smsOutbox.applicationId, applicationId), eq(smsOutbox.kind, 'document_rejected'), notInArray(smsOutbox.status, ['skipped', 'failed']),
      sql`${smsOutbox.createdAt} > now() - make_interval(hours => ${hours}::int)`)).limit(1);
  return row != null;
}

/** `last_error` of a status SMS that a newer status of the same application replaced before it was sent. */
export const SMS_SUPERSEDED = 'superseded by a newer status';

/**
 * Marks every still-pending status SMS of application `applicationId` older than row `newId` as skipped
 * (SMS_SUPERSEDED, body dropped): the applicant only needs the newest status, and an older one retried after a
 * gateway failure arrived after the newer one ("Under Review" after "Accepted", issue #17 audit F1). Its claim token
 * is cleared, so a node that has it in a claimed batch skips it (renewLease) and a failed send cannot put it back; one
 * whose send is already under way is marked sent when it completes, so the counts say what the phone got.
 */
async function supersedeOlderStatus(tx: Db, applicationId: number, newId: number): Promise<void> {
  await tx.execute(sql`UPDATE sms_outbox SET status = 'skipped', last_error = ${SMS_SUPERSEDED}, locked_until = NULL, claim_token = NULL, body = ${SMS_UNSENT_BODY}
    WHERE application_id = ${applicationId} AND kind = 'status' AND status = 'pending' AND id < ${newId}`);
}

/**
 * What a sent SMS row keeps of its body, as mail_outbox does (SENT_BODY, api/src/mail/outbox.ts): the number, kind,
 * times and status stay for the admin dashboard's counts and the data export, but the text goes once delivered. A
 * walk-in's set-password SMS holds a working `/r#token=…` link for 7 days (password_resets keeps only its hash) and a
 * rejection SMS an admin's reason (privacy audit F1; POPIA s14).
 */
export const SMS_SENT_BODY = '(delivered; body not kept)';
/** What a row that will never be sent keeps of its body: given up (failed for good) or skipped (opted out). */
export const SMS_UNSENT_BODY = '(not delivered; body not kept)';

/** SMS claimed per batch; a worker pass keeps claiming while a claim comes back full. */
export const SMS_BATCH = 50;

/**
 * The renewal's RETURNING for an SMS row: its id, and `blocked` when it must not be sent (its user opted out in the
 * profile, or its number replied STOP), read just before sending, so an opt-out that arrives mid-batch still wins.
 */
const BLOCKED = sql`id, (EXISTS (SELECT 1 FROM users u WHERE u.id = sms_outbox.user_id AND u.sms_opt_out_at IS NOT NULL)
  OR EXISTS (SELECT 1 FROM sms_opt_outs s WHERE s.phone = sms_outbox."to")) AS blocked,
  EXISTS (SELECT 1 FROM sms_outbox o WHERE o."to" = sms_outbox."to" AND o.status = 'pending' AND o.id < sms_outbox.id
    AND o.claim_token IS DISTINCT FROM sms_outbox.claim_token) AS behind`;

/**
 * The claim's condition keeping one phone's messages in queue order across nodes (issue #17 audit F1: 521 adjacent
 * inversions with two nodes draining 2 000 to one number): a row is held back while an older message to the same
 * number is pending and leased (being sent by a node) or waiting for its retry. Two claims racing (each reads the
 * other's rows as free) are caught when sending: a row is handed back while an older pending row to its number is
 * not in its own claim (`behind` in BLOCKED).
 */
const IN_ORDER = sql`NOT EXISTS (SELECT 1 FROM sms_outbox o WHERE o."to" = sms_outbox."to" AND o.status = 'pending' AND o.id < sms_outbox.id AND o.locked_until >= now())`;

/** This node's pause after gateway failures (per driver object): until when (epoch ms) and how many failures in a row. */
interface GatewayPause { until: number; failures: number }
const pauses = new WeakMap<SmsDriver, GatewayPause>();

/** First pause after a gateway failure, in ms; doubled per further failure in a row, at most SMS_PAUSE_MAX_MS. */
export const SMS_PAUSE_MIN_MS = 10_000;
/** Longest pause after gateway failures without a longer Retry-After, in ms (1 h, as backoffSeconds). */
export const SMS_PAUSE_MAX_MS = 3_600_000;

/**
 * Until when (epoch ms) this node sends no SMS through `driver` after gateway failures, or null when it is not
 * paused. The pause is per node (per driver object), not shared: with N nodes the gateway sees up to N probes per
 * pause, which keeps the outbox shared-nothing.
 */
export function smsPausedUntil(driver: SmsDriver): number | null {
  const p = pauses.get(driver);
  return p && p.until > Date.now() ? p.until : null;
}

/**
 * Ends a pause of `driver` now (tests, standing in for the time passing). `forget` (default true) also forgets the
 * failures in a row, as a node's restart does; false keeps them, so the next failure pauses twice as long.
 */
export function resumeSms(driver: SmsDriver, forget = true): void {
  const p = pauses.get(driver);
  if (!p) return;
  if (forget) pauses.delete(driver);
  else p.until = 0;
}

/** What a driver error says: SmsSendError's fields (sms-drivers.ts), read loosely so any thrown value works. */
function failureOf(err: unknown): { permanent: boolean; gateway: boolean; retryAfterMs: number | null; status: number | null } {
  const e = (err ?? {}) as { permanent?: unknown; gateway?: unknown; retryAfterMs?: unknown; status?: unknown };
  const permanent = e.permanent === true;
  return {
    permanent,
    gateway: typeof e.gateway === 'boolean' ? e.gateway : !permanent,
    retryAfterMs: typeof e.retryAfterMs === 'number' && e.retryAfterMs > 0 ? e.retryAfterMs : null,
    status: typeof e.status === 'number' ? e.status : null,
  };
}

/** What one batch did: `claimed` rows were taken from the queue (at most the batch size), `sent` of them were delivered. */
export interface SmsBatchResult { sent: number; claimed: number }

/**
 * Options of an SMS drain: DrainOptions, and `origin`, the site's origin for the links of SMS the worker queues itself
 * (siteOrigin(config), api/src/mail/links.ts; the same origin a status change's SMS links to). Without it, the status SMS
 * a finally failed document-rejection SMS stood for (queueStoodForStatusSms) cannot be queued and an error is logged.
 */
export type SmsDrainOptions = DrainOptions & { origin?: string };

/**
 * Sends up to `batch` due messages once, oldest first, each under its own lease (sendClaimed, api/src/db/outbox.ts): a
 * message whose lease another node took over while this batch was slow (50 messages at up to 10 s each) is skipped,
 * not sent twice, and `opts.isStopped()` is checked before each message (the unsent ones are released for another
 * node at once). `opts.leaseMs` defaults to OUTBOX_LEASE_MS (60 s). An opted-out message is marked skipped; a failed
 * send is retried with back-off, or failed for good (permanent refusal, MAX_ATTEMPTS); a document-rejection SMS failed
 * for good may queue the status SMS it stood for (queueStoodForStatusSms, links on `opts.origin`). Resolves to how many
 * messages were claimed and how many of them were sent; rejects on database errors.
 */
export async function drainSmsBatch(db: Db, driver: SmsDriver, batch = SMS_BATCH, opts: SmsDrainOptions = {}): Promise<SmsBatchResult> {
  if (opts.isStopped?.() || smsPausedUntil(driver)) return { sent: 0, claimed: 0 };
  const rows = await claimDue<SmsRow>(
    db, 'sms_outbox', sql`id, "to", body, kind, user_id AS "userId", application_id AS "applicationId", attempts`, batch, { leaseMs: opts.leaseMs, where: IN_ORDER });
  // After a gateway failure the rest of the claim is handed back (no attempt counted) instead of failing one by one.
  const state = { halted: false };
  const isStopped = () => state.halted || Boolean(opts.isStopped?.());
  if (driver.sendMany && rows.length > 1) return { sent: await sendInRequests(db, driver, rows, { ...opts, isStopped }, state), claimed: rows.length };
  const sent = await sendClaimed(db, 'sms_outbox', rows, { ...opts, isStopped, renewReturning: BLOCKED }, async (row, renewed) => {
    if (await setAside(db, row, renewed)) return false;
    return sendOne(db, driver, row, rows.length - rows.indexOf(row) - 1, state, opts.origin);
  });
  return { sent, claimed: rows.length };
}

/** A claimed sms_outbox row as drainSmsBatch reads it. */
type SmsRow = { id: number; to: string; body: string; kind: string; userId: number | null; applicationId: number | null; attempts: number; claimToken: string };

/** Messages per BulkSMS request (sendMany); BulkSMS takes an array of messages per POST. */
export const SMS_PER_REQUEST = 50;

/**
 * Handles a claimed row that must not be sent now, from its renewal's BLOCKED columns: opted out → skipped; behind an
 * older pending message to its number that another claim holds → handed back uncounted. Resolves to true when set aside.
 */
async function setAside(db: Db, row: SmsRow, renewed: Record<string, unknown>): Promise<boolean> {
  if (renewed.blocked === true || renewed.blocked === 't') {
    await db.execute(sql`UPDATE sms_outbox SET status = 'skipped', last_error = 'opted out', locked_until = NULL, claim_token = NULL, body = ${SMS_UNSENT_BODY} WHERE id = ${row.id}`);
    return true;
  }
  if (renewed.behind === true || renewed.behind === 't') {
    await releaseClaims(db, 'sms_outbox', [row]);
    return true;
  }
  return false;
}

/** Records row `row` as delivered with the gateway's id; the body is dropped (SMS_SENT_BODY). */
async function markSent(db: Db, row: SmsRow, providerId: string): Promise<void> {
  await db.execute(sql`UPDATE sms_outbox SET status = 'sent', sent_at = now(), locked_until = NULL, claim_token = NULL, provider_id = ${providerId}, last_error = NULL, body = ${SMS_SENT_BODY} WHERE id = ${row.id}`);
}

/**
 * Records a failed send of `row` that is not a gateway pause: retried with back-off, or failed for good (permanent,
 * MAX_ATTEMPTS) with its body dropped. A document-rejection SMS failed for good queues, in the same transaction, the
 * status SMS it stood for when that is still owed (queueStoodForStatusSms, links on `origin`); only the node whose claim
 * marks the row failed does. A gateway failure on the last attempt also halts the claim (`state`).
 */
async function recordFailure(db: Db, row: SmsRow, err: unknown, state: { halted: boolean }, origin: string | undefined): Promise<void> {
  const f = failureOf(err);
  const final = f.permanent || row.attempts >= MAX_ATTEMPTS;
  if (!final) await retryLater(db, 'sms_outbox', row, false, err);
  else {
    await db.transaction(async (tx) => {
      if (!await retryLater(tx, 'sms_outbox', row, true, err)) return;
      await tx.execute(sql`UPDATE sms_outbox SET body = ${SMS_UNSENT_BODY} WHERE id = ${row.id}`);
      if (row.kind === 'document_rejected' && row.applicationId != null) await queueStoodForStatusSms(tx, row.applicationId, origin);
    });
  }
  if (f.gateway) state.halted = true;
}

/**
 * Queues, in `tx`, the "Documents Required" status SMS of application `applicationId` that a document-rejection SMS
 * stood for (documentSmsSince) and that will now never arrive (review MEDIUM: during a gateway outage the rejection SMS
 * was still pending when the status changed, then failed for good, and the phone got neither). Call it in the
 * transaction that marks a document_rejected row failed for good. The application row is locked first (as
 * setApplicationStatus does), so a status change and this check see each other: whichever commits second queues the
 * status SMS. It is queued when all of these hold:
 *   - the application is still Documents Required;
 *   - a rejection SMS of it was queued within DOCUMENT_SMS_COVERS_HOURS before its latest change to Documents Required
 *     (from application_status_history), and no status SMS of it was queued after the first such rejection SMS (that
 *     change sent none of its own, and no other pass queued it yet: exactly once);
 *   - no rejection SMS of it from that window on is pending (it may still arrive; its own final failure checks again)
 *     or sent (the phone was told).
 * The body is statusSms with applicationLink(`origin`), as the status change builds it; without `origin` nothing is
 * queued and an error is logged. Resolves to queueSms's answer, or null when nothing was owed.
 */
async function queueStoodForStatusSms(tx: Db, applicationId: number, origin: string | undefined): Promise<Awaited<ReturnType<typeof queueSms>> | null> {
  const locked = await tx.execute(sql`SELECT user_id AS "userId", status FROM applications WHERE id = ${applicationId} FOR UPDATE`);
  const app = rowsOf<{ userId: number; status: string }>(locked)[0];
  if (!app || app.status !== 'documents_required') return null;
  const hours = sql`make_interval(hours => ${DOCUMENT_SMS_COVERS_HOURS}::int)`;
  const owed = await tx.execute(sql`
    WITH e AS (
      SELECT created_at FROM application_status_history
      WHERE application_id = ${applicationId} AND to_status = 'documents_required' AND from_status IS DISTINCT FROM 'documents_required'
      ORDER BY id DESC LIMIT 1),
    c AS (
      SELECT min(o.id) AS first FROM sms_outbox o, e
      WHERE o.application_id = ${applicationId} AND o.kind = 'document_rejected' AND o.created_at > e.created_at - ${hours} AND o.created_at < e.created_at)
    SELECT 1 AS owed FROM e, c
    WHERE c.first IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM sms_outbox s WHERE s.application_id = ${applicationId} AND s.kind = 'status' AND s.id > c.first)
      AND NOT EXISTS (SELECT 1 FROM sms_outbox r WHERE r.application_id = ${applicationId} AND r.kind = 'document_rejected'
        AND r.status IN ('pending', 'sent') AND r.created_at > e.created_at - ${hours})`);
  if (!rowsOf(owed).length) return null;
  if (!origin) {
    console.error(`[sms] the Documents Required SMS of application ${applicationId} is owed (its rejection SMS failed for good) but not queued: the SMS worker was started without an origin`);
    return null;
  }
  return queueSms(tx, { userId: app.userId, applicationId, kind: 'status', body: statusSms(applicationId, 'documents_required', applicationLink(origin, applicationId)) });
}

/**
 * Sends one claimed row through `driver.send` and records the outcome; on a gateway failure pauses this node
 * (pauseForGateway; `after` rows of the claim follow it and are handed back) and sets `state.halted`. Resolves to
 * true when sent.
 */
async function sendOne(db: Db, driver: SmsDriver, row: SmsRow, after: number, state: { halted: boolean }, origin: string | undefined): Promise<boolean> {
  let providerId: string;
  try {
    providerId = await driver.send({ to: row.to, body: row.body, kind: row.kind, applicationId: row.applicationId, queuedId: row.id });
  } catch (err) {
    const f = failureOf(err);
    if (f.gateway && !f.permanent && row.attempts < MAX_ATTEMPTS) {
      state.halted = true;
      await pauseForGateway(db, driver, row, f, err, after);
    } else {
      await recordFailure(db, row, err, state, origin);
    }
    return false;
  }
  pauses.delete(driver);
  await markSent(db, row, providerId);
  return true;
}

/**
 * Sends claimed `rows` through `driver.sendMany`, up to SMS_PER_REQUEST per request and at most one per number in a
 * request (a phone's messages stay in order), each request's rows under their leases: renewed in one statement just
 * before (BLOCKED: opted out, behind) and every third of the lease while the request runs. A whole-request gateway
 * failure pauses this node (the first row's attempt counted, the others handed back); a whole-request permanent
 * refusal (e.g. 400 for one bad number) falls back to one request per message; a message refused alone (status
 * FAILED) is failed for good. Rows not started when the claim halts or `opts.isStopped()` are handed back. Resolves
 * to how many were sent (issue #17 audit: one message per POST made one node send 181 a minute through a 300 ms gateway).
 */
async function sendInRequests(db: Db, driver: SmsDriver, rows: SmsRow[], opts: SmsDrainOptions & { isStopped: () => boolean }, state: { halted: boolean }): Promise<number> {
  const leaseMs = opts.leaseMs ?? OUTBOX_LEASE_MS;
  const token = rows[0]!.claimToken;
  const renew = async (chunk: SmsRow[], returning: SQL) => {
    const res = await db.execute(sql`UPDATE sms_outbox SET locked_until = now() + ${Math.max(1, Math.round(leaseMs))}::integer * interval '1 millisecond'
      WHERE id IN (${sql.join(chunk.map((r) => sql`${r.id}`), sql`, `)}) AND claim_token = ${token} AND status = 'pending' RETURNING ${returning}`);
    return new Map(rowsOf(res).map((r) => [Number(r.id), r]));
  };
  let next = 0;
  let sent = 0;
  try {
    while (next < rows.length && !opts.isStopped()) {
      const chunk: SmsRow[] = [];
      const phones = new Set<string>();
      while (next < rows.length && chunk.length < SMS_PER_REQUEST && !phones.has(rows[next]!.to)) { phones.add(rows[next]!.to); chunk.push(rows[next++]!); }
      const renewed = await renew(chunk, BLOCKED);
      const ready: SmsRow[] = [];
      for (const row of chunk) {
        const r = renewed.get(row.id);
        if (r && !(await setAside(db, row, r))) ready.push(row);
      }
      if (!ready.length) continue;
      const heartbeat = setInterval(() => {
        renew(ready, sql`id`).catch((err) => console.error(`[sms_outbox] lease renewal failed: ${describeSendError(err)}`));
      }, Math.max(50, Math.floor(leaseMs / 3)));
      heartbeat.unref?.();
      let results;
      try {
        results = await driver.sendMany!(ready.map((row) => ({ to: row.to, body: row.body, kind: row.kind, applicationId: row.applicationId, queuedId: row.id })));
      } catch (err) {
        const f = failureOf(err);
        if (f.gateway && !f.permanent) {
          const [first, ...rest] = ready;
          if (first!.attempts < MAX_ATTEMPTS) {
            state.halted = true;
            await releaseClaims(db, 'sms_outbox', rest);
            await pauseForGateway(db, driver, first!, f, err, rest.length + rows.length - next);
          } else {
            await recordFailure(db, first!, err, state, opts.origin);
            await releaseClaims(db, 'sms_outbox', rest);
          }
          continue;
        }
        for (const [i, row] of ready.entries()) {
          if (state.halted || opts.isStopped()) { await releaseClaims(db, 'sms_outbox', ready.slice(i)); break; }
          if (await sendOne(db, driver, row, ready.length - i - 1 + rows.length - next, state, opts.origin)) sent++;
        }
        continue;
      } finally { clearInterval(heartbeat); }
      pauses.delete(driver);
      for (const [i, row] of ready.entries()) {
        const r = results[i]!;
        if ('id' in r) { await markSent(db, row, r.id); sent++; } else await recordFailure(db, row, r.error, { halted: false }, opts.origin);
      }
    }
  } finally {
    if (next < rows.length) {
      await releaseClaims(db, 'sms_outbox', rows.slice(next)).catch((err) => console.error(`[sms_outbox] releasing unsent rows failed: ${describeSendError(err)}`));
    }
  }
  return sent;
}

/**
 * A gateway failure (401, 403, 429, 5xx, network, timeout: SmsSendError.gateway) while sending claimed row `row`:
 * pauses this node's sending through `driver` for the gateway's Retry-After or else SMS_PAUSE_MIN_MS doubled per
 * failure in a row (at most SMS_PAUSE_MAX_MS), puts the row back to be retried after the pause (its attempt counted;
 * later rows of the claim are handed back uncounted by the caller), and logs one line per pause: for 401/403 one
 * naming SMS_USERNAME / SMS_PASSWORD (never their values). Before, a gateway down for 45 s with 2 000 queued meant
 * 5 977 calls and as many log lines, 429's Retry-After was ignored, and bad credentials were tried 72 000 times.
 */
async function pauseForGateway(db: Db, driver: SmsDriver, row: { id: number; attempts: number; claimToken: string },
  f: ReturnType<typeof failureOf>, err: unknown, handedBack: number): Promise<void> {
  const failures = (pauses.get(driver)?.failures ?? 0) + 1;
  const backoffMs = Math.min(SMS_PAUSE_MAX_MS, SMS_PAUSE_MIN_MS * 2 ** (failures - 1));
  const pauseMs = Math.max(backoffMs, f.retryAfterMs ?? 0);
  pauses.set(driver, { until: Date.now() + pauseMs, failures });
  const waitMs = Math.max(pauseMs, backoffSeconds(row.attempts) * 1000);
  await db.execute(sql`UPDATE sms_outbox SET status = 'pending', last_error = ${String((err as Error)?.message ?? err).slice(0, 500)},
    locked_until = now() + ${Math.round(waitMs)}::integer * interval '1 millisecond', claim_token = NULL
    WHERE id = ${row.id} AND claim_token = ${row.claimToken}`);
  const why = describeSendError(err);
  const secs = Math.round(pauseMs / 1000);
  const tail = `sending paused on this node for ${secs} s${f.retryAfterMs ? ' (the gateway\'s Retry-After)' : ''}; ${handedBack} claimed message(s) handed back, row ${row.id} retried after the pause (attempt ${row.attempts} of ${MAX_ATTEMPTS})`;
  if (f.status === 401 || f.status === 403) {
    console.error(`[sms] the SMS gateway refused our account (${why}): check SMS_USERNAME and SMS_PASSWORD (BulkSMS API token id and secret) and the account's credit; ${tail}`);
  } else {
    console.warn(`[sms] SMS gateway unavailable (${why}): ${tail}`);
  }
}

/**
 * drainSmsBatch, resolving to how many messages were sent only (a failed, opted-out, skipped or released message is
 * not counted). Rejects on database errors.
 */
export async function drainSmsOutbox(db: Db, driver: SmsDriver, batch = SMS_BATCH, opts: SmsDrainOptions = {}): Promise<number> {
  return (await drainSmsBatch(db, driver, batch, opts)).sent;
}

/**
 * One worker pass: drainSmsBatch batch after batch while the batch claimed was full and `isStopped()` is false (also
 * checked before every message). A full claim goes on even when some of its messages failed, were opted out or were
 * taken over by another node, so they do not leave the rest of a backlog for later ticks. `opts.leaseMs` and
 * `opts.origin` as in drainSmsOutbox. Resolves to how many were sent; rejects on database errors.
 */
export async function drainSmsOutboxPass(db: Db, driver: SmsDriver, isStopped: () => boolean = () => false, opts: { leaseMs?: number; origin?: string } = {}): Promise<number> {
  return drainWhileFull(() => drainSmsBatch(db, driver, SMS_BATCH, { leaseMs: opts.leaseMs, origin: opts.origin, isStopped }), SMS_BATCH, isStopped);
}

/**
 * Runs drainSmsOutboxPass every `intervalMs` ms (after the last pass ended); `opts.leaseMs` and `opts.origin` as in
 * drainSmsOutbox (the server passes siteOrigin(config)). Returns a stop function that waits for the message being sent,
 * if any, and releases the rest of its batch to other nodes.
 */
export function startSmsWorker(db: Db, driver: SmsDriver, intervalMs = 1000, opts: { leaseMs?: number; origin?: string } = {}): () => Promise<void> {
  return startOutboxWorker('sms', (isStopped) => drainSmsOutboxPass(db, driver, isStopped, opts), intervalMs);
}

/** Admin dashboard figures (issue #17 point 3): messages sent, failed for good, waiting; people opted out (profile + STOP replies). */
export async function smsStats(db: Db): Promise<{ sent: number; failed: number; pending: number; optedOut: number }> {
  const res = await db.execute(sql`SELECT
    (SELECT count(*) FROM sms_outbox WHERE status = 'sent') AS sent,
    (SELECT count(*) FROM sms_outbox WHERE status = 'failed') AS failed,
    (SELECT count(*) FROM sms_outbox WHERE status = 'pending') AS pending`);
  const r = rowsOf(res)[0]!;
  return { sent: Number(r.sent), failed: Number(r.failed), pending: Number(r.pending), optedOut: await optedOutUsers(db) };
}

/**
 * Applicants who get no SMS because they opted out: distinct users whose profile opt-out is set or whose number
 * (E.164, toE164) replied STOP. A STOP from a number no account has counts nobody, and a person who did both counts
 * once (issue #17 audit F5: the two counts were added). Accounts' numbers are stored as typed, so candidates are
 * matched on their last 9 digits in SQL and confirmed with toE164.
 */
async function optedOutUsers(db: Db): Promise<number> {
  const res = await db.execute(sql`SELECT u.id, u.phone, (u.sms_opt_out_at IS NOT NULL) AS "profile", s.phone AS "stopped"
    FROM users u LEFT JOIN sms_opt_outs s ON u.phone IS NOT NULL AND right(s.phone, 9) = right(regexp_replace(u.phone, '[^0-9]', '', 'g'), 9)
    WHERE u.sms_opt_out_at IS NOT NULL OR s.phone IS NOT NULL`);
  const ids = new Set<number>();
  for (const r of rowsOf<{ id: number; phone: string | null; profile: boolean | string; stopped: string | null }>(res)) {
    if (r.profile === true || r.profile === 't' || (r.stopped && toE164(r.phone) === r.stopped)) ids.add(Number(r.id));
  }
  return ids.size;
}

/**
 * Opt-out keywords (WASPA code of conduct: STOP must work; the others are common variants), matched against the
 * first word of a reply reduced to its letters in upper case (keyword), so "Stop." "stop!" " Stop " and "OPT-OUT"
 * all count, while "Stopping by tomorrow" or "Please stop" do not.
 */
const STOP_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT']);
const START_WORDS = new Set(['START', 'UNSTOP', 'YES']);

/** The first word of `body`, letters only, upper case: "Stop." → "STOP", "opt-out" → "OPTOUT" (phones add a full stop). */
function keyword(body: string): string {
  return (body.trim().split(/\s+/)[0] ?? '').replace(/\P{L}/gu, '').toUpperCase();
}

/** Applies one inbound message: STOP-like words opt the sender out, START-like words opt them back in (see keyword). */
export async function handleInbound(db: Db, from: string, body: string): Promise<'opted_out' | 'opted_in' | 'ignored'> {
  const phone = toE164(from.startsWith('+') || from.startsWith('0') ? from : `+${from}`);
  if (!phone) return 'ignored';
  const word = keyword(body);
  if (STOP_WORDS.has(word)) {
    await db.insert(smsOptOuts).values({ phone, source: word }).onConflictDoNothing();
    return 'opted_out';
  }
  if (START_WORDS.has(word)) {
    await db.delete(smsOptOuts).where(eq(smsOptOuts.phone, phone));
    return 'opted_in';
  }
  return 'ignored';
}

/** The user's SMS preference: their number in E.164 (null if none valid) and whether SMS are off (profile or STOP). */
export async function smsPreference(db: Db, userId: number): Promise<{ phone: string | null; optedOut: boolean; stoppedByReply: boolean }> {
  const [u] = await db.select({ phone: users.phone, optOut: users.smsOptOutAt }).from(users).where(eq(users.id, userId)).limit(1);
  const phone = toE164(u?.phone);
  const stopped = phone ? (await db.select().from(smsOptOuts).where(eq(smsOptOuts.phone, phone)).limit(1)).length > 0 : false;
  return { phone, optedOut: Boolean(u?.optOut) || stopped, stoppedByReply: stopped };
}

/**
 * Turns SMS off or on from the profile. A STOP reply is the number's own choice, made from the phone itself; the
 * profile cannot lift it, because a phone number on an account is not verified and any account may give the same
 * one (only a START-like reply does, handleInbound; WASPA code of conduct). Returns 'stopped_by_reply' and changes
 * nothing when SMS are asked for on a number that replied STOP; 'ok' otherwise.
 */
export async function setSmsOptOut(db: Db, userId: number, optOut: boolean): Promise<'ok' | 'stopped_by_reply'> {
  if (!optOut && (await smsPreference(db, userId)).stoppedByReply) return 'stopped_by_reply';
  await db.update(users).set({ smsOptOutAt: optOut ? new Date() : null }).where(eq(users.id, userId));
  return 'ok';
}
