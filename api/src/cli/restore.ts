/**
 * `npm run restore -- FILE --data-dir DIR [--url postgres://… [--allow-superuser]]`
 * Restores an archive of `npm run backup` into DIR, a new or empty folder (refused otherwise): an embedded-database
 * backup becomes DIR/pgdata; a PostgreSQL backup is restored with pg_restore into --url, a new empty database, only
 * the portal's own objects, as a role that is not a superuser (refused otherwise unless --allow-superuser, which
 * prints a warning). Objects in the dump the portal does not create (an extension or table a DBA added) are left
 * out, and named on one line "Left out, not part of the portal: …". --url must be a new database: one with any
 * schema, extension, table, function or type is refused before anything runs ("not an empty database: …"). An
 * archive holding links or names a backup never has is refused (restoreBackup). Every
 * document is checked against the manifest's SHA-256 before anything is written, and goes to DIR/uploads; with the
 * nodes' S3 document store settings (DOCUMENT_STORE=s3 or S3_BUCKET, and S3_*: nodesS3Store) it is written into that
 * bucket instead, through the document store's S3 driver, which must hold no object at all (refused before anything
 * runs: "… is not empty …"); a failure while writing deletes what it wrote, undoes the database and says how many
 * were written and to run the restore again. Every
 * session of the restored copy is ended (logins ended after the backup stay ended). Then start the portal with
 * DATA_DIR=DIR (and DATABASE_URL=--url, with the same SESSION_SECRET as the backed-up nodes, or none when they used
 * the generated one: printed, session-secret-hint.ts); its migrations bring an older backup up to date. Relative FILE,
 * DIR and --erasures-from folder are taken from the folder the command was typed in (resolveFromStartDir: INIT_CWD). With --erasures-from (the
 * DATA_DIR or postgres:// URL of the database in use) every person erased and every account deleted there since the
 * backup is erased or deleted again in the copy (reapplyErasuresFrom; privacy audit F2), accounts matched by id and
 * created_at; the accounts it erases and deletes are printed first. A source that is not this backup's database is
 * refused: nothing erased, and DIR emptied again (the copy would bring back the people erased since). Exit 0 on
 * success, 1 on a failure (DIR left as it was; the message only, and the stack of an unexpected error with DEBUG=1),
 * 2 on a usage error (api/src/db/backup.ts).
 * Until the restore (and --erasures-from) has finished, three markers say so: DIR/RESTORE-INCOMPLETE, the table
 * restore_incomplete in the database, and (documents into S3) the object RESTORE-INCOMPLETE in the bucket; every node
 * refuses to start, and backup, admin:create, check:documents and db:to-postgres refuse, while any is there
 * (db/restore-marker.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BackupError, clearRestoreMarkers, describeStore, maskSecrets, reapplyErasuresFrom, restoreBackup } from '../db/backup.ts';
import { ConfigError, resolveFromStartDir } from '../config.ts';
import { nodesS3Store } from './nodes-s3-store.ts';
import { copiedSessionSecret, sessionSecretAdvice } from './session-secret-hint.ts';
import { deleteBucketMarker, RESTORE_MARKER, writeRestoreMarker } from '../db/restore-marker.ts';
import type { ErasureTarget } from '../features/erasure/erasure.service.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'data-dir': { type: 'string' }, url: { type: 'string' }, 'erasures-from': { type: 'string' }, 'allow-superuser': { type: 'boolean' } } });
if (positionals.length !== 1 || !values['data-dir']) {
  console.error('usage: npm run restore -- college-2026-11-26.tgz --data-dir /srv/college-data [--url postgres://…/new_empty_db [--allow-superuser]] [--erasures-from <DATA_DIR or postgres://… of the database in use>]   (documents into S3: DOCUMENT_STORE=s3 and S3_* as for npm start, an empty bucket)');
  process.exit(2);
}
// Relative paths are taken from the folder the command was typed in (npm runs the script from the checkout).
const dataDir = resolveFromStartDir(values['data-dir']);
const archive = resolveFromStartDir(positionals[0]);
const erasuresFrom = values['erasures-from'] && (/^postgres(ql)?:\/\//.test(values['erasures-from']) ? values['erasures-from'] : resolveFromStartDir(values['erasures-from']));
const dataDirExisted = fs.existsSync(dataDir);
const secrets = [values.url && safePassword(values.url), values['erasures-from'] && safePassword(values['erasures-from']), process.env.S3_SECRET_ACCESS_KEY || undefined];
if (values['allow-superuser']) {
  console.warn('WARNING: --allow-superuser: if --url is a superuser, pg_restore runs the SQL in this archive with the power to run programs and read or write files on the database server. Use it only for an archive you made and kept safe yourself.');
}
try {
  const store = await nodesS3Store(dataDir);
  if (store) console.info(`Documents go to ${describeStore(store)}${process.env.S3_ENDPOINT ? ` at ${process.env.S3_ENDPOINT}` : ''} (DOCUMENT_STORE=s3), not to ${path.join(dataDir, 'uploads')}.`);
  // With --erasures-from the copy is not finished until the erasures are carried out: the marker stays until then.
  const r = await restoreBackup(archive, dataDir, { url: values.url, allowSuperuser: values['allow-superuser'], store, keepMarker: Boolean(values['erasures-from']) });
  console.info(`Restored into ${values['data-dir']}: ${r.kind} database, ${r.documents} document(s)${store ? ` written into ${describeStore(store)}` : ''}; ${r.sessionsEnded} session(s) ended (everyone logs in again).`);
  if (r.leftOut.length) console.warn(`Left out, not part of the portal: ${r.leftOut.join(', ')}. Their SQL was not run; restore them by hand from the archive's database.dump (pg_restore) if they are still wanted.`);
  if (r.missing) console.warn(`WARNING: ${r.missing} upload(s) had no document already when the backup was taken; their downloads answer 404.`);
  if (values['erasures-from']) {
    const list = (targets: ErasureTarget[]) => targets.map((u) => `user ${u.id} (created ${u.createdAt})`).join(', ') || 'none';
    let e;
    try {
      e = await reapplyErasuresFrom(erasuresFrom as string, dataDir, {
        url: values.url,
        store,
        onPlan: (plan) => console.info(`Erasing again: ${list(plan.erased)}.\nDeleting again (accounts deleted since the backup): ${list(plan.deleted)}.`),
      });
    } catch (err) {
      // The copy still holds the people erased since the backup: it must not be started. DIR was empty or missing.
      if (dataDirExisted) for (const name of fs.readdirSync(dataDir)) fs.rmSync(path.join(dataDir, name), { recursive: true, force: true });
      else fs.rmSync(dataDir, { recursive: true, force: true });
      // …and so do the documents written into the bucket (those of the people erased since among them).
      const left: string[] = [];
      if (store) {
        for (const key of r.writtenKeys) await store.delete(key).catch(() => { left.push(key); });
        // The bucket's marker goes last, and only when every document went: else nodes on the bucket keep refusing.
        if (!left.length) await deleteBucketMarker(store).catch(() => { left.push(RESTORE_MARKER); });
        console.error(left.length
          ? `${left.length} of the ${r.writtenKeys.length} document(s) this restore wrote into ${describeStore(store)} could not be deleted (${left.slice(0, 3).join(', ')}${left.length > 3 ? ', …' : ''}): delete them (or every object in the bucket) before the next restore.`
          : `The ${r.writtenKeys.length} document(s) this restore wrote into ${describeStore(store)} were deleted again.`);
      }
      if (values.url) console.error('The database in --url holds the restored copy without these erasures: drop it and create it again (dropdb, createdb) before the next restore.');
      // Documents that could not be deleted from the bucket, or a --url database that still holds the people erased
      // since the backup: DIR keeps the marker, so `npm start` refuses it until both are emptied.
      if ((store && left.length) || values.url) {
        fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
        writeRestoreMarker(dataDir, [
          'The --erasures-from step was refused.',
          values.url ? 'The database in --url holds the restored copy with the people erased since the backup: drop it and create it again.' : '',
          store && left.length ? `${left.length} document(s) in ${describeStore(store)} could not be deleted again.` : '',
        ].filter(Boolean).join(' '));
      }
      throw err;
    }
    // The database's table, the bucket's object, then DIR's file: the copy is finished.
    await clearRestoreMarkers(dataDir, { url: values.url, store });
    console.info(`Erasures made since the backup carried out again: ${e.erased.length} person(s) erased, ${e.deleted.length} deleted account(s) removed.`);
    if (e.reusedIds.length) console.warn(`WARNING: left alone, because ${maskSecrets(values['erasures-from'], secrets)} gave their ids to other accounts (after an earlier restore): ${list(e.reusedIds)}.`);
  } else {
    console.warn('WARNING: people erased (or accounts deleted) after this backup was taken are back in the restored copy. Run the restore with --erasures-from <DATA_DIR or postgres://… of the database in use> to carry those erasures out again.');
  }
  // The nodes must use the bucket the documents were written into.
  const storeEnv = store ? ` DOCUMENT_STORE=s3 S3_BUCKET=${shellQuote(process.env.S3_BUCKET ?? '')}${process.env.S3_ENDPOINT ? ` S3_ENDPOINT=${shellQuote(process.env.S3_ENDPOINT)}` : ''} S3_…=<the same as for this restore>` : '';
  if (values.url) {
    // The copy keeps the fingerprint of the secret the backed-up nodes signed sessions with: another one is refused.
    const copied = await copiedSessionSecret(values.url).catch(() => 'unknown' as const);
    console.info(`Start it with: DATA_DIR=${shellQuote(dataDir)} DATABASE_URL=…${storeEnv}${copied === 'configured' ? ' SESSION_SECRET=<the same as before>' : ''} npm start`);
    console.info(sessionSecretAdvice(copied, 'the backed-up nodes'));
  } else {
    console.info(`Start it with: DATA_DIR=${shellQuote(dataDir)}${storeEnv} npm start`);
  }
} catch (err: any) {
  // The message only, masked: the --url password must never reach the console, and a stack of an unexpected error
  // can carry a query's parameters (drizzle's `params:`, a person's e-mail). DEBUG=1 prints the stack too.
  const message = err instanceof BackupError || err instanceof ConfigError ? err.message : String(err?.message ?? err).replace(/\nparams:[\s\S]*$/, '');
  console.error(`Not restored: ${maskSecrets(message, secrets)}`);
  if (process.env.DEBUG && !(err instanceof BackupError)) console.error(maskSecrets(String(err?.stack ?? err), secrets));
  process.exit(1);
}

/** `s` as one word for a POSIX shell: unchanged when plain, else in single quotes (a `'` as `'\''`). */
function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The password of connection URL `url`, or undefined (also when it does not parse). */
function safePassword(url: string): string | undefined {
  try { return decodeURIComponent(new URL(url).password) || undefined; } catch { return undefined; }
}
