/**
 * Final error middleware: maps HttpError, body-parser errors (malformed JSON → 400, too large → 413),
 * full storage (ENOSPC, PostgreSQL 53100 → 507) and database outages (→ 503) to the DESIGN §4 shape. A 500 never leaks a stack or message, and its log
 * line carries no query parameters (error-log.ts).
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { HttpError } from './errors.ts';
import { describeErrorForLog } from './error-log.ts';

const DB_DOWN_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', '57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004', 'ETIMEDOUT', 'EPIPE']);

/**
 * Whether `err` (or any error in its `cause` chain) means the database is unreachable: a connection error code
 * (ECONNREFUSED, 57P0x, 08xxx …) or a driver message saying so. Such errors become 503 + Retry-After: 5 s.
 */
export function isDatabaseDown(err: any): boolean {
  if (!err) return false;
  if (DB_DOWN_CODES.has(err.code)) return true;
  const msg = String(err.message ?? '');
  return /Connection terminated|connect ECONNREFUSED|terminating connection|the database system is (starting up|shutting down)|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(msg)
    || (err.cause ? isDatabaseDown(err.cause) : false);
}

/** The answer when the disk (ENOSPC) or the database's disk (SQLSTATE 53100) is full: 507, this message. */
export const OUT_OF_SPACE_MESSAGE = 'The server is out of storage space. Please try again later.';

/**
 * Where `err` (or an error in its `cause` chain) says storage is full: 'disk' for ENOSPC/EDQUOT (a file write under
 * DATA_DIR, the embedded database included), 'database' for PostgreSQL 53100 disk_full; else null.
 */
export function outOfSpace(err: any, depth = 0): 'disk' | 'database' | null {
  if (!err || typeof err !== 'object' || depth > 5) return null;
  if (err.code === 'ENOSPC' || err.code === 'EDQUOT') return 'disk';
  if (err.code === '53100') return 'database';
  return outOfSpace(err.cause, depth + 1);
}

/**
 * The answer to an error that is not the client's (operations audit: a full disk gave a generic 500, and tus a plain
 * text "ENOSPC: no space left on device, write"): storage full → 507 `insufficient_storage` OUT_OF_SPACE_MESSAGE,
 * Retry-After 60, logged as "DATA_DIR is full" (or the database's disk); database outage → 503 `unavailable`,
 * Retry-After 5; anything else → 500 `internal_error`, logged with describeErrorForLog (no query parameters). `where`
 * (method and path) goes into the log line only. Used by errorHandler and by the tus endpoint's onResponseError.
 */
export function serverErrorAnswer(err: unknown, where: string): { status: number; body: { code: string; message: string }; retryAfter?: string } {
  const full = outOfSpace(err);
  if (full) {
    console.error(full === 'disk'
      ? `[error] DATA_DIR is full (no space left on device) during ${where}: free space or grow the volume`
      : `[error] the database's disk is full (PostgreSQL 53100 disk_full) during ${where}: free space on the database server`);
    return { status: 507, body: { code: 'insufficient_storage', message: OUT_OF_SPACE_MESSAGE }, retryAfter: '60' };
  }
  if (isDatabaseDown(err)) {
    return { status: 503, body: { code: 'unavailable', message: 'Service temporarily unavailable. Please try again shortly.' }, retryAfter: '5' };
  }
  console.error(`[error] ${where}: ${describeErrorForLog(err)}`);
  return { status: 500, body: { code: 'internal_error', message: 'Something went wrong. Please try again.' } };
}

/**
 * @tus/server's onResponseError. The errors it gets are `{ status_code, body }` (tus's ERRORS catalogue in @tus/utils,
 * or our own tusError) or anything else thrown while handling the upload. Answers:
 * - tus's answers with a status below 500 (FILE_NOT_FOUND 404, INVALID_OFFSET 409, ERR_MAX_SIZE_EXCEEDED 413 …) and
 *   our own tusError (its body already `{"error": …}`, any status): kept as they are (undefined);
 * - tus's 501s (UNSUPPORTED_CONCATENATION_EXTENSION for Upload-Concat, UNSUPPORTED_CREATION_DEFER_LENGTH_EXTENSION,
 *   UNSUPPORTED_EXPIRATION_EXTENSION: the client asked for an extension this server does not offer): 501
 *   `not_implemented` with tus's message in the API's error shape `{error: {code, message}}`, nothing logged (audit:
 *   Upload-Concat answered 500 internal_error and logged "undefined: undefined");
 * - tus's own 500s (UNKNOWN_ERROR, FILE_WRITE_ERROR, ERR_LOCK_TIMEOUT) and any other error (ENOSPC while writing the
 *   upload, a database error): serverErrorAnswer's status and API error body, logged with tus's message when it is one.
 */
export function tusResponseError(req: { method?: string; url?: string }, err: unknown): { status_code: number; body: string } | undefined {
  const e = err as { status_code?: unknown; body?: unknown } | null;
  const tusAnswer = !(err instanceof Error) && typeof e?.status_code === 'number' && typeof e.body === 'string';
  if (tusAnswer && (e!.status_code as number) < 500) return undefined;
  if (tusAnswer) {
    try { if (typeof JSON.parse(String(e!.body))?.error?.code === 'string') return undefined; } catch { /* tus's plain text */ }
  }
  if (tusAnswer && e!.status_code === 501) {
    return { status_code: 501, body: JSON.stringify({ error: { code: 'not_implemented', message: String(e!.body).trim() } }) };
  }
  let path = '';
  try { path = new URL(String(req.url ?? ''), 'http://x').pathname; } catch { /* not a URL */ }
  const logged = tusAnswer ? new Error(`tus ${String(e!.status_code)}: ${String(e!.body).trim()}`) : err;
  const answer = serverErrorAnswer(logged, `${req.method ?? '?'} ${path}`);
  return { status_code: answer.status, body: JSON.stringify({ error: answer.body }) };
}

/** Last API route: 404 `{ error: { code: 'not_found', message: 'Not found' } }` for any unknown /api path. */
export const notFoundApi: RequestHandler = (_req, res) => {
  res.status(404).json({ error: { code: 'not_found', message: 'Not found' } });
};

/**
 * Express error middleware (DESIGN §4 error shape): HttpError → its status and body; body-parser errors →
 * 400 invalid_json / 413 payload_too_large / 415; other 4xx keep their status; the rest as serverErrorAnswer: full
 * storage → 507 OUT_OF_SPACE_MESSAGE; database outage → 503 with Retry-After 5 (s); anything else → 500
 * 'Something went wrong. Please try again.', logged without query parameters.
 */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  if (res.headersSent) return;
  let status = 500;
  let body: { code: string; message: string; fields?: Record<string, string> } = { code: 'internal_error', message: 'Something went wrong. Please try again.' };
  if (err instanceof HttpError) {
    status = err.status;
    body = { code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) };
  } else if (err?.type === 'entity.parse.failed') {
    status = 400; body = { code: 'invalid_json', message: 'The request body is not valid JSON' };
  } else if (err?.type === 'entity.too.large') {
    status = 413; body = { code: 'payload_too_large', message: 'The request body is too large' };
  } else if (err?.type === 'encoding.unsupported' || err?.type === 'charset.unsupported') {
    status = 415; body = { code: 'unsupported_media_type', message: 'Unsupported content encoding' };
  } else if (typeof err?.status === 'number' && err.status >= 400 && err.status < 500) {
    status = err.status; body = { code: 'bad_request', message: err.expose ? String(err.message) : 'Bad request' };
  } else {
    const answer = serverErrorAnswer(err, `${req.method} ${req.path}`);
    status = answer.status; body = answer.body;
    if (answer.retryAfter) res.setHeader('Retry-After', answer.retryAfter);
  }
  res.status(status).json({ error: body });
};
