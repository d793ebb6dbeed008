/**
 * The SMTP transport's nodemailer options and the defaults every mail gets, as pure functions of the configuration
 * (deliverability audit). Sources:
 * - RFC 3834 §5 (Auto-Submitted): every mail the portal sends is machine-generated, so it carries
 *   `Auto-Submitted: auto-generated` and auto-responders (out-of-office, ticket systems) do not answer it.
 * - RFC 5321 §4.4 / §3.3 (Return-Path, MAIL FROM): bounces go to the envelope sender; MAIL_BOUNCE_ADDRESS makes that a
 *   mailbox of its own instead of the From address (admissions@ got every bounce).
 */
import type { Config } from '../config.ts';

/** SMTP_TIMEOUT_MS's default, ms: connection, greeting and socket timeout of the SMTP transport. */
export const DEFAULT_SMTP_TIMEOUT_MS = 20_000;

/** Headers on every mail, both drivers (RFC 3834 §5: `auto-generated`, not a reply, so auto-responders stay quiet). */
export const AUTOMATIC_MAIL_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'Auto-Submitted': 'auto-generated' });

/**
 * How smtpMailer talks to the relay (all optional): `timeoutMs` bounds connection, greeting and each socket wait
 * (default 20 000 ms); `bounceAddress` is the envelope sender (MAIL FROM, becomes Return-Path; default: the From address).
 */
export interface SmtpSettings { timeoutMs?: number; bounceAddress?: string }

/** The SmtpSettings that `config` asks for (SMTP_TIMEOUT_MS, MAIL_BOUNCE_ADDRESS). */
export function smtpSettings(config: Pick<Config, 'SMTP_TIMEOUT_MS' | 'MAIL_BOUNCE_ADDRESS'>): SmtpSettings {
  return { timeoutMs: config.SMTP_TIMEOUT_MS, ...(config.MAIL_BOUNCE_ADDRESS ? { bounceAddress: config.MAIL_BOUNCE_ADDRESS } : {}) };
}

/** Per-message defaults for nodemailer's createTransport(options, defaults): the sender and AUTOMATIC_MAIL_HEADERS (a message's own headers are added to these). */
export function messageDefaults(from: string): { from: string; headers: Record<string, string> } {
  return { from, headers: { ...AUTOMATIC_MAIL_HEADERS } };
}

/**
 * nodemailer options for the SMTP relay `url` (smtp[s]://user:pass@host:port) sending from `from`: `transport`
 * (createTransport's first argument), `defaults` (its second, messageDefaults) and `envelopeFrom`, the envelope sender
 * each message gets when set (smtpMailer sets nodemailer's `envelope` from it, with the message's recipients).
 */
export function smtpTransportOptions(url: string, from: string, s: SmtpSettings = {}): {
  transport: { url: string; connectionTimeout: number; greetingTimeout: number; socketTimeout: number };
  defaults: { from: string; headers: Record<string, string> };
  envelopeFrom?: string;
} {
  const timeoutMs = s.timeoutMs ?? DEFAULT_SMTP_TIMEOUT_MS;
  return {
    transport: { url, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs },
    defaults: messageDefaults(from),
    ...(s.bounceAddress ? { envelopeFrom: s.bounceAddress } : {}),
  };
}
