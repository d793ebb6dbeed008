/**
 * `npm run db:to-postgres -- --data-dir .data --url postgres://user@host:5432/college`
 * Moves a college from the embedded database (DATA_DIR/pgdata; stop `npm start` first) into a new, empty PostgreSQL
 * database (`createdb college`; refused when it has tables): migrates both, copies every table in one transaction,
 * moves the sequences and compares the row counts (api/src/db/to-postgres.ts). The documents are not moved: copy
 * DATA_DIR/uploads to the new node's DATA_DIR (or to S3). The session secret's fingerprint is copied too: the printed
 * hint says to start with the same SESSION_SECRET, or none (session-secret-hint.ts). A relative --data-dir is taken from
 * the folder the command was typed in (resolveFromStartDir). Exit 0 when copied, 1 on a failure, 2 on a usage error.
 * Refused (exit 1, nothing copied) while a restore into the college has not finished: --data-dir's RESTORE-INCOMPLETE,
 * the table restore_incomplete in its embedded database (restoreMarkerRefusal) and, when the college's documents are in
 * S3 (the nodes' DOCUMENT_STORE / S3_* variables set for this command: nodesS3Store), the object RESTORE-INCOMPLETE at
 * the bucket's root (one HeadObject), as `npm run backup` asks it: a restore run into that bucket from another host
 * marks only the bucket. A bucket that cannot be asked refuses too (exit 1), naming the S3 error.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BackupError, bucketMarkerOrRefuse, restoreMarkerRefusal } from '../db/backup.ts';
import { copyToPostgres } from '../db/to-postgres.ts';
import { ConfigError, resolveFromStartDir } from '../config.ts';
import { nodesS3Store } from './nodes-s3-store.ts';
import { copiedSessionSecret, sessionSecretAdvice } from './session-secret-hint.ts';

const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, url: { type: 'string' } } });
if (!values['data-dir'] || !values.url || !/^postgres(ql)?:\/\//.test(values.url)) {
  console.error('usage: npm run db:to-postgres -- --data-dir .data --url postgres://user@host:5432/college   (a new database: createdb college)');
  process.exit(2);
}
// A relative --data-dir is taken from the folder the command was typed in (npm runs the script from the checkout).
const dataDir = resolveFromStartDir(values['data-dir']);
try {
  const store = await nodesS3Store(dataDir);
  const unfinishedRestore = await restoreMarkerRefusal({ dataDir }) ?? (store && await bucketMarkerOrRefuse(store, 'nothing was copied'));
  if (unfinishedRestore) throw new BackupError(unfinishedRestore);
  const r = await copyToPostgres(dataDir, values.url);
  console.info(`Copied ${Object.keys(r.tables).length} tables, ${r.rows} rows; row counts match.`);
  // app_secrets came along: the nodes must sign sessions with the embedded database's secret, or they are refused.
  const copied = await copiedSessionSecret(values.url).catch(() => 'unknown' as const);
  console.info(`Now copy ${path.join(dataDir, 'uploads')} to the new node's DATA_DIR/uploads (or to S3), and start it with DATABASE_URL set${copied === 'configured' ? ' and the same SESSION_SECRET as the embedded database was last started with' : copied === 'generated' ? ' and without SESSION_SECRET' : ''}.`);
  console.info(sessionSecretAdvice(copied, 'the embedded database'));
} catch (err: any) {
  if (!(err instanceof BackupError || err instanceof ConfigError)) {
    console.error(err);
    console.error('Not copied. If the target database now has (empty) tables, drop and create it again before retrying.');
    process.exit(1);
  }
  console.error(`Not copied: ${err.message}`);
  process.exit(1);
}
