/**
 * `npm run check:documents`
 * Looks up the document of every upload row in the document store of DATA_DIR / DATABASE_URL / S3_* (as npm start
 * would) and lists the rows whose document is missing (id, store key, owner, created) — a database restored without
 * its documents, or documents lost (api/src/storage/document-check.ts). Reads only. On the embedded database stop the
 * server first (one process at a time). Exit 0 when every document is there, 1 when any is missing or on a failure,
 * and 1 while a restore into the college has not finished (DATA_DIR/RESTORE-INCOMPLETE, the table restore_incomplete, the
 * bucket's RESTORE-INCOMPLETE: restoreMarkerRefusal), checked before the database is opened; exit 1 too when that check
 * fails other than by "cannot connect yet" (cannotConnectYet: a refused login, no CONNECT privilege, an S3 error).
 */
import { ConfigError, loadConfig } from '../config.ts';
import { DataDirInUseError, openDatabase } from '../db/client.ts';
import { restoreMarkerRefusal } from '../db/backup.ts';
import { cannotConnectYet } from '../db/restore-marker.ts';
import { markerCheckFailed } from './marker-check-failed.ts';
import { createDocumentStore } from '../storage/document-store.ts';
import { checkDocuments, describeStore } from '../storage/document-check.ts';

let config;
try { config = loadConfig(); } catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}
// A half-restored college's missing documents are the restore's, not lost ones: the restore must be run again.
const unfinishedRestore = await restoreMarkerRefusal({ dataDir: config.dataDir, url: config.DATABASE_URL, store: await createDocumentStore(config) })
  // Unreachable yet: openDatabase and the store's own reads below say so in their own words. Anything else: refused.
  .catch((err: any) => {
    if (cannotConnectYet(err)) return undefined;
    console.error(`Documents not checked: ${markerCheckFailed(err)}`);
    process.exit(1);
  });
if (unfinishedRestore) {
  console.error(`Documents not checked: ${unfinishedRestore}`);
  process.exit(1);
}
const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir }).catch((err) => {
  if (!(err instanceof DataDirInUseError || err instanceof ConfigError)) throw err;
  console.error(err instanceof DataDirInUseError ? `${err.message}\nStop \`npm start\` and run this again.` : err.message);
  process.exit(1);
});
try {
  const store = await createDocumentStore(config);
  const result = await checkDocuments(database.db, store, { concurrency: 16 });
  for (const m of result.missing) console.info(`missing: upload ${m.id} (key ${m.key}, user ${m.userId}, uploaded ${m.createdAt.toISOString()})`);
  console.info(`${result.missing.length} of ${result.checked} documents checked are missing from ${describeStore(store)}.`);
  process.exitCode = result.missing.length ? 1 : 0;
} finally { await database.close(); }
