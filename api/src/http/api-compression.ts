/**
 * gzip/deflate for API answers (the `compression` package, as for the static site in site-build/serve.ts). JSON is
 * text that shrinks 5–10×: the course list every applicant's /apply and /register reads was 190 KB uncompressed
 * with 300 courses (volume audit). Left alone: everything under /api/uploads/ — the tus 1.0 protocol (HEAD, PATCH,
 * DELETE answers carry Upload-Offset and no body a client expects re-encoded) and stored documents (PDF, DOC,
 * DOCX, JPEG, PNG are already compressed formats; the download also announces its Content-Length) — and whatever
 * the package's own filter declines (types mime-db marks incompressible, `Cache-Control: no-transform`).
 * HEAD answers and bodies under 1 KB are never compressed (the package's rules).
 */
import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';

/** Paths (of `req.originalUrl`) whose answers pass through unencoded: tus uploads and document downloads. */
const UNCOMPRESSED = /^\/api\/uploads\//;

/**
 * The `filter` of apiCompression: false for the tus endpoint and document downloads (UNCOMPRESSED), otherwise
 * compression.filter (compressible Content-Type per mime-db, no `no-transform`). Pure; never throws.
 */
export function compressApiAnswer(req: Request, res: Response): boolean {
  if (UNCOMPRESSED.test(req.originalUrl)) return false;
  return compression.filter(req, res);
}

/**
 * Middleware for /api, mounted before the public read cache's fast path so cached answers are compressed too:
 * gzip or deflate by the request's Accept-Encoding, answers of 1 KB and more, `Vary: Accept-Encoding` added;
 * see compressApiAnswer for what is left alone.
 */
export function apiCompression(): RequestHandler {
  return compression({ filter: compressApiAnswer }) as RequestHandler;
}
