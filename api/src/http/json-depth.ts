/**
 * JSON nesting limit (ASVS 5.0 V2.2.1, V16.5.3): body-parser builds any depth, but recursive code after it
 * (zod, structuredClone, drizzle's JSON columns) overflows the stack on a body like `[[[[…]]]]` and the
 * request ended as a 500. Bodies nested deeper than `MAX_JSON_DEPTH` levels are refused with
 * 400 `invalid_json` before any handler sees them. The walk is iterative, so it cannot overflow itself.
 */
import type { RequestHandler } from 'express';
import { HttpError } from './errors.ts';

/** Deepest object/array nesting a request body may have; the deepest real form (an application) uses 4. */
export const MAX_JSON_DEPTH = 32;

/** Nesting depth of a parsed JSON value (a scalar is 0, `{}` is 1), stopping once it exceeds `limit`. */
export function jsonDepth(value: unknown, limit = Infinity): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const depth = d + 1;
    if (depth > max) max = depth;
    if (max > limit) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth]);
  }
  return max;
}

/** Middleware after express.json(): 400 when the parsed body nests deeper than MAX_JSON_DEPTH. */
export const jsonDepthLimit: RequestHandler = (req, _res, next) => {
  if (req.body && typeof req.body === 'object' && jsonDepth(req.body, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    return next(new HttpError(400, 'invalid_json', 'The request body is nested too deeply'));
  }
  next();
};
