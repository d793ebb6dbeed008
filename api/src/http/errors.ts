/**
 * HttpError and the error catalogue (DESIGN §4 Error shape). Throw these from services and routes;
 * the error handler turns them into `{ error: { code, message, fields? } }`.
 */
/**
 * An error with an HTTP status, a machine `code` and a user-facing `message` (spec strings), optionally a
 * `fields` map (field path → first message) for form errors. Thrown anywhere in a request; error-handler.ts
 * answers `{ error: { code, message, fields? } }` with `status`.
 */
export class HttpError extends Error {
  status: number;
  code: string;
  fields?: Record<string, string>;
  constructor(status: number, code: string, message: string, fields?: Record<string, string>) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

/** 400 `validation_error` with the spec's message and, for forms, a field → message map (spec §8). Returned, not thrown. */
export const badRequest = (message: string, fields?: Record<string, string>): HttpError => new HttpError(400, 'validation_error', message, fields);
/** 401 `unauthorized`: no signed-in user (spec §6; default message 'Authentication required'). */
export const unauthorized = (message = 'Authentication required'): HttpError => new HttpError(401, 'unauthorized', message);
/** 403 `forbidden`: signed in but not allowed (spec §6 admin message by default). */
export const forbidden = (message = 'You need admin privileges to access this page'): HttpError => new HttpError(403, 'forbidden', message);
/** 404 `not_found`; also used for rows the caller may not see, so existence is not revealed (ASVS 8.2.2). */
export const notFound = (message = 'Not found'): HttpError => new HttpError(404, 'not_found', message);
/** 409 `conflict`: the request clashes with stored state (duplicate account, second active application). */
export const conflict = (message: string, fields?: Record<string, string>): HttpError => new HttpError(409, 'conflict', message, fields);
/** 503 `unavailable`: a dependency (database, external system) is down; the client may retry (DESIGN §4). */
export const unavailable = (message = 'Service temporarily unavailable. Please try again shortly.'): HttpError => new HttpError(503, 'unavailable', message);
