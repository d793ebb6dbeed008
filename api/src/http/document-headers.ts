/**
 * Which security headers each kind of answer carries (issue #17 data budget, ASVS 5.0 V3.4): documents get them all,
 * hashed assets and bare 304s only what applies to subresources, API answers a short CSP of their own.
 */
import type { NextFunction, Request, Response } from 'express';
import { API_PERMISSIONS_POLICY } from './permissions-policy.ts';

/**
 * Response headers that only a document (or a worker) obeys: helmet and the Permissions-Policy middleware set them on
 * every response, and on a hashed script, stylesheet or image under /_astro, or on a bodiless 304 to a script's
 * conditional read, they do nothing but cost about 0.8 KB per response on HTTP/1.1 (issue #17 data budget: an
 * account page loads 20–30 such files). `X-Content-Type-Options` and `Cross-Origin-Resource-Policy`, which do apply
 * to subresources, stay. The service worker (/sw.js) is not under /_astro, so it keeps its CSP.
 */
export const DOCUMENT_ONLY_HEADERS = ['Content-Security-Policy', 'Permissions-Policy', 'Cross-Origin-Opener-Policy', 'Origin-Agent-Cluster',
  'Referrer-Policy', 'X-Frame-Options', 'X-DNS-Prefetch-Control'];

/**
 * The Content-Security-Policy of an API answer: JSON is never rendered, so nothing may load or frame it. Keeps the
 * ASVS 5.0 V3.4.3 minimum (object-src and base-uri 'none') and V3.4.6 (frame-ancestors), at 80 bytes instead of
 * the pages' 240.
 */
export const API_CSP = "default-src 'none'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/**
 * Headers helmet sets that no browser applies to a JSON answer fetched by a script (document or legacy-browser
 * only; X-Frame-Options is superseded by `frame-ancestors`). Permissions-Policy, Referrer-Policy, nosniff and
 * CORP stay on API answers (issue #12 finding 10, ASVS V3.4).
 */
const NOT_FOR_API = ['Cross-Origin-Opener-Policy', 'Origin-Agent-Cluster', 'X-Frame-Options', 'X-DNS-Prefetch-Control'];

/**
 * Middleware for /api after helmet: the API's own CSP (API_CSP) and Permissions-Policy (API_PERMISSIONS_POLICY) and
 * none of NOT_FOR_API, about 0.5 KB less per answer (issue #17 data budget: the applicant journey makes about 20 API
 * calls). A route may still set its own CSP afterwards (uploads: `sandbox`).
 */
export function apiHeaders(_req: Request, res: Response, next: NextFunction): void {
  for (const h of NOT_FOR_API) res.removeHeader(h);
  res.setHeader('Content-Security-Policy', API_CSP);
  res.setHeader('Permissions-Policy', API_PERMISSIONS_POLICY);
  next();
}

/**
 * Middleware for /api, before the routes: `Cache-Control: no-store` unless a route sets its own, and an answer that
 * is still `no-store` when its headers go out loses the ETag Express gave it. A browser that stores nothing never
 * revalidates, so the tag was about 40 bytes of every private answer for nothing (issue #17 data budget). Answers
 * with another Cache-Control (the public read cache, the application fee's `no-cache`) keep theirs and their tag.
 */
export function apiNoStore(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  const writeHead = res.writeHead;
  res.writeHead = function withoutStoreTag(this: Response, ...args: unknown[]) {
    if (String(res.getHeader('Cache-Control')).includes('no-store')) res.removeHeader('ETag');
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as typeof res.writeHead;
  next();
}
