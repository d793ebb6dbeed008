/**
 * The rows of a raw `db.execute(sql…)` result. Both drivers answer `{ rows }` (node-postgres QueryResult, PGlite
 * Results), but Db is typed over drizzle's generic PgQueryResultHKT, whose result kind is `unknown`: this checks the
 * shape once, here, instead of a cast at every raw query. `T` is the row shape the query's SELECT/RETURNING list
 * names (the caller's word, as with any SQL text). Throws when the result has no `rows` array (a driver answering in
 * another shape).
 */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  const rows = typeof result === 'object' && result !== null && 'rows' in result ? result.rows : undefined;
  if (!Array.isArray(rows)) throw new Error('database: a raw query answered without rows');
  return rows as T[];
}
