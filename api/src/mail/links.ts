/**
 * Absolute links in e-mails (issue #14 point 9): a mail client has no page to resolve '/my-applications'
 * against. The origin is PUBLIC_URL when set (production), else the origin of the request that caused the mail
 * (protocol + Host, honouring TRUST_PROXY through Express), else the address the server listens on.
 */
import type { Request } from 'express';
import type { Config } from '../config.ts';

/**
 * The site's origin from configuration alone: PUBLIC_URL's origin, else the address the server listens on
 * (http://localhost:PORT for 0.0.0.0 or ::). For mails that no request caused and the footer of every mail.
 */
export function siteOrigin(config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT'>): string {
  if (config.PUBLIC_URL) return new URL(config.PUBLIC_URL).origin;
  const listen = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  return `http://${listen}:${config.PORT}`;
}

/** 'https://college.example' style origin, no trailing slash. */
export function linkOrigin(config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT'>, req?: Pick<Request, 'protocol' | 'get'>): string {
  if (config.PUBLIC_URL) return new URL(config.PUBLIC_URL).origin;
  const host = req?.get('host');
  if (host && /^[A-Za-z0-9.:[\]-]+$/.test(host)) return `${req!.protocol}://${host}`;
  const listen = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  return `http://${listen}:${config.PORT}`;
}

/** `origin` + `path` ('/my-applications'); `path` must start with '/'. */
export const absoluteLink = (origin: string, path: string): string => `${origin.replace(/\/+$/, '')}${path}`;
