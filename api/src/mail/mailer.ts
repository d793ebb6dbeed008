/**
 * Mail transport (DESIGN §2 Mail): SMTP when SMTP_URL is set, otherwise `.eml` files written to
 * DATA_DIR/outbox (embedded mode), or an in-memory list for tests.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import nodemailer from 'nodemailer';
import { DEFAULT_SMTP_TIMEOUT_MS, messageDefaults, smtpTransportOptions, type SmtpSettings } from './transport-options.ts';
import { outboxPruner } from './outbox-files.ts';

/**
 * A mail transport: `send` delivers one mail or rejects (the outbox retries); `verify`, when present, checks that the
 * transport can be used (SMTP: connects and logs in), rejecting with the reason; server.ts calls it once at start and
 * only logs a warning (the outbox keeps the mail until the relay works); `close`, when present, ends the transport's
 * connections (server.ts, when it stops, for a mailer it created).
 */
export interface Mailer { send(msg: OutgoingMail): Promise<void>; verify?(): Promise<void>; close?(): Promise<void>; sent?: OutgoingMail[] }

/** What a transport sends: `replyTo`, when given, becomes the Reply-To header (nodemailer `replyTo`, both drivers). */
export interface OutgoingMail { to: string; subject: string; text: string; replyTo?: string }

/** SMTP_TIMEOUT_MS's default, ms: connection, greeting and socket timeout of the SMTP transport. */
export const SMTP_TIMEOUT_MS = DEFAULT_SMTP_TIMEOUT_MS;

/**
 * Sends through nodemailer to the SMTP server `url` (smtp[s]://user:pass@host:port) from `from`; send() rejects on SMTP
 * errors (the outbox retries); verify() runs nodemailer's transport.verify() (connect, greeting, login).
 * `opts` (SmtpSettings; options built by transport-options.ts smtpTransportOptions): `timeoutMs` (SMTP_TIMEOUT_MS,
 * default 20 s) bounds the connection, the greeting and every socket wait, so a relay that accepts and then hangs fails
 * the send after that long instead of nodemailer's 10 minutes; `bounceAddress` is the envelope sender. Every mail
 * carries `Auto-Submitted: auto-generated` (RFC 3834). Connections are pooled (`maxConnections`, default 2); close()
 * ends them (server.ts calls it when it stops, after the mail worker).
 */
export function smtpMailer(url: string, from: string, opts: SmtpSettings = {}): Mailer {
  const options = smtpTransportOptions(url, from, opts);
  const transport = nodemailer.createTransport(options.transport, options.defaults);
  // The envelope sender (RFC 5321 MAIL FROM, the Return-Path bounces go to), with the message's own recipients.
  if (options.envelopeFrom) transport.use('compile', (mail, done) => { mail.data.envelope ??= { from: options.envelopeFrom, to: mail.data.to }; done(); });
  return {
    send: async (msg) => { await transport.sendMail({ from, ...msg }); },
    verify: async () => { await transport.verify(); },
    close: async () => { transport.close(); },
  };
}

/**
 * Writes `data` to `file` so that `file` exists only complete: first to a hidden `.<name>.tmp` beside it, then renamed
 * (atomic within a folder), mode 0600 (owner only). On a write error (ENOSPC: a full disk) the partial temporary file is removed and the error
 * rethrown, so the outbox retries; in file mode the `.eml` files ARE the delivered mail, and a full disk used to leave
 * empty ones (22 of 43, operations audit). Rejects with the fs error.
 *
 * Why not the `write-file-atomic` package (npm, ISC, maintained by npm): its async write (7.0.1 and 8.0.0) makes one
 * `fs.write` call and ignores the byte count, so on a filling disk, where write(2) stores only what fits and returns a
 * short count without an error, it renames a truncated file into place and resolves (with `fs.write` cut to 8192
 * bytes, a 20000-byte mail became an 8192-byte `.eml`; the same bug is reported in coder/xum#4282). Here
 * `fs.promises.writeFile` writes until the whole buffer is stored, so the next write fails with ENOSPC and nothing
 * is left behind. Its signal-exit dependency also turns SIGXFSZ (a file-size limit) into an exit instead of EFBIG.
 */
export async function writeFileAtomically(file: string, data: string | Buffer): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.tmp`);
  try {
    // 0600: outbox files hold reset and set-password links (security audit F1); chmod too, for a left-over temp file.
    await fs.promises.writeFile(tmp, data, { mode: 0o600 });
    await fs.promises.chmod(tmp, 0o600);
    await fs.promises.rename(tmp, file);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true }).catch(() => {});
    throw err;
  }
}

/** Files written by this process: in a name after the time, so names sort in writing order even within one millisecond. */
let written = 0;

/**
 * Writes each mail as an RFC 5322 `.eml` file (`<ISO time>-<sequence>-<8 hex>.eml`, names sort in writing order) to
 * `dir` (DATA_DIR/outbox, created if missing) from `from`: the embedded mode's mail, read by people and tests.
 * Files older than OUTBOX_FILE_KEEP_MS (7 days) are removed when the mailer is made and then at most hourly as it
 * sends (outboxPruner; privacy audit F8: they hold every reset and verify link). send() rejects on write errors.
 */
export function fileMailer(dir: string, from: string): Mailer {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }, messageDefaults(from));
  const prune = outboxPruner(dir, 'mail');
  prune();
  return {
    send: async (msg) => {
      prune();
      const info = await transport.sendMail({ from, ...msg });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${String(++written).padStart(9, '0')}-${crypto.randomBytes(4).toString('hex')}.eml`;
      await writeFileAtomically(path.join(dir, name), info.message as Buffer);
    },
  };
}

/** Keeps mails in `sent` (in order) instead of sending: the API tests' mailer. */
export function memoryMailer(): Mailer & { sent: OutgoingMail[] } {
  const sent: OutgoingMail[] = [];
  return { sent, send: async (msg) => { sent.push(msg); } };
}
