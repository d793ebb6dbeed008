/**
 * E-mail as its recipient reads it, for API tests (issue #15 point 6): the queued outbox of a test app is delivered
 * through the production file mailer into `<DATA_DIR>/outbox` (the server's own data folder, as with `SMTP_URL`
 * unset) and every `.eml` there is parsed with mailparser, like the Playwright helper readMailTo.
 */
import fs from 'node:fs';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { fileMailer } from '../mail/mailer.ts';
import { drainOutbox } from '../mail/outbox.ts';
import { afterAnswerSettled } from '../features/auth/after-answer.ts';
import type { TestApp } from './harness.ts';

/** One delivered mail: first recipient address (lower-case), decoded subject and plain-text body, and the whole parse. */
export interface DeliveredMail { to: string; subject: string; text: string; parsed: ParsedMail }

/**
 * Waits for work requests left after their answer (afterAnswerSettled: reset links), then delivers everything `t` has queued (mail_outbox rows become 'sent' and keep no body, so read mail through this
 * helper only) and returns every mail delivered into `t`'s DATA_DIR/outbox (each test app has its own), oldest first,
 * optionally only those whose subject equals (string) or matches (RegExp) `subject`. Rejects when a file cannot be
 * written or parsed.
 */
export async function deliveredMails(t: TestApp, subject?: RegExp | string): Promise<DeliveredMail[]> {
  const dir = path.join(t.config.dataDir, 'outbox');
  const mailer = fileMailer(dir, t.config.MAIL_FROM);
  await afterAnswerSettled(); // a reset request queues its mail after answering (features/auth/after-answer.ts)
  while (await drainOutbox(t.database.db, mailer, 100) > 0) { /* deliver every due mail */ }
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.eml')).sort() // names sort in writing order (fileMailer)
    .map((f) => path.join(dir, f));
  const mails: DeliveredMail[] = [];
  for (const file of files) {
    const parsed = await simpleParser(fs.readFileSync(file));
    const mail = { to: [parsed.to ?? []].flat().flatMap((a) => a.value.map((v) => v.address?.toLowerCase() ?? ''))[0] ?? '', subject: parsed.subject ?? '', text: parsed.text ?? '', parsed };
    if (subject !== undefined && !(typeof subject === 'string' ? mail.subject === subject : subject.test(mail.subject))) continue;
    mails.push(mail);
  }
  return mails;
}

/** deliveredMails(t, subject) addressed to `to` (compared case-insensitively), oldest first. */
export async function mailsTo(t: TestApp, to: string, subject?: RegExp | string): Promise<DeliveredMail[]> {
  return (await deliveredMails(t, subject)).filter((m) => m.to === to.toLowerCase());
}
