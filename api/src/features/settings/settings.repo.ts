/**
 * The `settings` table (key → jsonb value): the admin-edited values of /admin/settings (issue #6).
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { settings } from '../../db/schema/system.ts';

/** Every stored setting, key → parsed JSON value (unvalidated; settings.service.ts checks them). */
export async function readSettings(db: DbOrTx): Promise<Record<string, unknown>> {
  // Read as text: drizzle's PGlite driver parses jsonb twice, turning the string "75.50" into the number 75.5.
  const rows = await db.select({ key: settings.key, value: sql<string>`${settings.value}::text` }).from(settings);
  return Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value)]));
}

/** Upserts every key of `values` in one transaction (all or none). */
export async function writeSettings(db: DbOrTx, values: Record<string, unknown>): Promise<void> {
  await db.transaction(async (tx) => {
    for (const [key, value] of Object.entries(values)) {
      await tx.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
    }
  });
}
