/**
 * What the mail and SMS transactional outboxes share (DESIGN §4; api/src/mail/outbox.ts, api/src/sms/sms-outbox.ts):
 * claiming due rows with a lease and FOR UPDATE SKIP LOCKED (several nodes never claim one row twice), holding that
 * lease row by row while sending, putting a failed row back with exponential back-off, and the polling worker. Each
 * outbox keeps its own sending step.
 *
 * Leases (operations audit): one claim takes a whole batch for OUTBOX_LEASE_MS, but a batch can take longer than that
 * (20 mails through an SMTP relay at 4 s each = 80 s), and a row whose lease ran out is claimed again by another node.
 * So every claim writes a random `claim_token`, and sendClaimed renews each row's lease, only while the token is still
 * ours, just before sending it, and keeps renewing it while the send runs: a row another node has claimed since is
 * skipped, not sent twice. When the worker is stopped, the rows not yet sent are released (lease and token cleared)
 * so another node sends them at once. A node that dies mid-send still leaves its row to be sent again after the
 * lease (at least once across a crash).
 */
import crypto from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from './client.ts';
import { rowsOf } from './rows.ts';
import { describeErrorForLog, isDatabaseError } from '../http/error-log.ts';

/** The outbox tables; a closed list, because the name is written into SQL as an identifier. */
export type OutboxTable = 'mail_outbox' | 'sms_outbox';

/** How long a claim holds a row before another node may claim it, in milliseconds (renewed before and during each send). */
export const OUTBOX_LEASE_MS = 60_000;

/** A claimed row: its id, the attempt number this claim counted, and the claim's token (a UUID). */
export interface ClaimedRow { id: number; attempts: number; claimToken: string }

/** Options of a drain: `leaseMs` (default OUTBOX_LEASE_MS), `isStopped` (checked before each row; default never). */
export interface DrainOptions { leaseMs?: number; isStopped?: () => boolean }

/** `now() + leaseMs` as SQL (leaseMs a whole number of milliseconds). */
const leaseEnd = (leaseMs: number): SQL => sql`now() + ${Math.max(1, Math.round(leaseMs))}::integer * interval '1 millisecond'`;

/** Back-off before attempt `attempts + 1`, in seconds: 5·2^attempts, at most 3600 (1 h). */
export function backoffSeconds(attempts: number): number {
  return Math.min(3600, 2 ** attempts * 5);
}

/**
 * Attempts before a mail or SMS is given up (status `failed`, an error line in the log). With backoffSeconds
 * (10 s, 20 s … 2 560 s, then 1 h each) 36 attempts span about 27 h (outboxRetryWindowSeconds), so a mail relay or
 * SMS gateway that is down for a day loses nothing (operations audit: 8 attempts gave up after about 21 minutes).
 */
export const OUTBOX_MAX_ATTEMPTS = 36;

/** Seconds between the first and the last of `maxAttempts` attempts (the sum of the back-offs between them). */
export function outboxRetryWindowSeconds(maxAttempts = OUTBOX_MAX_ATTEMPTS): number {
  let total = 0;
  for (let a = 1; a < maxAttempts; a++) total += backoffSeconds(a);
  return total;
}

/** E-mail addresses and phone numbers (7+ digits, spaces allowed) inside a message, for redactPersonal. */
const PERSONAL = [/[^\s<>"'(),;:[\]]+@[^\s<>"'(),;:[\]]+/g, /\+?\d[\d ]{6,}\d/g] as const;

/**
 * One line about a failed send, safe for the log (ASVS 5.0 V16.2.5): a database error (drizzle's wrapper with its
 * `query`, or a driver error by error-log's isDatabaseError) as describeErrorForLog's first line (no parameters);
 * otherwise the error's name, `code`, SMTP `responseCode` and message with e-mail addresses and phone numbers replaced
 * by `<address>` / `<number>` (an SMTP refusal often quotes the recipient), at most 300 characters. Never the
 * recipient, the subject or the body.
 */
export function describeSendError(err: unknown): string {
  const e = err as any;
  if (e && typeof e === 'object' && (typeof e.query === 'string' || isDatabaseError(e))) {
    return describeErrorForLog(err).split('\n')[0]!;
  }
  const head = [e?.name ?? 'Error', typeof e?.code === 'string' ? e.code : '', e?.responseCode ? String(e.responseCode) : ''].filter(Boolean).join(' ');
  const message = String(e?.message ?? err).replace(PERSONAL[0], '<address>').replace(PERSONAL[1], '<number>').replace(/\s+/g, ' ').trim().slice(0, 300);
  return `${head}: ${message}`;
}

/** The log prefix of an outbox: `[mail]` or `[sms]`. */
const label = (table: OutboxTable) => (table === 'mail_outbox' ? 'mail' : 'sms');

/**
 * Claims up to `batch` due rows of `table` (pending, lease expired or none) for `opts.leaseMs` ms (default
 * OUTBOX_LEASE_MS) under one new random claim token, and counts the attempt. `returning` lists the columns to read (it
 * must include `id` and `attempts`, and `priority` with `byPriority`); each row also gets `claimToken`. Queue order is
 * lowest id first, or with `byPriority` (mail_outbox) lowest priority, then lowest id; the rows resolve in that order
 * (UPDATE … RETURNING gives no set order, and a person must read "received" before "under review"). `opts.where`, an
 * extra SQL condition on the candidate rows (unqualified columns are the table's), lets an outbox hold some rows back
 * (sms_outbox: a row behind an older message to the same phone that is leased or waiting to be retried); mail passes
 * none. Rejects on database errors.
 */
export async function claimDue<T extends { id: number; attempts: number; priority?: number }>(db: DbOrTx, table: OutboxTable, returning: SQL, batch: number, opts: { byPriority?: boolean; leaseMs?: number; where?: SQL } = {}): Promise<(T & { claimToken: string })[]> {
  const t = sql.identifier(table);
  const also = opts.where ? sql` AND (${opts.where})` : sql``;
  const order = opts.byPriority ? sql`priority, id` : sql`id`;
  const token = crypto.randomUUID();
  const claimed = await db.execute(sql`
    UPDATE ${t} SET locked_until = ${leaseEnd(opts.leaseMs ?? OUTBOX_LEASE_MS)}, claim_token = ${token}, attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM ${t}
      WHERE status = 'pending' AND (locked_until IS NULL OR locked_until < now())${also}
      ORDER BY ${order} LIMIT ${batch} FOR UPDATE SKIP LOCKED)
    RETURNING ${returning}`);
  const rows = rowsOf<T>(claimed).map((r) => ({ ...r, claimToken: token }));
  return rows.sort((a, b) => (opts.byPriority ? Number(a.priority ?? 0) - Number(b.priority ?? 0) : 0) || Number(a.id) - Number(b.id));
}

/**
 * Renews the lease of claimed row `row` for `leaseMs` ms if it is still pending under our claim token (even when the
 * lease itself has run out: nobody else has claimed it since). Resolves to the row's `returning` columns (`id` alone by
 * default), or null when the row is no longer ours: another node claimed it, or it was sent, failed or released.
 * Rejects on database errors.
 */
export async function renewLease(db: DbOrTx, table: OutboxTable, row: Pick<ClaimedRow, 'id' | 'claimToken'>, leaseMs: number, returning: SQL = sql`id`): Promise<Record<string, unknown> | null> {
  const t = sql.identifier(table);
  const res = await db.execute(sql`
    UPDATE ${t} SET locked_until = ${leaseEnd(leaseMs)}
    WHERE id = ${row.id} AND claim_token = ${row.claimToken} AND status = 'pending'
    RETURNING ${returning}`);
  return rowsOf(res)[0] ?? null;
}

/**
 * Gives claimed rows back without sending them (a worker that stops mid-batch): clears their lease and token and
 * takes back the attempt their claim counted, for the rows still pending under our token. Resolves to how many were
 * released. Rejects on database errors.
 */
export async function releaseClaims(db: DbOrTx, table: OutboxTable, rows: Pick<ClaimedRow, 'id' | 'claimToken'>[]): Promise<number> {
  let released = 0;
  for (const token of new Set(rows.map((r) => r.claimToken))) {
    const ids = rows.filter((r) => r.claimToken === token).map((r) => sql`${r.id}`);
    const res = await db.execute(sql`
      UPDATE ${sql.identifier(table)} SET locked_until = NULL, claim_token = NULL, attempts = greatest(attempts - 1, 0)
      WHERE id IN (${sql.join(ids, sql`, `)}) AND claim_token = ${token} AND status = 'pending'
      RETURNING id`);
    released += rowsOf(res).length;
  }
  return released;
}

/**
 * Records a failed send of row `id` (attempt number `attempts`): `failed` for good, else pending again after
 * backoffSeconds(attempts), with the claim token cleared. With `claimToken`, only while the row is still ours (a row
 * another node has claimed since is left to it). The error text is kept to 500 characters in `last_error`. Logs a
 * warning for a retry and an error line for a row given up, only when the row was updated (row id, attempt,
 * describeSendError; never the recipient or the body), so an operator sees mail that cannot be sent (operations audit: it was dropped silently). Rejects on
 * database errors; resolves to whether the row was updated (false: another node's since, not ours to record).
 */
export async function retryLater(db: DbOrTx, table: OutboxTable, row: { id: number; attempts: number; claimToken?: string }, failed: boolean, err: unknown): Promise<boolean> {
  const message = String((err as Error)?.message ?? err).slice(0, 500);
  const ours = row.claimToken ? sql` AND claim_token = ${row.claimToken}` : sql``;
  const wait = backoffSeconds(row.attempts);
  const res = await db.execute(sql`UPDATE ${sql.identifier(table)} SET status = ${failed ? 'failed' : 'pending'}, last_error = ${message},
    locked_until = now() + (${wait} || ' seconds')::interval, claim_token = NULL WHERE id = ${row.id}${ours} RETURNING id`);
  const updated = rowsOf(res).length > 0;
  // Another node's row since: its claim records its own outcome, so this one says nothing (no false GIVEN UP).
  if (!updated) return false;
  const why = describeSendError(err);
  if (failed) {
    console.error(`[${label(table)}] GIVEN UP: ${table} row ${row.id} marked failed after attempt ${row.attempts}: ${why}`);
  } else {
    console.warn(`[${label(table)}] send of ${table} row ${row.id} failed (attempt ${row.attempts} of ${OUTBOX_MAX_ATTEMPTS}), next try in ${wait} s: ${why}`);
  }
  return updated;
}

/** One outbox's backlog for the health body: rows waiting, age in seconds of the oldest waiting (null if none), rows given up. */
export interface OutboxBacklog { pending: number; oldestPendingSeconds: number | null; failed: number }

/**
 * The mail and SMS backlogs (health body, operations audit): pending rows, the age of the oldest pending row in whole
 * seconds (from `created_at`), and failed rows (given up). Two small queries on the status indexes. Rejects on
 * database errors.
 */
export async function outboxBacklog(db: DbOrTx): Promise<{ mail: OutboxBacklog; sms: OutboxBacklog }> {
  const one = async (table: OutboxTable): Promise<OutboxBacklog> => {
    const t = sql.identifier(table);
    const res = await db.execute(sql`SELECT
      (SELECT count(*) FROM ${t} WHERE status = 'pending') AS pending,
      (SELECT floor(extract(epoch FROM now() - min(created_at))) FROM ${t} WHERE status = 'pending') AS oldest,
      (SELECT count(*) FROM ${t} WHERE status = 'failed') AS failed`);
    const r = rowsOf(res)[0] ?? {};
    return { pending: Number(r.pending ?? 0), oldestPendingSeconds: r.oldest == null ? null : Math.max(0, Number(r.oldest)), failed: Number(r.failed ?? 0) };
  };
  return { mail: await one('mail_outbox'), sms: await one('sms_outbox') };
}

/**
 * Sends claimed `rows` one by one, in their order, under their leases: before each row, stops if `opts.isStopped()`
 * (the rows not yet sent are released, releaseClaims), then renews the row's lease (renewLease with `renewReturning`)
 * and skips the row when it is no longer ours; `send(row, renewed)` runs while the lease is renewed every third of
 * `opts.leaseMs` (default OUTBOX_LEASE_MS). `send` records the outcome itself (sent, retry) and resolves to true when
 * the row counts as sent. If a database error ends the batch, the rows not yet started are released (best effort) and
 * the error rejects. Resolves to how many were sent.
 */
export async function sendClaimed<R extends ClaimedRow>(db: DbOrTx, table: OutboxTable, rows: R[], opts: DrainOptions & { renewReturning?: SQL },
  send: (row: R, renewed: Record<string, unknown>) => Promise<boolean>): Promise<number> {
  const leaseMs = opts.leaseMs ?? OUTBOX_LEASE_MS;
  let next = 0; // rows[next…] are not started: those are released if the batch ends early
  let sent = 0;
  try {
    while (next < rows.length && !opts.isStopped?.()) {
      const row = rows[next]!;
      const renewed = await renewLease(db, table, row, leaseMs, opts.renewReturning);
      next++;
      if (!renewed) continue; // claimed by another node since (our lease ran out), or no longer pending
      const heartbeat = setInterval(() => {
        renewLease(db, table, row, leaseMs).catch((err) => console.error(`[${table}] lease renewal of ${row.id} failed: ${describeErrorForLog(err)}`));
      }, Math.max(50, Math.floor(leaseMs / 3)));
      heartbeat.unref?.();
      try { if (await send(row, renewed)) sent++; } finally { clearInterval(heartbeat); }
    }
  } finally {
    if (next < rows.length) {
      await releaseClaims(db, table, rows.slice(next)).catch((err) => console.error(`[${table}] releasing unsent rows failed: ${describeErrorForLog(err)}`));
    }
  }
  return sent;
}

/**
 * Runs `pass` every `intervalMs` ms (the next pass starts `intervalMs` after the last one ended); a failing pass is
 * logged under `name` and the worker goes on. `pass` gets `isStopped`, checked before every row (sendClaimed), so a
 * stop ends the pass after the send in progress. Returns a stop function that waits for the pass in progress.
 */
export function startOutboxWorker(name: string, pass: (isStopped: () => boolean) => Promise<unknown>, intervalMs: number): () => Promise<void> {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const tick = async (): Promise<void> => {
    if (stopped) return;
    running = pass(() => stopped).catch((err) => console.error(`[${name}] outbox pass failed: ${describeErrorForLog(err)}`));
    await running;
    if (!stopped) timer = setTimeout(tick, intervalMs);
  };
  let timer = setTimeout(tick, intervalMs);
  return async () => { stopped = true; clearTimeout(timer); await running; };
}

/**
 * One worker pass over an outbox: runs `batch()` again and again while the claim it made was full (`size` rows) and
 * `isStopped()` is false, so a backlog drains in one pass even when some rows of a batch failed, were opted out or
 * were taken over by another node. Resolves to the number sent in all; rejects with the first database error.
 */
export async function drainWhileFull(batch: () => Promise<{ sent: number; claimed: number }>, size: number, isStopped: () => boolean): Promise<number> {
  let total = 0;
  for (;;) {
    const { sent, claimed } = await batch();
    total += sent;
    if (claimed < size || isStopped()) return total;
  }
}
