/**
 * Do the documents of the upload rows exist in the document store? (backup and restore audit: a database restored
 * without its documents started silently, and every download answered 404.) Used at start-up in the background on
 * the newest rows (server.ts: a log line and the health body's `documents`), and on every row by
 * `npm run check:documents` (api/src/cli/check-documents.ts). Reads only: nothing is deleted or repaired.
 */
import { desc } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { uploads } from '../db/schema/applications.ts';
import type { DocumentStore } from './document-store.ts';

/** How many of the newest upload rows the start-up check looks at (one stat or HeadObject each). */
export const STARTUP_DOCUMENT_CHECK_ROWS = 50;

/** Outcome of a check: rows checked, and the rows whose document the store lacks (id, store key, owner, created). */
export interface DocumentCheck { checked: number; missing: Array<{ id: string; key: string; userId: number; createdAt: Date }> }

/** The health body's summary of a DocumentCheck: `{checked, missing}` as counts. */
export const documentCheckSummary = (c: DocumentCheck): { checked: number; missing: number } => ({ checked: c.checked, missing: c.missing.length });

/**
 * Checks the newest `limit` upload rows (all rows when `limit` is undefined), newest first, with `store.exists`
 * (a stat on the local store, HeadObject on S3), `concurrency` at a time. Throws when the database or the store
 * fails (a store that answers "no such object" is a missing document, not a failure).
 */
export async function checkDocuments(db: DbOrTx, store: DocumentStore, opts: { limit?: number; concurrency?: number } = {}): Promise<DocumentCheck> {
  const base = db.select({ id: uploads.id, key: uploads.storedName, userId: uploads.userId, createdAt: uploads.createdAt }).from(uploads).orderBy(desc(uploads.createdAt), desc(uploads.id));
  const rows = opts.limit === undefined ? await base : await base.limit(opts.limit);
  const missing: DocumentCheck['missing'] = [];
  const concurrency = Math.max(1, opts.concurrency ?? 8);
  for (let i = 0; i < rows.length; i += concurrency) {
    const batch = rows.slice(i, i + concurrency);
    const found = await Promise.all(batch.map((r) => store.exists(r.key)));
    batch.forEach((r, j) => { if (!found[j]) missing.push(r); });
  }
  return { checked: rows.length, missing };
}

/** Where `store` keeps documents, for log lines: "the local folder <root>" or "S3 bucket <name>". */
export function describeStore(store: DocumentStore): string {
  const s = store as DocumentStore & { root?: string; bucket?: string };
  return store.kind === 's3' ? `S3 bucket ${s.bucket ?? ''}`.trim() : `the local folder ${s.root ?? 'uploads/'}`;
}
