/**
 * Durable e-mail (DESIGN §4 Notifications and e-mail): a transactional outbox. `enqueueMail` writes a row
 * in the caller's transaction, so a mail exists exactly when the change it reports was committed.
 * `startMailWorker` claims rows with FOR UPDATE SKIP LOCKED (safe with several instances), sends them,
 * and retries failures with back-off; a crash before "sent" means the row is sent again on restart.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { mailOutbox } from '../db/schema/messaging.ts';
import type { Mailer } from './mailer.ts';

export interface MailMessage { to: string; subject: string; text: string }

/**
 * What a sent row keeps of its body. The recipient and subject stay for the audit trail; the body (which can
 * hold a password-reset link or application details) is not kept once delivered (POPIA s14, ASVS 14.2.x).
 */
export const SENT_BODY = '(delivered; body not kept)';

/**
 * Queues one or several mails in `mail_outbox` on `db` (pass the caller's transaction, so the mail exists exactly
 * when the change commits; DESIGN §4), in inserts of at most 500 rows. Rejects on database errors.
 */
export async function enqueueMail(db: DbOrTx, msg: MailMessage | MailMessage[]): Promise<void> {
  const rows = Array.isArray(msg) ? msg : [msg];
  if (rows.length === 0) return;
  for (let i = 0; i < rows.length; i += 500) await db.insert(mailOutbox).values(rows.slice(i, i + 500));
}

/** Sends up to `batch` due mails once, oldest queued first. Returns how many were sent. */
export async function drainOutbox(db: DbOrTx, mailer: Mailer, batch = 20): Promise<number> {
  const claimed = await db.execute(sql`
    UPDATE mail_outbox SET locked_until = now() + interval '60 seconds', attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM mail_outbox
      WHERE status = 'pending' AND (locked_until IS NULL OR locked_until < now())
      ORDER BY id LIMIT ${batch} FOR UPDATE SKIP LOCKED)
    RETURNING id, "to", subject, text, attempts`);
  const rows = (claimed as any).rows as { id: number; to: string; subject: string; text: string; attempts: number }[];
  // UPDATE … RETURNING gives rows in no set order: send in queue order, so a person reads "received" before "under review".
  rows.sort((a, b) => Number(a.id) - Number(b.id));
  let sent = 0;
  for (const row of rows) {
    try {
      await mailer.send({ to: row.to, subject: row.subject, text: row.text });
      await db.execute(sql`UPDATE mail_outbox SET status = 'sent', sent_at = now(), locked_until = NULL, text = ${SENT_BODY} WHERE id = ${row.id}`);
      sent++;
    } catch (err: any) {
      const failed = row.attempts >= 8;
      const backoffS = Math.min(3600, 2 ** row.attempts * 5);
      await db.execute(sql`UPDATE mail_outbox SET status = ${failed ? 'failed' : 'pending'}, last_error = ${String(err?.message ?? err).slice(0, 500)},
        locked_until = now() + (${backoffS} || ' seconds')::interval WHERE id = ${row.id}`);
    }
  }
  return sent;
}

/** Polls the outbox every `intervalMs` ms. Returns a stop function that waits for the current pass. */
export function startMailWorker(db: DbOrTx, mailer: Mailer, intervalMs = 1000): () => Promise<void> {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const tick = async () => {
    if (stopped) return;
    running = drainOutbox(db, mailer).catch((err) => console.error('[mail] outbox pass failed:', err?.message ?? err));
    await running;
    if (!stopped) timer = setTimeout(tick, intervalMs);
  };
  let timer = setTimeout(tick, intervalMs);
  return async () => { stopped = true; clearTimeout(timer); await running; };
}
