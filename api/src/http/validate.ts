/**
 * validate(): route middleware that parses req.body / req.query / req.params with a zod schema and
 * replaces them with the parsed value. On failure: 400 with a field map, first message per field.
 */
import type { RequestHandler } from 'express';
import type { ZodError } from 'zod';
import { badRequest } from './errors.ts';

/** Field path 'a.b.0' → first message. */
export function fieldErrors(error: Pick<ZodError, 'issues'>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_';
    if (!(key in fields)) fields[key] = issue.message;
  }
  return fields;
}

type Part = 'body' | 'query' | 'params';

/** Any zod schema, classic or `zod/mini` (both have safeParse). */
export interface SafeParser { safeParse(input: unknown): { success: true; data: unknown } | { success: false; error: Pick<ZodError, 'issues'> } }

export function validate(schema: SafeParser, part: Part = 'body'): RequestHandler {
  return (req, _res, next) => {
    const input = part === 'body' ? (req.body ?? {}) : req[part];
    const result = schema.safeParse(input);
    if (!result.success) {
      const fields = fieldErrors(result.error);
      const first = Object.values(fields)[0] ?? 'Invalid input';
      return next(badRequest(first, fields));
    }
    if (part === 'query') Object.defineProperty(req, 'query', { value: result.data, writable: true, configurable: true });
    else (req as any)[part] = result.data;
    next();
  };
}
