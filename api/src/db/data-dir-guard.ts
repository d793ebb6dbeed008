/**
 * A DATA_DIR with documents but no embedded database (backup and restore audit: a folder copied or restored without
 * `pgdata/` started silently as a brand-new, empty college beside the real documents, and the next uploads mixed in).
 * openDatabase (api/src/db/client.ts) calls `assertNotOrphanedDocuments` before it would create `pgdata/`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config.ts';

/** The DATA_DIR folders whose files belong to an existing college's database (documents, mail and SMS outboxes). */
const COLLEGE_FOLDERS = ['uploads', 'outbox', 'sms-outbox'];

/** True when `dir` (recursively) holds at least one file; a missing folder holds none. */
function holdsFiles(dir: string): boolean {
  let entries: fs.Dirent[];
  try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return false; }
  return entries.some((e) => (e.isDirectory() ? holdsFiles(path.join(dir, e.name)) : true));
}

/**
 * Throws ConfigError ("DATA_DIR has documents but no database (pgdata/ is missing): …", printed by server.ts as one
 * "Cannot start:" line) when `dataDir` has no embedded database yet (`pgdata/PG_VERSION` missing) while its
 * `uploads/`, `outbox/` or `sms-outbox/` hold files: creating a new database there would start an empty college
 * beside another college's documents. A fresh DATA_DIR (none of them, or only empty folders) passes.
 */
export function assertNotOrphanedDocuments(dataDir: string): void {
  if (fs.existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'))) return;
  const found = COLLEGE_FOLDERS.filter((f) => holdsFiles(path.join(dataDir, f)));
  if (!found.length) return;
  throw new ConfigError(`DATA_DIR ${dataDir} has documents but no database (pgdata/ is missing; ${found.map((f) => `${f}/`).join(', ')} hold files): `
    + 'restore pgdata/ from the backup (npm run restore), or move the documents away to start an empty college.');
}
