/**
 * E-mail as its recipient reads it, for API tests (issue #15 point 6): the queued outbox of a test app is delivered
 * through the production file mailer into `<DATA_DIR>/outbox` (the server's own data folder, as with
 * `SMTP_URL` unset) and every `.eml` there is parsed with mailparser, like the Playwright helper readMailTo.
 */
import fs from 'node:fs';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { fileMailer } from '../mail/mailer.ts';
import { drainOutbox } from '../mail/outbox.ts';
import type { TestApp } from './harness.ts';

/**
 * Delivers everything `t` has queued (all recipients: delivered rows keep no body, so read mail through this helper
 * only) and returns the mails to `to` (case-insensitive), oldest first, optionally only those whose subject
 * matches `subject`. `text` is the decoded plain body. Rejects when a file cannot be written or parsed.
 */
export async function mailsTo(t: TestApp, to: string, subject?: RegExp | string): Promise<ParsedMail[]> {
  const dir = path.join(t.config.dataDir, 'outbox');
  const mailer = fileMailer(dir, t.config.MAIL_FROM);
  while (await drainOutbox(t.database.db, mailer, 100) > 0) { /* deliver every due mail */ }
  const wanted = to.toLowerCase();
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.eml')).sort(); // names start with the ISO time of writing
  const mails: ParsedMail[] = [];
  for (const f of files) {
    const mail = await simpleParser(fs.readFileSync(path.join(dir, f)));
    const recipients = [mail.to ?? []].flat().flatMap((a) => a.value.map((v) => v.address?.toLowerCase()));
    if (!recipients.includes(wanted)) continue;
    if (subject !== undefined && !(typeof subject === 'string' ? mail.subject === subject : subject.test(mail.subject ?? ''))) continue;
    mails.push(mail);
  }
  return mails;
}
