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
import { once } from 'node:events';
import type { Readable } from 'node:stream';
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
 * Middleware for /api, mounted after the public read cache's fast path (which sends its entries already encoded,
 * public-cache.ts; answers with a Content-Encoding pass through here untouched): br, gzip or deflate by the
 * request's Accept-Encoding, answers of 1 KB and more, `Vary: Accept-Encoding` added; see compressApiAnswer for
 * what is left alone.
 */
export function apiCompression(): RequestHandler {
  return compression({ filter: compressApiAnswer }) as RequestHandler;
}

/** The '\n' in `chunk` (a Buffer or a string). */
function lineBreaks(chunk: Buffer | string): number {
  let n = 0;
  if (typeof chunk === 'string') { for (let i = chunk.indexOf('\n'); i !== -1; i = chunk.indexOf('\n', i + 1)) n++; return n; }
  for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) n++;
  return n;
}

/** CSV records between two flushes of a streamed export: one keyset page (admin and external exports read 1 000). */
export const CSV_FLUSH_ROWS = 1000;

/**
 * Sends a streamed CSV (`csv`: csv-stringify's output, the header row first, each record ending in '\n') as the
 * answer, so that the download starts at once and shows progress whatever the encoding (performance audit: with Accept-Encoding: br
 * the compression package's brotli (quality 4) held the headers and every byte until a large block filled, 4–9 s of
 * nothing at 100 000 rows; gzip 0.05 s). The headers go out first (res.flushHeaders), and the encoder is flushed
 * (res.flush, added by compression; absent when the answer is not encoded) after the header row and whenever
 * another `rowsPerFlush` records (counted by line breaks; a cell with a line break counts one more) have been
 * written after it, i.e. after each keyset page. Back-pressure is kept (waits for 'drain'). Resolves
 * when the answer ends; never rejects: a failing source or a client that went away ends the answer early (the
 * download breaks, as rows were already sent), `csv` is destroyed (which stops its reads) and '<label> export stopped: <code>' is logged
 * (`label` like '[admin] applications').
 */
export async function sendCsvStream(res: Response, csv: Readable, label: string, rowsPerFlush = CSV_FLUSH_ROWS): Promise<void> {
  const flush = () => (res as Response & { flush?: () => void }).flush?.();
  const gone = once(res, 'close').then(() => undefined, () => undefined);
  res.once('close', () => { if (!res.writableFinished) csv.destroy(); }); // a download stopped half-way stops the reads
  res.flushHeaders();
  let records = 0;
  try {
    for await (const chunk of csv) {
      if (res.destroyed) throw Object.assign(new Error('client went away'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
      const more = res.write(chunk);
      // A chunk holds whatever csv had buffered: any number of records, each ending in '\n' (or just the BOM).
      const before = records;
      records += lineBreaks(chunk);
      if (records > before && (before === 0 || Math.floor((records - 1) / rowsPerFlush) > Math.floor((before - 1) / rowsPerFlush))) flush();
      if (!more) await Promise.race([once(res, 'drain'), gone]);
    }
    res.end();
  } catch (err) {
    csv.destroy();
    const e = err as { code?: string; message?: string };
    console.warn(`${label} export stopped: ${e?.code ?? e?.message ?? err}`);
    res.destroy();
  }
}
