/**
 * `npm run backup -- --out FILE`
 * Writes one archive (gzip'd tar) of the college in DATA_DIR / DATABASE_URL: the database, the documents from the
 * document store, and a manifest of every upload's id and SHA-256 (api/src/db/backup.ts). On the embedded database
 * (npm start) stop the server first: the backup refuses while it runs. On PostgreSQL it needs `pg_dump` and may run
 * at any time, and warns about objects in the database the portal does not create (a restore leaves them out). Exit 0 when written (documents already missing from the store are listed, not fatal), 1 on a
 * failure, 2 on a usage error. Restore with `npm run restore` (api/src/cli/restore.ts).
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { BackupError, createBackup, maskSecrets } from '../db/backup.ts';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
if (!values.out) {
  console.error('usage: npm run backup -- --out college-$(date +%F).tgz   (DATA_DIR / DATABASE_URL / S3_* as for npm start)');
  process.exit(2);
}
try {
  const summary = await createBackup(loadConfig(), values.out);
  console.info(`Backup written: ${summary.file} (${(summary.bytes / 1e6).toFixed(1)} MB; ${summary.kind} database, ${summary.documents} document(s))`);
  if (summary.notPortal.length) console.warn(`WARNING: the database holds objects the portal does not create: ${summary.notPortal.join(', ')}. They are in the archive, but npm run restore leaves them out: they will not be restored.`);
  if (summary.missing) console.warn(`WARNING: ${summary.missing} upload(s) had no document in the store when the backup was taken (listed in the manifest's "missing"); npm run check:documents names them.`);
} catch (err: any) {
  // An unexpected error is printed too, but masked: the connection URL and its password must never reach the console.
  const known = err instanceof BackupError || err instanceof ConfigError;
  console.error(`Backup not written: ${maskSecrets(known ? err.message : String(err?.stack ?? err), [process.env.DATABASE_URL && safePassword(process.env.DATABASE_URL)])}`);
  process.exit(1);
}

/** The password of connection URL `url`, or undefined (also when it does not parse). */
function safePassword(url: string): string | undefined {
  try { return decodeURIComponent(new URL(url).password) || undefined; } catch { return undefined; }
}
