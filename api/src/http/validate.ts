/**
 * validate(schema, part): route middleware that parses req.body / req.query / req.params with a zod schema from
 * api/contracts/ (classic or zod/mini) and replaces them with the parsed value. On failure: 400 with a field map,
 * first message per field, in the schema's (the spec's) wording — never a 500 (house rule "Bad input").
 * The returned middleware is also typed: `v.data(req)` gives the value it parsed on that request with the
 * schema's output type, so handlers need no `as any`.
 */
import type { Request, RequestHandler } from 'express';
import type { ZodError } from 'zod';
import { badRequest } from './errors.ts';

/** Field path 'a.b.0' → first message; issues without a path go to '_'. */
export function fieldErrors(error: Pick<ZodError, 'issues'>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_';
    if (!(key in fields)) fields[key] = issue.message;
  }
  return fields;
}

type Part = 'body' | 'query' | 'params';

/** Any zod schema, classic or `zod/mini` (both have safeParse). `T` is its output type. */
export interface SafeParser<T = unknown> { safeParse(input: unknown): { success: true; data: T } | { success: false; error: Pick<ZodError, 'issues'> } }

/** A validate() middleware that can hand its parsed value back with the schema's type. */
export interface Validator<T> extends RequestHandler {
  /** The value this middleware parsed on `req`. Throws when it did not run on this request (a wiring bug → 500). */
  data(req: Request): T;
}

/**
 * Middleware that parses `req[part]` (default the body) with `schema` and replaces it with the parsed value;
 * on failure next(400 validation_error) whose message is the first issue's and whose `fields` map holds the first
 * message per field path (house rule "Bad input": never a 500). `.data(req)` returns the parsed value typed `T`.
 */
export function validate<T>(schema: SafeParser<T>, part: Part = 'body'): Validator<T> {
  const parsed = new WeakMap<Request, T>();
  const mw: RequestHandler = (req, _res, next) => {
    const input = part === 'body' ? (req.body ?? {}) : req[part];
    const result = schema.safeParse(input);
    if (!result.success) {
      const fields = fieldErrors(result.error);
      const first = Object.values(fields)[0] ?? 'Invalid input';
      return next(badRequest(first, fields));
    }
    parsed.set(req, result.data);
    // Express 5 makes req.query a getter; define it over.
    if (part === 'query') Object.defineProperty(req, 'query', { value: result.data, writable: true, configurable: true });
    else req[part] = result.data as never;
    next();
  };
  return Object.assign(mw, {
    data(req: Request): T {
      if (!parsed.has(req)) throw new Error(`validate(${part}) did not run on ${req.method} ${req.originalUrl}`);
      return parsed.get(req)!;
    },
  });
}
