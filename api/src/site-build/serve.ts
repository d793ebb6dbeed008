/**
 * Serves the live static build (DESIGN §1). Directory-style pages (/about → about/index.html),
 * client-routed shells for paths the build cannot know (/apply/{id}, /applications/{id}),
 * 'Course Not Found' with 404 for unknown /courses/{id}, the 404 page with status 404 otherwise.
 * Hashed assets under /_astro are cached for a year, the favicon for a week; HTML is revalidated on every visit.
 * Dot-files are never served (issue #8: .git, .env, .data). HTML pages get a per-page CSP whose script-src
 * lists the hashes of their inline scripts (csp.ts), when the build has a manifest. A file with a precompressed
 * `.br` copy in the build is sent as that copy to browsers that accept Brotli. An `/_astro/` file the live build
 * lacks comes from the newest kept earlier build that has it (a tab opened before a deploy or publish; kept-builds.ts).
 * A page is sent as its `.dcz` copy to a browser that holds the build's page dictionary (dictionary.ts), and names
 * that dictionary in a Link header to one that does not.
 * A revalidated file's ETag names its content coding (RFC 9110 §8.8.3): the file's own tag for identity, with `-br`
 * for the `.br` copy and `-gzip`/`-br`/`-deflate` for what the `compression` middleware encodes (entity-tags.ts).
 */
import path from 'node:path';
import fs from 'node:fs';
import compression from 'compression';
import etag from 'etag';
import type { RequestHandler, Request, Response, NextFunction } from 'express';
import { Router } from 'express';
import { manifestFor, pagePolicy } from './csp.ts';
import { DOCUMENT_ONLY_HEADERS } from '../http/document-headers.ts';
import { acceptedCodings, codingETag, notModifiedETag } from '../http/entity-tags.ts';
import { isPageDictionary, pageDictionaryFor, USE_AS_DICTIONARY } from './dictionary.ts';

/** What the server can say about its static site (issue #11): shown on the 503 page and by the health check. */
export interface SiteStatus {
  /** `building`: no live site yet, a build runs; `ready`: a live build is served; `failed`: no live site and the last build failed; `disabled`: SITE_BUILD=never and nothing built. */
  state: 'building' | 'ready' | 'failed' | 'disabled';
  /** Failed builds in a row (0 after a success). */
  failures: number;
  /** Milliseconds until the next automatic retry, or null when none is scheduled. */
  retryInMs: number | null;
}

export interface SiteHandle {
  /** Absolute path of the live build, or null while the first build runs. */
  dir(): string | null;
  /** State for the 503 page and /api/colfront/health; absent means "building". */
  status?(): SiteStatus;
  /**
   * The folder of a kept earlier build holding `_astro/<name>` (`name`: the decoded path below `/_astro/`), or null;
   * asked only when the live build lacks the file (SiteBuilder.earlierAsset, kept-builds.ts).
   */
  earlierAsset?(name: string): string | null;
}

/** The 503 page shown while there is no live build: it says what is happening and refreshes itself. */
export function startingPage(status: SiteStatus): string {
  const secs = status.retryInMs == null ? null : Math.max(1, Math.ceil(status.retryInMs / 1000));
  const text = status.state === 'failed'
    ? `The site could not be built (${status.failures} attempt${status.failures === 1 ? '' : 's'} so far). The server tries again ${secs ? `in ${secs} seconds` : 'shortly'}; the cause is in the server log.`
    : status.state === 'disabled'
      ? 'This server runs the API only (SITE_BUILD=never), so it has no pages to show.'
      : 'The site is being prepared. This page will refresh in a few seconds.';
  const refresh = status.state === 'disabled' ? '' : `<meta http-equiv="refresh" content="${Math.min(30, Math.max(5, secs ?? 5))}">`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">${refresh}<meta name="viewport" content="width=device-width, initial-scale=1"><title>Starting up</title></head><body><main><h1>Starting up</h1><p>${text}</p><p>Status: <code>/api/colfront/health</code></p></main></body></html>`;
}

/**
 * Client-routed shells: first match wins. /r is the reset-password page under the short path of the walk-in's
 * set-password SMS (`/r#token=…`, api/src/sms/sms-text.ts): the page reads the token from the fragment.
 */
const SHELLS: [RegExp, string][] = [
  [/^\/apply(\/[^/]*)?\/?$/, 'apply/index.html'],
  [/^\/applications\/[^/]+\/?$/, 'applications/index.html'],
  [/^\/r\/?$/, 'reset-password/index.html'],
];

/**
 * The pages whose forms send a password or an e-mail address to the API from their island (site/islands/auth/).
 * Such a form is posted here, to its own page, only when its JavaScript did not run (switched off, a data saver,
 * a chunk lost on the way). The body, with its password, is never read; the browser is sent back to the page with
 * `nojs=1` added to its query, where BaseLayout says the page needs JavaScript and gives the office phone. /r is the
 * reset-password page under the walk-in SMS's short path (SHELLS).
 */
export const FORM_PAGES = ['/login', '/auth', '/register', '/register-simple', '/forgot-password', '/reset-password', '/r'];

/** The stat of `file` when it is a regular file, else null (missing, a folder, unreadable). */
function fileStats(file: string): fs.Stats | null {
  try { const stats = fs.statSync(file); return stats.isFile() ? stats : null; } catch { return null; }
}

/** The build's file for `urlPath` (as is, `/index.html` or `.html` added) with its stat, or null (dot-files never). */
function resolveFile(root: string, urlPath: string): { file: string; stats: fs.Stats } | null {
  let decoded: string;
  try { decoded = decodeURIComponent(urlPath); } catch { return null; }
  if (decoded.includes('\0')) return null;
  const segments = decoded.split('/').filter(Boolean);
  if (segments.some((s) => s.startsWith('.') || s === '..')) return null;
  const base = path.join(root, ...segments);
  if (!base.startsWith(root)) return null;
  for (const file of [base, path.join(base, 'index.html'), `${base}.html`]) {
    const stats = fileStats(file);
    if (stats) return { file, stats };
  }
  return null;
}


/**
 * Unhashed files that may be cached for a while (seconds) instead of revalidated on every page: the favicon, which
 * a browser asks for on every page the service worker does not control yet (issue #17). It is a file of the
 * build (public/), never content; a changed icon shows within a week, and ETag/Last-Modified keep revalidation cheap.
 */
const LIFETIMES: Record<string, number> = { 'favicon.svg': 7 * 24 * 3600 };

/**
 * Images outside /_astro (the favicon, from public/): like hashed assets they are subresources of the build, never
 * content, so they carry only the headers a subresource obeys (issue #17: the favicon's answer was 1.1 KB of headers
 * for 237 bytes of icon).
 */
const BUILD_IMAGE = /\.(svg|png|ico|webp|avif|jpe?g)$/;

/**
 * The CSP of every SVG the build serves, hashed or not: opened on its own an SVG is a document that could run
 * script on this origin (an admin's image URL the build fetched could be one); as an <img> the header is ignored.
 * Nothing loads and the document is sandboxed, as GitHub serves raw files (about 60 bytes).
 */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** The codings the `compression` middleware may apply (its SUPPORTED_ENCODING less identity). */
const CODINGS = ['br', 'gzip', 'deflate'];

/**
 * Before the `compression` middleware: once the answer's headers are final (compression has set its
 * Content-Encoding, or send() set br for a `.br` copy), a 200's ETag gets the coding's suffix (codingETag).
 * Compression wraps writeHead after this does, so its choice is made before this wrapper runs.
 */
const tagPerCoding: RequestHandler = (_req, res, next) => {
  const writeHead = res.writeHead;
  res.writeHead = function tagged(this: Response, ...args: unknown[]) {
    const tag = res.getHeader('ETag');
    const coding = res.getHeader('Content-Encoding');
    if (typeof tag === 'string' && coding && res.statusCode !== 304) res.setHeader('ETag', codingETag(tag, String(coding)));
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as typeof res.writeHead;
  next();
};

/**
 * Sends `file` (inside `root`) with the page's CSP and cache headers. The path is passed relative to `root`,
 * so `send`'s dot-file guard looks only at the URL's part of the path, never at the folders above the
 * build (the default DATA_DIR is `.data`; issue #11). `stats`: the file's stat when the caller already has it
 * (resolveFile); otherwise a revalidated file is stat-ed here for its ETag.
 */
function send(res: Response, file: string, status: number, root: string, stats?: fs.Stats | null): void {
  const req = res.req;
  let relative = path.relative(root, file);
  if (file.endsWith('.html')) {
    const hashes = manifestFor(root)?.[relative.split(path.sep).join('/')];
    if (hashes) res.setHeader('Content-Security-Policy', pagePolicy(hashes));
  }
  const immutable = file.includes(`${path.sep}_astro${path.sep}`);
  const lifetime = LIFETIMES[relative.split(path.sep).join('/')];
  const cacheControl = immutable ? 'public, max-age=31536000, immutable' : lifetime ? `public, max-age=${lifetime}` : 'no-cache';
  if (immutable || BUILD_IMAGE.test(file)) for (const h of DOCUMENT_ONLY_HEADERS) res.removeHeader(h);
  if (file.endsWith('.svg')) res.setHeader('Content-Security-Policy', SVG_CSP);
  // The build's Brotli copy (quality 11, site/integrations/precompress.mjs) when the browser takes it; the
  // `compression` middleware leaves an answer with a Content-Encoding alone (issue #17: 10–20 % fewer bytes).
  res.vary('Accept-Encoding');
  // A page whose build has a dictionary (dictionary.ts) goes out as its `.dcz` copy to a browser holding that
  // dictionary; any other browser is pointed at the dictionary, to fetch when idle.
  const dictionary = file.endsWith('.html') ? pageDictionaryFor(root) : null;
  const holdsDictionary = !!dictionary && req.headers['available-dictionary'] === `:${dictionary.hash}:`;
  const dcz = holdsDictionary && req.acceptsEncodings('dcz') === 'dcz' && fs.existsSync(`${file}.dcz`);
  if (dictionary) {
    res.vary('Available-Dictionary');
    if (!holdsDictionary) res.setHeader('Link', `<${dictionary.url}>; rel="compression-dictionary"`);
  }
  if (status === 200 && immutable && isPageDictionary(req.path)) res.setHeader('Use-As-Dictionary', USE_AS_DICTIONARY);
  const brCopy = !dcz && req.acceptsEncodings('br') === 'br' && fs.existsSync(`${file}.br`);
  // The tag is the file's own, whichever bytes go out (tagPerCoding adds the coding), and If-None-Match is judged
  // here against every representation this request may be given (notModifiedETag): `send` would compare the
  // `.br` copy's own stat, or the identity tag for a body compression then gzips. The identity tag is the one `send`
  // makes, `etag(stat)` (weak for a stat: W/"<size hex>-<mtime ms hex>").
  const st = immutable ? null : stats ?? fileStats(file);
  const tag = st ? etag(st, { weak: true }) : null;
  if (tag) {
    res.setHeader('ETag', tag);
    if (req.headers['if-none-match']) {
      // dcz counts as acceptable only with this build's dictionary: a browser holding another one also offers dcz,
      // and a 304 for the `-dcz` tag would confirm bytes it cannot decode to a cache answering for it.
      const held = status === 200 ? notModifiedETag(req.headers['if-none-match'], tag, dcz ? 'dcz' : brCopy ? 'br' : 'identity', acceptedCodings(req.headers['accept-encoding'], holdsDictionary ? [...CODINGS, 'dcz'] : CODINGS)) : null;
      if (held) {
        // The 304 keeps the page's CSP and other document headers: the ETag names the file only, and a browser updates
        // its stored headers from a 304 (RFC 9111 §3.2), so a deploy that changes a policy but no page still reaches it.
        res.removeHeader('Link');
        res.setHeader('ETag', held);
        res.setHeader('Cache-Control', cacheControl);
        res.status(304).end();
        return;
      }
      // Judged: `send` must not judge again (nor fall back to If-Modified-Since, which If-None-Match overrides).
      delete req.headers['if-none-match'];
      delete req.headers['if-modified-since'];
    }
  }
  if (dcz || brCopy) {
    res.type(path.extname(file));
    res.setHeader('Content-Encoding', dcz ? 'dcz' : 'br');
    relative += dcz ? '.dcz' : '.br';
  }
  // A hashed script is a module script, which a browser always decodes as UTF-8 (HTML §8.1.3.3): the charset parameter
  // was 15 bytes of each of the 10–40 scripts a page loads (issue #17 data budget).
  if (immutable && file.endsWith('.js')) res.setHeader('Content-Type', 'text/javascript');
  res.status(status);
  res.sendFile(relative, {
    root,
    dotfiles: 'deny',
    // A hashed file never changes under its name: no revalidation, so no validators either. A page revalidates by
    // its ETag alone and is never fetched in ranges: Last-Modified and Accept-Ranges would be 68 bytes of every
    // page's answer for nothing (issue #17 warm-page budget, counted with headers).
    ...(immutable ? { etag: false, lastModified: false, acceptRanges: false } : file.endsWith('.html') ? { lastModified: false, acceptRanges: false } : {}),
    headers: { 'Cache-Control': cacheControl, 'X-Content-Type-Options': 'nosniff' },
  });
}

/**
 * Serves the live build of `site` for GET/HEAD outside /api (compressed; hashed assets immutable for a year, pages
 * no-cache): 503 startingPage with Retry-After (s) while there is none, course not-found page or 404.html with 404.
 * A POST to one of FORM_PAGES answers 303 to the same page and query plus `nojs=1`, without reading the body.
 */
export function siteMiddleware(site: SiteHandle): RequestHandler {
  const r = Router();
  r.use(tagPerCoding);
  r.use(compression());
  r.post(FORM_PAGES, (req: Request, res: Response) => {
    const page = FORM_PAGES.find((p) => p === req.path.toLowerCase().replace(/\/$/, '')) ?? '/login';
    const query = new URLSearchParams(req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '');
    query.set('nojs', '1');
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, `${page}?${query}`);
  });
  r.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path.startsWith('/api/')) return next();
    const root = site.dir();
    if (!root) {
      const status = site.status?.() ?? { state: 'building', failures: 0, retryInMs: null };
      res.status(503).setHeader('Retry-After', String(Math.max(5, Math.ceil((status.retryInMs ?? 5000) / 1000))));
      res.type('html').send(startingPage(status));
      return;
    }
    for (const [re, shell] of SHELLS) if (re.test(req.path)) return send(res, path.join(root, shell), 200, root);
    const found = resolveFile(root, req.path);
    if (found) return send(res, found.file, 200, root, found.stats);
    if (req.path.startsWith('/_astro/') && site.earlierAsset) {
      let name = '';
      try { name = decodeURIComponent(req.path.slice('/_astro/'.length)); } catch { /* not a file name */ }
      const earlier = name ? site.earlierAsset(name) : null;
      if (earlier) return send(res, path.join(earlier, '_astro', ...name.split('/')), 200, earlier);
    }
    if (/^\/courses\/[^/]+\/?$/.test(req.path)) {
      const nf = path.join(root, 'courses', 'not-found', 'index.html');
      const nfStats = fileStats(nf);
      if (nfStats) return send(res, nf, 404, root, nfStats);
    }
    const page404 = path.join(root, '404.html');
    const page404Stats = fileStats(page404);
    if (page404Stats) return send(res, page404, 404, root, page404Stats);
    res.status(404).type('text').send('Page Not Found');
  });
  return r;
}
