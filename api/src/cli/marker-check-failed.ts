/**
 * The words of admin:create and check:documents when their check for an unfinished restore (restoreMarkerRefusal)
 * fails other than by "cannot connect yet" (cannotConnectYet, db/restore-marker.ts): the database server or the
 * bucket answered, but the markers could not be read, so the command stops before it opens (and migrates) anything.
 */

/**
 * `asking for an unfinished restore (npm run restore) failed: <code> <message>. Nothing was changed. …` for `err`
 * (a pg error's SQLSTATE, a Node error's code, or an S3 error's name; then its message), with what to check.
 */
export function markerCheckFailed(err: any): string {
  const code = err?.code ?? (err?.$metadata ? err?.name : undefined);
  return `asking for an unfinished restore (npm run restore) failed: ${code ? `${code} ` : ''}${err?.message ?? err}. Nothing was changed. Check DATABASE_URL (user, password, database name; its role may connect to the database) and, on S3, the S3_* settings (the credentials need s3:GetObject and s3:ListBucket).`;
}
