/**
 * Durable e-mail (DESIGN §4 Notifications and e-mail): a transactional outbox. `enqueueMail` writes a row
 * in the caller's transaction, so a mail exists exactly when the change it reports was committed.
 * `startMailWorker` claims rows with FOR UPDATE SKIP LOCKED (safe with several instances), sends them,
 * and retries failures with back-off; a crash before "sent" means the row is sent again on restart.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { claimDue, retryLater, startOutboxWorker } from '../db/outbox.ts';
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
  const rows = await claimDue<{ id: number; to: string; subject: string; text: string; attempts: number }>(
    db, 'mail_outbox', sql`id, "to", subject, text, attempts`, batch);
  let sent = 0;
  for (const row of rows) {
    try {
      await mailer.send({ to: row.to, subject: row.subject, text: row.text });
      await db.execute(sql`UPDATE mail_outbox SET status = 'sent', sent_at = now(), locked_until = NULL, text = ${SENT_BODY} WHERE id = ${row.id}`);
      sent++;
    } catch (err) {
      await retryLater(db, 'mail_outbox', row, row.attempts >= 8, err);
    }
  }
  return sent;
}

/** Polls the outbox every `intervalMs` ms. Returns a stop function that waits for the current pass. */
export function startMailWorker(db: DbOrTx, mailer: Mailer, intervalMs = 1000): () => Promise<void> {
  return startOutboxWorker('mail', () => drainOutbox(db, mailer), intervalMs);
}
