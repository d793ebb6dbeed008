/**
 * In-process cache for anonymous public GET reads (catalogue, announcements). Entries live `ttlMs`
 * milliseconds (so several instances converge quickly) and are dropped at once when this instance
 * changes public content (`clear()`, wired to onContentChanged). Responses carry an ETag (a hash of the body, so the
 * same on every instance and in every build of the site); a matching If-None-Match gets a bare 304, cached entry or
 * not (issue #17: the About page asks whether the announcements it was built with are still current). Signed-in
 * callers bypass it (admins may see inactive rows). Each entry keeps its body gzipped and brotli-encoded too, made once
 * when the entry is stored (encoded-body.ts); a hit is answered in the encoding the request accepts, with
 * `Vary: Accept-Encoding`, and never passes through the compression middleware (mounted after the fast path).
 * Each encoding is its own representation with its own ETag (RFC 9110 §8.8.3): the hash for identity, `"<hash>-gzip"`
 * and `"<hash>-br"` for the encoded bodies (entity-tags.ts); If-None-Match is matched as notModifiedETag says.
 */
import crypto from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { DOCUMENT_ONLY_HEADERS } from './document-headers.ts';
import { encodeBody, pickEncoded, type BodyEncoding, type EncodedBody } from './encoded-body.ts';
import { acceptedCodings, codingETag, notModifiedETag } from './entity-tags.ts';

/** `etag`: the identity body's; `headers`: those recorded when the entry was made, without ETag (it is per encoding). */
interface Entry { body: EncodedBody; etag: string; expires: number; headers: Record<string, string> }

export interface PublicCache {
  middleware: RequestHandler;
  /**
   * Mounted first in the app: answers a fresh hit for a caller with no session cookie and no bearer token
   * straight from memory, with the headers (security headers included) recorded when the entry was made,
   * skipping the session, passport and helmet work a public read does not need. Mounted before the compression
   * middleware: the body goes out as stored in the encoding the request accepts (gzip, br or identity), with
   * Vary: Accept-Encoding and its own Content-Length.
   */
  fastPath: RequestHandler;
  clear(): void;
}

/** A caller that sends `Cache-Control: no-cache` (the site build's content loader) always gets a fresh read. */
function wantsFresh(req: Request): boolean {
  return /no-cache|max-age=0/.test(String(req.headers['cache-control'] ?? ''));
}

/**
 * A bare 304: without the headers a bodiless answer to a script's read has no use for (about 0.8 KB less), with the
 * Vary a 200 would carry (RFC 9110 §15.4.5).
 */
function notModified(res: Response): void {
  for (const h of [...DOCUMENT_ONLY_HEADERS, 'Content-Type']) res.removeHeader(h);
  res.vary('Accept-Encoding');
  res.status(304).end();
}

/**
 * Sends `entry`'s body through Express as `pick` (revalidate's choice for the request). A Content-Encoding already
 * set makes the compression middleware in front pass it through (its 'already encoded' rule), so it is not
 * compressed again.
 */
function sendEntry(res: Response, entry: Entry, { encoding, bytes }: Pick<Revalidated, 'encoding' | 'bytes'>): void {
  res.vary('Accept-Encoding');
  res.setHeader('ETag', codingETag(entry.etag, encoding));
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  res.type('application/json').send(bytes);
}

/** What a request to an entry gets: the encoding and bytes it is answered with, and the ETag a 304 carries (null: send the body). */
interface Revalidated { encoding: BodyEncoding; bytes: Buffer; notModified: string | null }

/**
 * For a request to `entry`: Revalidated, with Accept-Encoding negotiated once for the body and, only when the request
 * has If-None-Match, once more for the other encodings it would take. Only the encodings the entry has count as
 * accepted (an entry under 1 KB is identity only).
 */
function revalidate(req: Request, entry: Entry): Revalidated {
  const acceptEncoding = req.headers['accept-encoding'];
  const { encoding, bytes } = pickEncoded(entry.body, acceptEncoding);
  const ifNoneMatch = req.headers['if-none-match'];
  if (!ifNoneMatch) return { encoding, bytes, notModified: null };
  const has = (['br', 'gzip'] as const).filter((c) => entry.body[c]);
  return { encoding, bytes, notModified: notModifiedETag(ifNoneMatch, entry.etag, encoding, acceptedCodings(acceptEncoding, has)) };
}

/**
 * A cache for anonymous public GETs: entries live `ttlMs` (ms, default 10 000), at most `maxEntries` (oldest
 * dropped first); only 200 JSON answers are kept, keyed by scheme + URL. `clear()` empties it (content changed).
 */
export function createPublicCache(ttlMs = 10_000, maxEntries = 500): PublicCache {
  const entries = new Map<string, Entry>();
  let generation = 0;
  const middleware: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' || req.user) return next();
    const key = `${req.secure ? 'https' : 'http'} ${req.originalUrl}`;
    const hit = wantsFresh(req) ? undefined : entries.get(key);
    res.setHeader('Cache-Control', 'public, max-age=0, must-revalidate');
    if (hit && hit.expires > Date.now()) {
      const r = revalidate(req, hit);
      if (r.notModified) { res.setHeader('ETag', r.notModified); return notModified(res); }
      return sendEntry(res, hit, r);
    }
    const startedAt = generation;
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const text = JSON.stringify(body);
      if (res.statusCode === 200 && startedAt === generation) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
        const etag = `"${crypto.createHash('sha1').update(text).digest('base64url')}"`;
        res.type('application/json');
        res.vary('Accept-Encoding');
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.getHeaders())) {
          if (name !== 'set-cookie' && name !== 'content-length' && name !== 'content-encoding' && name !== 'etag' && value !== undefined) headers[name] = String(value);
        }
        const entry: Entry = { body: encodeBody(text), etag, expires: Date.now() + ttlMs, headers };
        entries.set(key, entry);
        const r = revalidate(req, entry);
        if (r.notModified) { res.setHeader('ETag', r.notModified); notModified(res); return res; }
        sendEntry(res, entry, r);
        return res;
      }
      return res.type('application/json').send(text);
    };
    next();
  };
  const fastPath: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' || req.headers.authorization || req.headers.cookie?.includes('college.sid=') || wantsFresh(req)) return next();
    const hit = entries.get(`${req.secure ? 'https' : 'http'} ${req.originalUrl}`);
    if (!hit || hit.expires <= Date.now()) return next();
    const { encoding, bytes, notModified: tag } = revalidate(req, hit);
    if (tag) { for (const [name, value] of Object.entries(hit.headers)) res.setHeader(name, value); res.setHeader('ETag', tag); return notModified(res); }
    // hit.headers.vary already names Accept-Encoding: the entry was made after res.vary('Accept-Encoding').
    const headers: Record<string, string> = { ...hit.headers, etag: codingETag(hit.etag, encoding), 'content-length': String(bytes.length) };
    if (encoding !== 'identity') headers['content-encoding'] = encoding;
    res.writeHead(200, headers);
    res.end(bytes);
  };
  return { middleware, fastPath, clear: () => { generation++; entries.clear(); } };
}
