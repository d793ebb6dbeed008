/**
 * The SMTP transport's nodemailer options and the defaults every mail gets, as pure functions of the configuration
 * (deliverability audit). Sources:
 * - RFC 3834 §5 (Auto-Submitted): every mail the portal sends is machine-generated, so it carries
 *   `Auto-Submitted: auto-generated` and auto-responders (out-of-office, ticket systems) do not answer it.
 * - RFC 5321 §4.4 / §3.3 (Return-Path, MAIL FROM): bounces go to the envelope sender; MAIL_BOUNCE_ADDRESS makes that a
 *   mailbox of its own instead of the From address (admissions@ got every bounce).
 * - RFC 6376 (DKIM): with MAIL_DKIM_DOMAIN, MAIL_DKIM_SELECTOR and the private key, nodemailer signs every message
 *   (`DKIM-Signature: … d=<domain>; s=<selector>`), so DMARC (RFC 7489) can pass on the From domain; Gmail and Yahoo
 *   require SPF or DKIM of every sender, and DMARC of bulk senders, since February 2024.
 * - RFC 5321 §4.5.3.2 and the big receivers' bulk-sender rules (Gmail 421-4.7.28 "unusual rate"): one pooled
 *   connection carries many messages (a 199-mail announcement opened 202 connections before), at most
 *   SMTP_MAX_CONNECTIONS at once and SMTP_MAX_MESSAGES per connection, optionally at most SMTP_RATE_PER_MINUTE mails a
 *   minute; an idle connection is closed after half the socket timeout, before the relay drops it.
 */
import type { Config } from '../config.ts';

/** SMTP_TIMEOUT_MS's default, ms: connection, greeting and socket timeout of the SMTP transport. */
export const DEFAULT_SMTP_TIMEOUT_MS = 20_000;

/** Headers on every mail, both drivers (RFC 3834 §5: `auto-generated`, not a reply, so auto-responders stay quiet). */
export const AUTOMATIC_MAIL_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'Auto-Submitted': 'auto-generated' });

/**
 * How smtpMailer talks to the relay (all optional): `timeoutMs` bounds connection, greeting and each socket wait
 * (default 20 000 ms); `bounceAddress` is the envelope sender (MAIL FROM, becomes Return-Path; default: the From address);
 * `dkim` signs every message; `maxConnections` (default 2) and `maxMessages` (default 100) bound the connection pool;
 * `ratePerMinute`, when set, is the most messages sent in any minute.
 */
export interface SmtpSettings {
  timeoutMs?: number; bounceAddress?: string; dkim?: DkimSettings;
  maxConnections?: number; maxMessages?: number; ratePerMinute?: number;
}

/** SMTP_MAX_CONNECTIONS's default: parallel connections to the relay (the outbox sends one mail at a time per batch). */
export const DEFAULT_SMTP_MAX_CONNECTIONS = 2;
/** SMTP_MAX_MESSAGES's default: messages over one connection before it is replaced (nodemailer's default). */
export const DEFAULT_SMTP_MAX_MESSAGES = 100;

/** nodemailer's `dkim` option: the signing domain (`d=`), the selector (`s=`) and the private key (PEM). */
export interface DkimSettings { domainName: string; keySelector: string; privateKey: string }

/** The SmtpSettings that `config` asks for (SMTP_TIMEOUT_MS, MAIL_BOUNCE_ADDRESS, MAIL_DKIM_*; loadConfig checked DKIM is all or nothing). */
export function smtpSettings(config: Pick<Config, 'SMTP_TIMEOUT_MS' | 'MAIL_BOUNCE_ADDRESS' | 'MAIL_DKIM_DOMAIN' | 'MAIL_DKIM_SELECTOR' | 'MAIL_DKIM_PRIVATE_KEY' | 'SMTP_MAX_CONNECTIONS' | 'SMTP_MAX_MESSAGES' | 'SMTP_RATE_PER_MINUTE'>): SmtpSettings {
  const dkim = config.MAIL_DKIM_DOMAIN && config.MAIL_DKIM_SELECTOR && config.MAIL_DKIM_PRIVATE_KEY
    ? { domainName: config.MAIL_DKIM_DOMAIN, keySelector: config.MAIL_DKIM_SELECTOR, privateKey: config.MAIL_DKIM_PRIVATE_KEY }
    : undefined;
  return {
    timeoutMs: config.SMTP_TIMEOUT_MS, maxConnections: config.SMTP_MAX_CONNECTIONS, maxMessages: config.SMTP_MAX_MESSAGES,
    ...(config.SMTP_RATE_PER_MINUTE ? { ratePerMinute: config.SMTP_RATE_PER_MINUTE } : {}),
    ...(config.MAIL_BOUNCE_ADDRESS ? { bounceAddress: config.MAIL_BOUNCE_ADDRESS } : {}), ...(dkim ? { dkim } : {}) };
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
  transport: {
    url: string; connectionTimeout: number; greetingTimeout: number; socketTimeout: number; dkim?: DkimSettings;
    pool: true; maxConnections: number; maxMessages: number; idleTimeout: number; rateDelta?: number; rateLimit?: number;
  };
  defaults: { from: string; headers: Record<string, string> };
  envelopeFrom?: string;
} {
  const timeoutMs = s.timeoutMs ?? DEFAULT_SMTP_TIMEOUT_MS;
  return {
    transport: {
      url, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs, ...(s.dkim ? { dkim: { ...s.dkim } } : {}),
      pool: true, maxConnections: s.maxConnections ?? DEFAULT_SMTP_MAX_CONNECTIONS, maxMessages: s.maxMessages ?? DEFAULT_SMTP_MAX_MESSAGES,
      idleTimeout: Math.max(50, Math.floor(timeoutMs / 2)),
      ...(s.ratePerMinute ? { rateDelta: 60_000, rateLimit: s.ratePerMinute } : {}),
    },
    defaults: messageDefaults(from),
    ...(s.bounceAddress ? { envelopeFrom: s.bounceAddress } : {}),
  };
}
