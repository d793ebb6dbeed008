/**
 * The secret that signs session cookies and ALTCHA challenges (ASVS 5.0 V13.3: secrets are not in source code).
 * SESSION_SECRET when it is set; otherwise a random 32-byte value (64 hex characters) that the first node to start
 * generates and keeps in the database table `app_secrets`. Every node on the same database then signs the same way,
 * and logins survive a restart. (An unset SESSION_SECRET used to mean a fixed string from this repository, so anyone
 * could sign cookies and solve-free challenges for a site started with the README's plain `npm start`.)
 */
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { appSecrets } from '../db/schema/system.ts';

const NAME = 'session';

/**
 * `configured` when given; else the stored secret, created on first use (insert-if-absent, so two nodes starting at
 * once agree on one value). Throws when the database cannot be read or written.
 */
export async function resolveSessionSecret(db: Db, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  await db.insert(appSecrets).values({ name: NAME, value: crypto.randomBytes(32).toString('hex') }).onConflictDoNothing();
  const [row] = await db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.name, NAME)).limit(1);
  if (!row) throw new Error('The session secret could not be stored in the database');
  return row.value;
}
