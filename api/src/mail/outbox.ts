/**
 * Durable e-mail (DESIGN §4 Notifications and e-mail): a transactional outbox. `enqueueMail` writes a row
 * in the caller's transaction, so a mail exists exactly when the change it reports was committed.
 * `startMailWorker` claims rows with FOR UPDATE SKIP LOCKED (safe with several instances), renews each row's lease
 * just before sending it (a row another node claimed after this batch's lease ran out is skipped), and retries failures
 * with back-off; a crash before "sent" means the row is sent again after the lease (at least once across a crash).
 * A hard bounce (isRecipientRejected: the relay refused the recipient with a 5xx) fails the row at once and marks the
 * address bounced (users.email_bounced_at): announcements skip it, transactional mail still tries it.
 * The queue is ordered by priority, then id: transactional mail (reset and verification links, receipts, status
 * changes) goes before bulk announcement mail, and each pass drains batch after batch while it claims full batches
 * (volume audit: after an announcement to 5 000 students, a reset link with a 1-hour lifetime waited ~14 minutes
 * behind it, one batch of 20 a second, first in first out).
 */
import { eq, sql } from 'drizzle-orm';
import { users } from '../db/schema/users.ts';
import type { DbOrTx } from '../db/client.ts';
import { claimDue, drainWhileFull, OUTBOX_MAX_ATTEMPTS, retryLater, sendClaimed, startOutboxWorker, type DrainOptions } from '../db/outbox.ts';
import { mailOutbox } from '../db/schema/messaging.ts';
import type { Mailer } from './mailer.ts';
import { normalizeEmail } from '#contracts/mailbox.ts';

/** One mail: recipient, subject, plain-text body and, optionally, the Reply-To address (the visitor, on the office's copy of a form message). */
export interface MailMessage { to: string; subject: string; text: string; replyTo?: string | null; list?: MailListHeaders | null }

/**
 * List headers of one bulk mail (announcements), kept in `mail_outbox.list_headers`: the recipient's own unsubscribe
 * link, the RFC 2919 list id ('announcements.college.example') and its display name. Transactional mail has none.
 */
export interface MailListHeaders { unsubscribeUrl: string; listId: string; listName: string }

/**
 * nodemailer's `list` option (List-Unsubscribe <url>, List-ID) and extra `headers`, as a bulk mail hands them to the
 * transport; both drivers (mailer.ts) pass every field of the mail on to nodemailer's sendMail.
 */
export interface NodemailerListOptions { list?: { unsubscribe: string; id: { url: string; comment: string } }; headers?: Record<string, string> }

/**
 * The nodemailer options for a row's list headers: List-Unsubscribe <url>, List-Id, Precedence: bulk and, for an
 * https link (RFC 8058 requires one), List-Unsubscribe-Post: List-Unsubscribe=One-Click (Gmail and Yahoo bulk-sender
 * rules, 2024). {} for null (transactional mail).
 */
export function listOptions(h: MailListHeaders | null | undefined): NodemailerListOptions {
  if (!h) return {};
  const headers: Record<string, string> = { Precedence: 'bulk' };
  if (h.unsubscribeUrl.startsWith('https://')) headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  return { list: { unsubscribe: h.unsubscribeUrl, id: { url: h.listId, comment: h.listName } }, headers };
}

/**
 * `mail_outbox.priority` values, lower sent first: transactional mail a person is waiting for (every enqueueMail
 * by default), bulk mail to many people at once (announcements).
 */
export const MAIL_PRIORITY = { transactional: 0, bulk: 1 } as const;

/** Mails claimed per batch; a pass keeps claiming while a claim comes back full. */
export const MAIL_BATCH = 20;

/**
 * What a sent row keeps of its body. The recipient and subject stay for the audit trail; the body (which can
 * hold a password-reset link or application details) is not kept once delivered (POPIA s14, ASVS 14.2.x).
 */
export const SENT_BODY = '(delivered; body not kept)';

/**
 * What a mail given up for good (hard bounce, or OUTBOX_MAX_ATTEMPTS failures) keeps of its body: it will never be
 * sent, and its reset, verify or set-password link must not outlive it in the table and in backups (as SMS_UNSENT_BODY,
 * api/src/sms/sms-outbox.ts; privacy audit F1). Recipient, subject, attempts and the last error stay.
 */
export const UNSENT_BODY = '(not delivered; body not kept)';

/**
 * Queues one or several mails in `mail_outbox` on `db` (pass the caller's transaction, so the mail exists exactly
 * when the change commits; DESIGN §4), in inserts of at most 500 rows. `opts.bulk` marks mail sent to many people at
 * once (announcements: MAIL_PRIORITY.bulk), which waits behind every transactional mail. Rejects on database errors.
 */
export async function enqueueMail(db: DbOrTx, msg: MailMessage | MailMessage[], opts: { bulk?: boolean } = {}): Promise<void> {
  const priority = opts.bulk ? MAIL_PRIORITY.bulk : MAIL_PRIORITY.transactional;
  const rows = (Array.isArray(msg) ? msg : [msg]).map((m) => ({ to: m.to, subject: m.subject, text: m.text, replyTo: m.replyTo ?? null, listHeaders: m.list ?? null, priority }));
  if (rows.length === 0) return;
  for (let i = 0; i < rows.length; i += 500) await db.insert(mailOutbox).values(rows.slice(i, i + 500));
}

/**
 * True when a send failed because the relay refused the recipient for good (a hard bounce): nodemailer's EENVELOPE
 * with an SMTP 5xx reply to RCPT TO ('550 5.1.1 user unknown'; a stub without `command` counts too), or a 550, 551 or
 * 553 reply to RCPT TO under any code. Not a hard bounce: a 4xx ('451 try later'), a refused MAIL FROM (the sender,
 * not the recipient), a refusal at DATA (the content), or relay-wide failures such as 535 (authentication) or 554 on
 * connecting. The outbox fails such a row at once, with no retries, and marks the address (users.email_bounced_at),
 * which announcements then skip (mail audit: a 550 was retried 36 times over ~27 h, and mailed on every announcement).
 */
export function isRecipientRejected(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; responseCode?: unknown; command?: unknown };
  const status = typeof e.responseCode === 'number' ? e.responseCode : NaN;
  const command = typeof e.command === 'string' ? e.command.toUpperCase() : undefined;
  const onRecipient = command === undefined || command.startsWith('RCPT');
  if (e.code === 'EENVELOPE' && status >= 500 && status <= 599 && onRecipient) return true;
  return command !== undefined && command.startsWith('RCPT') && [550, 551, 553].includes(status);
}

/** What one batch did: `claimed` rows were taken from the queue (at most the batch size), `sent` of them were delivered. */
export interface BatchResult { sent: number; claimed: number }

/**
 * Sends up to `batch` due mails once, in queue order (transactional before bulk, then oldest queued first), each under
 * its own lease (sendClaimed, api/src/db/outbox.ts): a mail whose lease another node took over while this batch was
 * slow is skipped, not sent twice, and `opts.isStopped()` is checked before each mail (the unsent ones are released
 * for another node at once). `opts.leaseMs` defaults to OUTBOX_LEASE_MS (60 s). Resolves to how many mails were
 * claimed and how many of them were sent; a failed send is put back for a retry (back-off), not counted as sent,
 * except a hard bounce (isRecipientRejected), which fails the row at once and sets users.email_bounced_at for its address.
 * A sent row's body becomes SENT_BODY, a row failed for good UNSENT_BODY.
 * Rejects on database errors.
 */
export async function drainOutboxBatch(db: DbOrTx, mailer: Mailer, batch = MAIL_BATCH, opts: DrainOptions = {}): Promise<BatchResult> {
  if (opts.isStopped?.()) return { sent: 0, claimed: 0 };
  const rows = await claimDue<{ id: number; to: string; subject: string; text: string; reply_to: string | null; list_headers: MailListHeaders | null; attempts: number; priority: number }>(
    db, 'mail_outbox', sql`id, "to", subject, text, reply_to, list_headers, attempts, priority`, batch, { byPriority: true, leaseMs: opts.leaseMs });
  const sent = await sendClaimed(db, 'mail_outbox', rows, opts, async (row) => {
    try {
      await mailer.send({ to: row.to, subject: row.subject, text: row.text, ...(row.reply_to ? { replyTo: row.reply_to } : {}), ...listOptions(row.list_headers) });
    } catch (err) {
      const bounced = isRecipientRejected(err);
      const final = bounced || row.attempts >= OUTBOX_MAX_ATTEMPTS;
      await retryLater(db, 'mail_outbox', row, final, err);
      if (final) await db.execute(sql`UPDATE mail_outbox SET text = ${UNSENT_BODY} WHERE id = ${row.id} AND status = 'failed'`);
      if (bounced) await db.update(users).set({ emailBouncedAt: new Date() }).where(eq(users.email, normalizeEmail(row.to)));
      return false;
    }
    await db.execute(sql`UPDATE mail_outbox SET status = 'sent', sent_at = now(), locked_until = NULL, claim_token = NULL, text = ${SENT_BODY} WHERE id = ${row.id}`);
    return true;
  });
  return { sent, claimed: rows.length };
}

/**
 * drainOutboxBatch, resolving to how many mails were sent only (a failed, skipped or released mail is not counted).
 * Rejects on database errors.
 */
export async function drainOutbox(db: DbOrTx, mailer: Mailer, batch = MAIL_BATCH, opts: DrainOptions = {}): Promise<number> {
  return (await drainOutboxBatch(db, mailer, batch, opts)).sent;
}

/**
 * One worker pass: drainOutboxBatch batch after batch (each claim re-reads the queue, so a reset mail queued meanwhile
 * goes in the next batch) while the batch claimed was full and `isStopped()` is false (also checked before every
 * mail). A full claim goes on even when some of its mails failed or were taken over by another node, so one bad
 * address does not leave the rest of a backlog for later ticks. `opts.leaseMs` as in drainOutbox. Resolves to how
 * many were sent; rejects on database errors.
 */
export async function drainOutboxPass(db: DbOrTx, mailer: Mailer, isStopped: () => boolean = () => false, opts: { leaseMs?: number } = {}): Promise<number> {
  return drainWhileFull(() => drainOutboxBatch(db, mailer, MAIL_BATCH, { leaseMs: opts.leaseMs, isStopped }), MAIL_BATCH, isStopped);
}

/**
 * Runs drainOutboxPass every `intervalMs` ms (after the last pass ended); `opts.leaseMs` as in drainOutbox. Returns a
 * stop function that waits for the mail being sent, if any, and releases the rest of its batch to other nodes.
 */
export function startMailWorker(db: DbOrTx, mailer: Mailer, intervalMs = 1000, opts: { leaseMs?: number } = {}): () => Promise<void> {
  return startOutboxWorker('mail', (isStopped) => drainOutboxPass(db, mailer, isStopped, opts), intervalMs);
}
