/**
 * CSRF defence (ASVS 3.5.1–3.5.3, DESIGN §4): an unsafe request that carries a cookie must come from this
 * origin, judged by Sec-Fetch-Site or else Origin/Referer against the Host. Bearer-only requests pass:
 * a browser never attaches a bearer token on its own.
 */
import type { RequestHandler } from 'express';
import { HttpError } from './errors.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Middleware (CSRF, ASVS 3.5.1–3.5.3): an unsafe method with a cookie passes only when Sec-Fetch-Site is
 * same-origin/none or Origin (else Referer) is this Host over http(s) or `publicUrl`; otherwise next(403
 * `cross_origin` 'Cross-origin request refused'), logged. Requests without cookies or without any browser signal pass.
 */
export function sameOrigin(opts: { publicUrl?: string } = {}): RequestHandler {
  return (req, _res, next) => {
    if (SAFE.has(req.method)) return next();
    if (!req.headers.cookie) return next();
    const site = req.headers['sec-fetch-site'];
    if (site === 'same-origin' || site === 'none') return next();
    const origin = (req.headers.origin as string | undefined) ?? refererOrigin(req.headers.referer);
    if (!origin) {
      // No browser signals at all: a non-browser client (curl, tests). Browsers always send Origin on unsafe fetches.
      if (!site) return next();
    } else {
      const allowed = new Set<string>();
      const host = req.headers.host;
      if (host) { allowed.add(`http://${host}`); allowed.add(`https://${host}`); }
      if (opts.publicUrl) allowed.add(new URL(opts.publicUrl).origin);
      if (allowed.has(origin)) return next();
    }
    console.warn(`[security] cross-origin ${req.method} ${req.path} refused (origin ${origin ?? 'none'}, sec-fetch-site ${site ?? 'none'})`);
    next(new HttpError(403, 'cross_origin', 'Cross-origin request refused'));
  };
}

function refererOrigin(ref: string | undefined): string | undefined {
  if (!ref) return undefined;
  try { return new URL(ref).origin; } catch { return undefined; }
}
