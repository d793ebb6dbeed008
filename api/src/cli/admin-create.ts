/**
 * `npm run admin:create -- --email E --password P [--first-name F --last-name L]`
 * Creates the admin account, or promotes and resets an existing one (DESIGN §4 Identity). Without --first-name the
 * admin is named after the e-mail's local part ('admin2'); --last-name alone is ignored. An existing account keeps its name.
 * On the embedded database, a DATA_DIR that holds no database yet (no DATA_DIR/pgdata/PG_VERSION) is refused with exit 1:
 * creating one here would make an admin in a new empty college, a mistyped DATA_DIR reported as "Admin ready"
 * (operations audit); `npm start` creates the database. With DATABASE_URL the database is used as it is.
 * While a restore into the college has not finished (DATA_DIR/RESTORE-INCOMPLETE, the table restore_incomplete, the
 * bucket's RESTORE-INCOMPLETE: restoreMarkerRefusal) it is refused with exit 1, before any migration runs; so is a
 * check that fails other than by "cannot connect yet" (cannotConnectYet: a refused login, no CONNECT privilege, an S3
 * error), which used to be swallowed and let the migrations and the admin into a half-restored database.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ConfigError, loadConfig } from '../config.ts';
import { DataDirInUseError, openDatabase } from '../db/client.ts';
import { restoreMarkerRefusal } from '../db/backup.ts';
import { cannotConnectYet } from '../db/restore-marker.ts';
import { markerCheckFailed } from './marker-check-failed.ts';
import { createDocumentStore } from '../storage/document-store.ts';
import { assertNotOrphanedDocuments } from '../db/data-dir-guard.ts';
import { ensureAdmin } from '../features/auth/auth.service.ts';
import { isReservedEmail } from '#contracts/mailbox.ts';

const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' }, 'first-name': { type: 'string' }, 'last-name': { type: 'string' } } });
const parsed = z.object({ email: z.email('--email must be a valid e-mail address').refine((v) => !isReservedEmail(v), '--email must be an address that can receive mail (.invalid addresses cannot)'), password: z.string().min(6, '--password must be at least 6 characters').max(128) }).safeParse(values);
if (!parsed.success) {
  console.error(parsed.error.issues.map((i) => i.message).join('\n'));
  console.error('usage: npm run admin:create -- --email E --password P [--first-name F] [--last-name L]');
  process.exit(2);
}
const config = loadConfig();
if (!config.DATABASE_URL) {
  // Documents without a database have their own, more specific refusal (restore pgdata/ from the backup).
  try { assertNotOrphanedDocuments(config.dataDir); } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`Cannot create the admin: ${err.message}`);
    process.exit(1);
  }
  if (!fs.existsSync(path.join(config.dataDir, 'pgdata', 'PG_VERSION'))) {
    console.error(`Cannot create the admin: ${config.dataDir} holds no database yet (${path.join(config.dataDir, 'pgdata')} does not exist). Check that DATA_DIR is the folder the portal runs with; \`npm start\` creates the database there on its first start, then run this again (or start it with ADMIN_EMAIL and ADMIN_PASSWORD).`);
    process.exit(1);
  }
}
// A half-restored college gets no admin: the restore must be run again from the start.
const unfinishedRestore = await restoreMarkerRefusal({ dataDir: config.dataDir, url: config.DATABASE_URL, store: await createDocumentStore(config) })
  // Unreachable yet: openDatabase below says so in its own words. Any other failure: refused before any migration.
  .catch((err: any) => {
    if (cannotConnectYet(err)) return undefined;
    console.error(`Cannot create the admin: ${markerCheckFailed(err)}`);
    process.exit(1);
  });
if (unfinishedRestore) {
  console.error(`Cannot create the admin: ${unfinishedRestore}`);
  process.exit(1);
}
const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir }).catch((err) => {
  if (err instanceof ConfigError) {
    console.error(`Cannot create the admin: ${err.message}`);
    process.exit(1);
  }
  if (!(err instanceof DataDirInUseError)) throw err;
  console.error(`${err.message}\nStop \`npm start\` and run this again, or start it with ADMIN_EMAIL and ADMIN_PASSWORD.`);
  process.exit(1);
});
// Without --first-name the admin is named after the e-mail (ensureAdmin), so two admins never look alike in a history.
const names = values['first-name'] ? { firstName: values['first-name'], lastName: values['last-name'] ?? '' } : undefined;
const user = await ensureAdmin(database.db, parsed.data.email, parsed.data.password, names);
console.info(`Admin ready: ${user.email} (id ${user.id})`);
await database.close();
