/**
 * What an unexpected error may write to the log (ASVS 5.0 V16.2.5: no personal data or secrets in logs).
 * drizzle's `DrizzleQueryError` puts the query's parameters (e-mails, ID numbers, password hashes, tokens)
 * into its message and therefore into its stack, and PostgreSQL's own messages and `detail` echo values
 * ('Key (email)=(…) already exists', 'invalid input syntax for type integer: "…"'). So a database error is
 * logged as: the SQL text with its `$n` placeholders, the SQLSTATE code and the constraint/table/column/routine
 * names — never parameters, message text or detail — followed by the stack frames.
 */

const FIELDS = ['code', 'severity', 'constraint', 'table', 'column', 'routine'] as const;

/** Stack frames only ('    at …' lines), without the message line(s) that open a stack. */
function frames(err: unknown): string {
  const stack = typeof (err as Error)?.stack === 'string' ? (err as Error).stack! : '';
  return stack.split('\n').filter((l) => /^\s+at /.test(l)).join('\n');
}

/**
 * True for an error raised by the database driver (pg, PGlite): it carries a five-character SQLSTATE `code` and one of
 * PostgreSQL's `severity` / `routine` / `position` fields. Not drizzle's DrizzleQueryError wrapper (that has `query`
 * and `params`; its `cause` is the driver's error). Used by describeErrorForLog and outbox.ts's describeSendError.
 */
export function isDatabaseError(e: any): boolean {
  return Boolean(e) && typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && ('severity' in e || 'routine' in e || 'position' in e);
}

function describeDatabaseError(e: any): string {
  const parts = FIELDS.filter((f) => e[f]).map((f) => `${f}=${String(e[f])}`);
  return `${e.name ?? 'DatabaseError'} (${parts.join(' ')})`;
}

/** One log entry for `err`, safe to write: see the module comment. */
export function describeErrorForLog(err: unknown): string {
  const e = err as any;
  if (!e || typeof e !== 'object') return String(err);
  if (typeof e.query === 'string' && 'params' in e) {
    const cause = e.cause ? `\ncaused by ${isDatabaseError(e.cause) ? describeDatabaseError(e.cause) : (e.cause.name ?? 'Error')}` : '';
    return `${e.name ?? 'DrizzleQueryError'}: Failed query: ${e.query}${cause}\n${frames(e)}`;
  }
  if (isDatabaseError(e)) return `${describeDatabaseError(e)}\n${frames(e)}`;
  return e.stack ?? `${e.name}: ${e.message}`;
}
