/**
 * Serves the live static build (DESIGN §1). Directory-style pages (/about → about/index.html),
 * client-routed shells for paths the build cannot know (/apply/{id}, /applications/{id}),
 * 'Course Not Found' with 404 for unknown /courses/{id}, the 404 page with status 404 otherwise.
 * Hashed assets under /_astro are cached for a year; HTML is revalidated on every visit.
 * Dot-files are never served (issue #8: .git, .env, .data). HTML pages get a per-page CSP whose script-src
 * lists the hashes of their inline scripts (csp.ts), when the build has a manifest.
 */
import path from 'node:path';
import fs from 'node:fs';
import compression from 'compression';
import type { RequestHandler, Request, Response, NextFunction } from 'express';
import { Router } from 'express';
import { manifestFor, pagePolicy } from './csp.ts';

export interface SiteHandle {
  /** Absolute path of the live build, or null while the first build runs. */
  dir(): string | null;
}

/** Client-routed shells: first match wins. */
const SHELLS: [RegExp, string][] = [
  [/^\/apply(\/[^/]*)?\/?$/, 'apply/index.html'],
  [/^\/applications\/[^/]+\/?$/, 'applications/index.html'],
];

function resolveFile(root: string, urlPath: string): string | null {
  let decoded: string;
  try { decoded = decodeURIComponent(urlPath); } catch { return null; }
  if (decoded.includes('\0')) return null;
  const segments = decoded.split('/').filter(Boolean);
  if (segments.some((s) => s.startsWith('.') || s === '..')) return null;
  const base = path.join(root, ...segments);
  if (!base.startsWith(root)) return null;
  for (const candidate of [base, path.join(base, 'index.html'), `${base}.html`]) {
    try { if (fs.statSync(candidate).isFile()) return candidate; } catch { /* next */ }
  }
  return null;
}

function send(res: Response, file: string, status = 200, root?: string): void {
  if (root && file.endsWith('.html')) {
    const hashes = manifestFor(root)?.[path.relative(root, file).split(path.sep).join('/')];
    if (hashes) res.setHeader('Content-Security-Policy', pagePolicy(hashes));
  }
  const immutable = file.includes(`${path.sep}_astro${path.sep}`);
  res.status(status);
  res.sendFile(file, {
    dotfiles: 'deny',
    headers: { 'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache', 'X-Content-Type-Options': 'nosniff' },
  });
}

export function siteMiddleware(site: SiteHandle): RequestHandler {
  const r = Router();
  r.use(compression());
  r.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path.startsWith('/api/')) return next();
    const root = site.dir();
    if (!root) {
      res.status(503).setHeader('Retry-After', '5');
      res.type('html').send('<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="5"><title>Starting up</title></head><body><p>The site is being prepared. This page will refresh in a few seconds.</p></body></html>');
      return;
    }
    for (const [re, shell] of SHELLS) if (re.test(req.path)) return send(res, path.join(root, shell), 200, root);
    const file = resolveFile(root, req.path);
    if (file) return send(res, file, 200, root);
    if (/^\/courses\/[^/]+\/?$/.test(req.path)) {
      const nf = path.join(root, 'courses', 'not-found', 'index.html');
      if (fs.existsSync(nf)) return send(res, nf, 404, root);
    }
    const page404 = path.join(root, '404.html');
    if (fs.existsSync(page404)) return send(res, page404, 404, root);
    res.status(404).type('text').send('Page Not Found');
  });
  return r;
}
