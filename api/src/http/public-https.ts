/**
 * HTTPS known from PUBLIC_URL (production behind a TLS-terminating proxy or load balancer). Express learns that a
 * request came over HTTPS only from the socket or from X-Forwarded-Proto sent by a trusted proxy (TRUST_PROXY); a
 * balancer that terminates TLS but sends no X-Forwarded-Proto made every request look like plain HTTP, so the session
 * cookie and the signed-in hint lost Secure and HSTS was dropped (audit, PUBLIC_URL=https://…, TRUST_PROXY=loopback).
 * In production (NODE_ENV=production, where PUBLIC_URL must be https: unless the host is loopback) with an https:
 * PUBLIC_URL, the site is only meant to be reached over HTTPS, so every request counts as HTTPS (ASVS 5.0 V3.3.1
 * Secure cookies, V3.4.1 HSTS). Otherwise nothing changes: with PUBLIC_URL unset or http:// (local development, the
 * browser tests), or outside production (the API tests, which sign links with an https PUBLIC_URL but talk plain http
 * to the app), a Secure cookie would be dropped by the client on plain http.
 */
import type { RequestHandler } from 'express';
import type { Config } from '../config.ts';

/** True when NODE_ENV is production and `PUBLIC_URL` is an https: address (any host); false otherwise (also for a PUBLIC_URL that is no URL). */
export function publicUrlIsHttps(config: Pick<Config, 'PUBLIC_URL' | 'NODE_ENV'>): boolean {
  if (config.NODE_ENV !== 'production') return false;
  try { return Boolean(config.PUBLIC_URL) && new URL(config.PUBLIC_URL!).protocol === 'https:'; } catch { return false; }
}

/**
 * Middleware, mounted first: when publicUrlIsHttps(config), `req.protocol` is 'https' for every request and so
 * `req.secure` is true (Express derives it from req.protocol), which is what the session cookie (express-session
 * checks req.secure), the signed-in hint (setSignedInHint), HSTS (app.ts) and the public cache key read. Otherwise a
 * pass-through: req.protocol stays Express's (socket, or X-Forwarded-Proto from a trusted proxy).
 */
export function httpsFromPublicUrl(config: Pick<Config, 'PUBLIC_URL' | 'NODE_ENV'>): RequestHandler {
  if (!publicUrlIsHttps(config)) return (_req, _res, next) => next();
  return (req, _res, next) => {
    Object.defineProperty(req, 'protocol', { value: 'https', configurable: true, enumerable: true });
    next();
  };
}
