/**
 * HTTPS known from PUBLIC_URL (production behind a TLS-terminating proxy or load balancer). Express learns that a
 * request came over HTTPS only from the socket or from X-Forwarded-Proto sent by a trusted proxy (TRUST_PROXY); a
 * balancer that terminates TLS but sends no X-Forwarded-Proto made every request look like plain HTTP, so the session
 * cookie and the signed-in hint lost Secure and HSTS was dropped (audit, PUBLIC_URL=https://…, TRUST_PROXY=loopback).
 * When PUBLIC_URL is https:, the site is only meant to be reached over HTTPS, so every request counts as HTTPS
 * (ASVS 5.0 V3.3.1 Secure cookies, V3.4.1 HSTS). With PUBLIC_URL unset or http:// (local development, the browser
 * tests) nothing changes: a Secure cookie would be dropped by the browser on plain http.
 */
import type { RequestHandler } from 'express';
import type { Config } from '../config.ts';

/** True when `PUBLIC_URL` is an https: address (any host); false when it is unset, http: or not a URL. */
export function publicUrlIsHttps(config: Pick<Config, 'PUBLIC_URL'>): boolean {
  try { return Boolean(config.PUBLIC_URL) && new URL(config.PUBLIC_URL!).protocol === 'https:'; } catch { return false; }
}

/**
 * Middleware, mounted first: when publicUrlIsHttps(config), `req.protocol` is 'https' for every request and so
 * `req.secure` is true (Express derives it from req.protocol), which is what the session cookie (express-session
 * checks req.secure), the signed-in hint (setSignedInHint), HSTS (app.ts) and the public cache key read. Otherwise a
 * pass-through: req.protocol stays Express's (socket, or X-Forwarded-Proto from a trusted proxy).
 */
export function httpsFromPublicUrl(config: Pick<Config, 'PUBLIC_URL'>): RequestHandler {
  if (!publicUrlIsHttps(config)) return (_req, _res, next) => next();
  return (req, _res, next) => {
    Object.defineProperty(req, 'protocol', { value: 'https', configurable: true, enumerable: true });
    next();
  };
}
