/**
 * HttpError and the error catalogue (DESIGN §4 Error shape). Throw these from services and routes;
 * the error handler turns them into `{ error: { code, message, fields? } }`.
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

export const badRequest = (message: string, fields?: Record<string, string>) => new HttpError(400, 'validation_error', message, fields);
export const unauthorized = (message = 'Authentication required') => new HttpError(401, 'unauthorized', message);
export const forbidden = (message = 'You need admin privileges to access this page') => new HttpError(403, 'forbidden', message);
export const notFound = (message = 'Not found') => new HttpError(404, 'not_found', message);
export const conflict = (message: string, fields?: Record<string, string>) => new HttpError(409, 'conflict', message, fields);
export const unavailable = (message = 'Service temporarily unavailable. Please try again shortly.') => new HttpError(503, 'unavailable', message);
