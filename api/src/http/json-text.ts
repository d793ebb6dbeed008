/**
 * Text a database can store (ASVS 5.0 V2.2.1 input validation): PostgreSQL refuses the NUL character (U+0000) in
 * text and JSON, and a lone UTF-16 surrogate (half of an emoji, say) in JSON, so such a request ended as a 500 —
 * a profile, a course, a contact message, a draft, NSC results, settings. Every string of a parsed JSON body, keys
 * included, is checked once here, after express.json(), and such a body is refused with 400 `validation_error`
 * naming the field, before any handler or rate limiter sees it. Query strings likewise (`storableQueryText`): a
 * NUL in an admin search (`?q=%00`) reached PostgreSQL and ended as a 500.
 */
import type { RequestHandler } from 'express';
import { badRequest } from './errors.ts';

/** The message on the field (and of the answer) for text with a character that cannot be stored. */
export const UNSTORABLE_TEXT = 'This text contains a character that cannot be saved. Please remove it and try again.';

const storable = (s: string) => !s.includes('\u0000') && s.isWellFormed();

/** The dotted path ('firstName', 'data.a', 'nscResults.0.name') of the first string or key that cannot be stored, or null. */
export function unstorableTextPath(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') { if (!storable(v)) return path; continue; }
    if (v === null || typeof v !== 'object') continue;
    for (const [k, child] of Object.entries(v)) {
      const at = path ? `${path}.${k}` : k;
      if (!storable(k)) return at;
      stack.push([child, at]);
    }
  }
  return null;
}

/** Middleware after express.json(): 400 with `fields[path]` = UNSTORABLE_TEXT when the body holds such text. */
export const storableJsonText: RequestHandler = (req, _res, next) => {
  const at = req.body && typeof req.body === 'object' ? unstorableTextPath(req.body) : null;
  if (at !== null) return next(badRequest(UNSTORABLE_TEXT, { [at.replace(/[^\x20-\x7e]/g, '?') || 'body']: UNSTORABLE_TEXT }));
  next();
};

/** Middleware for /api: 400 with `fields[name]` = UNSTORABLE_TEXT when a query-string value holds such text. */
export const storableQueryText: RequestHandler = (req, _res, next) => {
  const at = req.query && typeof req.query === 'object' ? unstorableTextPath(req.query) : null;
  if (at !== null) return next(badRequest(UNSTORABLE_TEXT, { [at.replace(/[^\x20-\x7e]/g, '?').replace(/\.\d+$/, '') || 'query']: UNSTORABLE_TEXT }));
  next();
};
