/**
 * `npm run backup -- --out FILE`
 * Writes one archive (gzip'd tar) of the college in DATA_DIR / DATABASE_URL: the database, the documents from the
 * document store, and a manifest of every upload's id and SHA-256 (api/src/db/backup.ts). On the embedded database
 * (npm start) stop the server first: the backup refuses while it runs. On PostgreSQL it needs `pg_dump` and may run
 * at any time, and warns about objects in the database the portal does not create (a restore leaves them out).
 * A relative --out is taken from the folder the command was typed in (resolveFromStartDir: npm runs it from the checkout).
 *
 * Upload rows whose document is not in the store make the backup INCOMPLETE: exit 1 (a backup that lacks documents the
 * database references is not a success; operations audit: a PostgreSQL backup run without the nodes' S3_* settings
 * looked in DATA_DIR/uploads, wrote 0 of 40 documents and exited 0). When none is found, the message says the document
 * store settings (DOCUMENT_STORE / S3_*, DATA_DIR) are probably not the nodes'. The archive is kept: its database is
 * complete and may be the newest copy there is, and deleting it could leave none; the exit code keeps a script
 * (`backup && upload`) from taking it for a good backup. `--allow-missing`: documents known lost (npm run
 * check:documents lists them) are listed but exit 0, so scheduled backups go on. Exit 0 when written complete, 1 on a
 * failure or an incomplete backup, 2 on a usage error. Restore with `npm run restore` (api/src/cli/restore.ts).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, resolveFromStartDir } from '../config.ts';
import { BackupError, createBackup, maskSecrets } from '../db/backup.ts';

const { values } = parseArgs({ options: { out: { type: 'string' }, 'allow-missing': { type: 'boolean' } } });
if (!values.out) {
  console.error('usage: npm run backup -- --out college-$(date +%F).tgz [--allow-missing]   (DATA_DIR / DATABASE_URL / DOCUMENT_STORE / S3_* as for npm start)');
  process.exit(2);
}
try {
  const config = loadConfig();
  const summary = await createBackup(config, resolveFromStartDir(values.out));
  if (summary.notPortal.length) console.warn(`WARNING: the database holds objects the portal does not create: ${summary.notPortal.join(', ')}. They are in the archive, but npm run restore leaves them out: they will not be restored.`);
  const written = `Backup written: ${summary.file} (${(summary.bytes / 1e6).toFixed(1)} MB; ${summary.kind} database, ${summary.documents} document(s))`;
  if (!summary.missing) {
    console.info(written);
  } else {
    const store = config.DOCUMENT_STORE === 's3' ? `the S3 bucket ${config.S3_BUCKET}${config.S3_ENDPOINT ? ` at ${config.S3_ENDPOINT}` : ''}` : `the local document store ${path.join(config.dataDir, 'uploads')}`;
    const missing = `${summary.missing} of ${summary.missing + summary.documents} upload(s) the database references had no document in ${store} (listed in the manifest's "missing"; npm run check:documents names them)`;
    const cause = summary.documents ? '' : ` None was found: the document store settings are probably not the nodes' — run the backup with the same DOCUMENT_STORE and S3_* settings (S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE)${config.DOCUMENT_STORE === 'local' ? ' and DATA_DIR' : ''} as the nodes.`;
    if (values['allow-missing']) {
      console.info(written);
      console.warn(`WARNING: ${missing}.${cause}`);
    } else {
      console.error(`Backup INCOMPLETE: ${summary.file} was written (${summary.kind} database, ${summary.documents} document(s)), but ${missing}.${cause} The archive is kept (its database is complete), but it is not a full backup. For documents known to be lost, run with --allow-missing.`);
      process.exitCode = 1;
    }
  }
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
