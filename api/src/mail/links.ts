/**
 * Absolute links in e-mails and SMS (issue #14 point 9): a mail client has no page to resolve '/my-applications'
 * against. One origin rule for every link (mail audit: in development without PUBLIC_URL, reset links used the listen
 * address and application links the request's Host, so one applicant's mails pointed at two sites): PUBLIC_URL when
 * set (required in production), else the address the server listens on. Never the request's Host header, which a
 * client chooses (reset-link poisoning).
 */
import type { Request } from 'express';
import type { Config } from '../config.ts';

/**
 * The site's origin from configuration alone: PUBLIC_URL's origin, else the address the server listens on
 * (http://localhost:PORT for 0.0.0.0 or ::). 'https://college.example' style, no trailing slash.
 */
export function siteOrigin(config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT'>): string {
  if (config.PUBLIC_URL) return new URL(config.PUBLIC_URL).origin;
  const listen = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  return `http://${listen}:${config.PORT}`;
}

/**
 * The origin of links in a mail or SMS caused by request `_req`: siteOrigin(config), the same as token links. The
 * request is not read (its Host is the client's choice); the parameter stays so routes need not change.
 */
export function linkOrigin(config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT'>, _req?: Pick<Request, 'protocol' | 'get'>): string {
  return siteOrigin(config);
}

/**
 * The start-up warning when PUBLIC_URL is unset (server.ts logs it once): links in mail and SMS then use the listen
 * address, which a reader elsewhere cannot open. null when PUBLIC_URL is set.
 */
export function publicUrlWarning(config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT'>): string | null {
  if (config.PUBLIC_URL) return null;
  return `[mail] WARNING: PUBLIC_URL is not set: links in e-mails and SMS use ${siteOrigin(config)}, which works only on this machine. Set PUBLIC_URL to the site's public address (required in production).`;
}

/**
 * The start-up warning when production writes mail or SMS to files instead of sending them (SMTP_URL unset, or
 * SMS_DRIVER=file, the default): nothing reaches applicants (privacy audit F8 follow-up: not refused, because a
 * college without an SMS gateway must still start). null outside production or when both really send.
 */
export function fileDriverWarning(config: Pick<Config, 'NODE_ENV' | 'SMTP_URL' | 'SMS_DRIVER'>): string | null {
  if (config.NODE_ENV !== 'production') return null;
  const files = [!config.SMTP_URL && 'mail (SMTP_URL unset: DATA_DIR/outbox)', config.SMS_DRIVER === 'file' && 'SMS (SMS_DRIVER=file: DATA_DIR/sms-outbox)'].filter(Boolean);
  if (!files.length) return null;
  return `[mail] WARNING: production writes ${files.join(' and ')} to files instead of sending them: nothing reaches applicants. Set SMTP_URL and SMS_DRIVER=http (with SMS_USERNAME and SMS_PASSWORD) to send.`;
}

/** `origin` + `path` ('/my-applications'); `path` must start with '/'. */
export const absoluteLink = (origin: string, path: string): string => `${origin.replace(/\/+$/, '')}${path}`;
