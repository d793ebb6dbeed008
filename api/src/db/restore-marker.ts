/**
 * The marker of an unfinished restore (review of aade6f1): `npm run restore` writes `DATA_DIR/RESTORE-INCOMPLETE`
 * into the folder it restores into before it loads the database, and removes it only at the very end, after a
 * success or after a failure it undid completely. A restore killed meanwhile (Ctrl-C, out of memory) leaves a loaded
 * database and a half-filled bucket; the marker makes `npm start` refuse that DATA_DIR (server.ts) and makes the next
 * restore's refusals say what to empty. Synchronous: written and read once per run.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The marker's file name in DATA_DIR. */
export const RESTORE_MARKER = 'RESTORE-INCOMPLETE';

/** `dataDir/RESTORE-INCOMPLETE`. */
export const restoreMarkerPath = (dataDir: string): string => path.join(dataDir, RESTORE_MARKER);

/**
 * Writes the marker into `dataDir` (which must exist), mode 0600, with `details` (what the restore writes into: the
 * archive, the database, the bucket; no secret) and the time. Throws on I/O errors.
 */
export function writeRestoreMarker(dataDir: string, details: string): void {
  fs.writeFileSync(restoreMarkerPath(dataDir), `npm run restore started at ${new Date().toISOString()} and has not finished.\n${details}\n`, { mode: 0o600 });
}

/** Removes the marker from `dataDir` (a missing one is not an error). */
export function clearRestoreMarker(dataDir: string): void {
  fs.rmSync(restoreMarkerPath(dataDir), { force: true });
}

/** True when `dataDir` holds the marker. */
export function hasRestoreMarker(dataDir: string): boolean {
  return fs.existsSync(restoreMarkerPath(dataDir));
}

/**
 * What to tell the operator when `dataDir` holds the marker (the start-up refusal: ConfigError in server.ts), or
 * undefined when it does not. Quotes the marker's first lines (what the restore was writing into).
 */
export function incompleteRestoreMessage(dataDir: string): string | undefined {
  if (!hasRestoreMarker(dataDir)) return undefined;
  let details = '';
  try { details = fs.readFileSync(restoreMarkerPath(dataDir), 'utf8').trim().split('\n').slice(0, 6).join(' '); } catch { /* unreadable: the name says enough */ }
  return `${restoreMarkerPath(dataDir)} exists: a restore (npm run restore) into this DATA_DIR did not finish (it was interrupted, or what it had written could not be removed again), so the database and the document store may hold half a college${details ? ` (${details})` : ''}. Do not start it: empty this folder, the database in DATABASE_URL (dropdb, createdb) and the S3 bucket the restore wrote into, then run the restore again.`;
}
