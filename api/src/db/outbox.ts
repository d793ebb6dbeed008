/**
 * What the mail and SMS transactional outboxes share (DESIGN §4; api/src/mail/outbox.ts, api/src/sms/sms-outbox.ts):
 * claiming due rows with a 60 s lease and FOR UPDATE SKIP LOCKED (several nodes never claim one row twice), putting
 * a failed row back with exponential back-off, and the polling worker. Each outbox keeps its own sending step.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from './client.ts';

/** The outbox tables; a closed list, because the name is written into SQL as an identifier. */
export type OutboxTable = 'mail_outbox' | 'sms_outbox';

/** Back-off before attempt `attempts + 1`, in seconds: 5·2^attempts, at most 3600 (1 h). */
export function backoffSeconds(attempts: number): number {
  return Math.min(3600, 2 ** attempts * 5);
}

/**
 * Claims up to `batch` due rows of `table` (pending, lease expired or none) for 60 s and counts the attempt.
 * `returning` lists the columns to read (it must include `id`, and `priority` with `byPriority`). Queue order is
 * lowest id first, or with `byPriority` (mail_outbox) lowest priority, then lowest id; the rows resolve in that order
 * (UPDATE … RETURNING gives no set order, and a person must read "received" before "under review"). Rejects on
 * database errors.
 */
export async function claimDue<T extends { id: number; priority?: number }>(db: DbOrTx, table: OutboxTable, returning: SQL, batch: number, opts: { byPriority?: boolean } = {}): Promise<T[]> {
  const t = sql.identifier(table);
  const order = opts.byPriority ? sql`priority, id` : sql`id`;
  const claimed = await db.execute(sql`
    UPDATE ${t} SET locked_until = now() + interval '60 seconds', attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM ${t}
      WHERE status = 'pending' AND (locked_until IS NULL OR locked_until < now())
      ORDER BY ${order} LIMIT ${batch} FOR UPDATE SKIP LOCKED)
    RETURNING ${returning}`);
  const rows = (claimed as unknown as { rows: T[] }).rows;
  return rows.sort((a, b) => (opts.byPriority ? Number(a.priority ?? 0) - Number(b.priority ?? 0) : 0) || Number(a.id) - Number(b.id));
}

/**
 * Records a failed send of row `id` (attempt number `attempts`): `failed` for good, else pending again after
 * backoffSeconds(attempts). The error text is kept to 500 characters. Rejects on database errors.
 */
export async function retryLater(db: DbOrTx, table: OutboxTable, row: { id: number; attempts: number }, failed: boolean, err: unknown): Promise<void> {
  const message = String((err as Error)?.message ?? err).slice(0, 500);
  await db.execute(sql`UPDATE ${sql.identifier(table)} SET status = ${failed ? 'failed' : 'pending'}, last_error = ${message},
    locked_until = now() + (${backoffSeconds(row.attempts)} || ' seconds')::interval WHERE id = ${row.id}`);
}

/**
 * Runs `pass` every `intervalMs` ms (the next pass starts `intervalMs` after the last one ended); a failing pass is
 * logged under `name` and the worker goes on. `pass` gets `isStopped`, so a pass that drains several batches can
 * end early. Returns a stop function that waits for the pass in progress.
 */
export function startOutboxWorker(name: string, pass: (isStopped: () => boolean) => Promise<unknown>, intervalMs: number): () => Promise<void> {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const tick = async (): Promise<void> => {
    if (stopped) return;
    running = pass(() => stopped).catch((err) => console.error(`[${name}] outbox pass failed:`, err?.message ?? err));
    await running;
    if (!stopped) timer = setTimeout(tick, intervalMs);
  };
  let timer = setTimeout(tick, intervalMs);
  return async () => { stopped = true; clearTimeout(timer); await running; };
}
