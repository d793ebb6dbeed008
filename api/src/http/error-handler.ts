/**
 * Final error middleware: maps HttpError, body-parser errors (malformed JSON → 400, too large → 413)
 * and database outages (→ 503) to the DESIGN §4 shape. A 500 never leaks a stack or message, and its log
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

/** Last API route: 404 `{ error: { code: 'not_found', message: 'Not found' } }` for any unknown /api path. */
export const notFoundApi: RequestHandler = (_req, res) => {
  res.status(404).json({ error: { code: 'not_found', message: 'Not found' } });
};

/**
 * Express error middleware (DESIGN §4 error shape): HttpError → its status and body; body-parser errors →
 * 400 invalid_json / 413 payload_too_large / 415; other 4xx keep their status; database outage → 503 with
 * Retry-After 5 (s); anything else → 500 'Something went wrong. Please try again.', logged without stack or query.
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
  } else if (isDatabaseDown(err)) {
    status = 503; body = { code: 'unavailable', message: 'Service temporarily unavailable. Please try again shortly.' };
    res.setHeader('Retry-After', '5');
  } else {
    console.error(`[error] ${req.method} ${req.path}: ${describeErrorForLog(err)}`);
  }
  res.status(status).json({ error: body });
};
