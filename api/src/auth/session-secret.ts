/**
 * The secret that signs session cookies and ALTCHA challenges (ASVS 5.0 V13.3: secrets are not in source code).
 * SESSION_SECRET when it is set; otherwise a random 32-byte value (64 hex characters) that the first node to start
 * generates and keeps in the database table `app_secrets`. Every node on the same database then signs the same way,
 * and logins survive a restart. (An unset SESSION_SECRET used to mean a fixed string from this repository, so anyone
 * could sign cookies and solve-free challenges for a site started with the README's plain `npm start`.)
 *
 * Nodes that sign differently (one with SESSION_SECRET and one without, or two different secrets) answer one cookie
 * 200 and 401 by turns behind a balancer. So the database also keeps a fingerprint of the secret in use (`app_secrets`
 * row `session-fingerprint`: HMAC-SHA256 of a constant keyed with the secret, never the secret itself), and a node
 * whose secret has another fingerprint refuses to start on PostgreSQL, unless SESSION_SECRET_ROTATE=1 says the change
 * is meant (README "Running several nodes"). On the embedded database (one process) a changed secret simply replaces it.
 */
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { appSecrets } from '../db/schema/system.ts';
import { ConfigError } from '../config.ts';

const NAME = 'session';
const FINGERPRINT = 'session-fingerprint';

/** Fingerprint of `secret`: hex HMAC-SHA256 of a fixed label keyed with it (it tells secrets apart, and reveals none). */
export function secretFingerprint(secret: string): string {
  return crypto.createHmac('sha256', secret).update('college session secret fingerprint v1').digest('hex');
}

/**
 * The secret this node signs with: `configured` when given; else the stored secret, created on first use
 * (insert-if-absent, so two nodes starting at once agree on one value). Then compares its fingerprint with the stored
 * one (stored if absent): on a mismatch, `rotate` or `shared: false` (embedded database) replaces the stored fingerprint
 * (the previous secret's sessions end); otherwise throws ConfigError naming SESSION_SECRET and SESSION_SECRET_ROTATE.
 * Run it under `Database.exclusive` at start-up. Throws when the database cannot be read or written.
 */
export async function resolveSessionSecret(db: Db, configured: string | undefined, opts: { rotate?: boolean; shared?: boolean } = {}): Promise<string> {
  const secret = configured || await storedSecret(db);
  const fingerprint = secretFingerprint(secret);
  await db.insert(appSecrets).values({ name: FINGERPRINT, value: fingerprint }).onConflictDoNothing();
  const [row] = await db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.name, FINGERPRINT)).limit(1);
  if (row?.value === fingerprint) return secret;
  if (opts.rotate || opts.shared === false) {
    await db.update(appSecrets).set({ value: fingerprint, createdAt: new Date() }).where(eq(appSecrets.name, FINGERPRINT));
    console.warn(`[session] the session secret changed${opts.rotate ? ' (SESSION_SECRET_ROTATE)' : ''}: sessions signed with the previous one have ended.${opts.rotate ? ' Remove SESSION_SECRET_ROTATE, and restart the other nodes with the same SESSION_SECRET.' : ''}`);
    return secret;
  }
  throw new ConfigError(`${configured ? 'SESSION_SECRET differs from the secret that the other nodes on this database sign sessions with' : 'SESSION_SECRET is not set on this node, but the other nodes on this database sign sessions with a SESSION_SECRET'} (its fingerprint is stored in app_secrets). `
    + 'Every node needs the same SESSION_SECRET, or logins work on one node and not the other. To change the secret on purpose, '
    + 'start one node once with the new SESSION_SECRET and SESSION_SECRET_ROTATE=1, then restart the others with the new secret.');
}

/** The generated secret kept in `app_secrets` (created on first use). */
async function storedSecret(db: Db): Promise<string> {
  await db.insert(appSecrets).values({ name: NAME, value: crypto.randomBytes(32).toString('hex') }).onConflictDoNothing();
  const [row] = await db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.name, NAME)).limit(1);
  if (!row) throw new Error('The session secret could not be stored in the database');
  return row.value;
}
