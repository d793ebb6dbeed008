/**
 * Per-account storage limits for documents (security audit 2026-11-28, LOW: one new account stored 40 × 1 MB with
 * POST /api/uploads in 3.2 s and opened 40 tus uploads of 5 MB; nothing bounded what an account could keep).
 * - Unattached uploads (cited by none of the account's applications: uploaded in the wizard, not yet submitted, or
 *   replaced): at most MAX_UNATTACHED_UPLOADS files and MAX_UNATTACHED_BYTES, checked before a new upload is read
 *   (POST /api/uploads) or created (tus). An application has at most 4 documents (spec §5 Step 3: ID, transcripts,
 *   English proficiency, CV), so 20 files leave room for every slot to be replaced four times, or for two
 *   applications being prepared at once; 40 MB is 8 documents at the 5 MB limit (spec §9). Documents of a submitted
 *   application do not count, so an applicant never runs out for good; deleting an unattached upload makes room.
 * - Unfinished resumable (tus) uploads: at most MAX_LIVE_TUS_UPLOADS per account on a node (the wizard runs at most
 *   4 at once, one per slot); `LiveTusUploads` counts them in this process and, at the limit, asks the datastore
 *   which are still unfinished (one finished or cancelled through another node is then dropped).
 * Both answer 409 `upload_limit` with a message saying what to do.
 * The unattached limit is exact, also for uploads of one account arriving at once (PostgreSQL: 29 of 30 parallel
 * uploads were stored when the count and the insert were separate statements): insertUploadWithinQuota counts and
 * inserts in one transaction that first locks the account's users row. assertUploadRoom, before the bytes are read,
 * only spares reading a file that cannot be kept.
 */
import type { Db, DbOrTx } from '../../db/client.ts';
import { HttpError } from '../../http/errors.ts';
import { lockUserRow } from '../../auth/users-repo.ts';
import { insertUploadRow, unattachedUsage, type NewUploadRow, type UploadRow } from './uploads.repo.ts';

/** Unattached uploads one account may keep (files). */
export const MAX_UNATTACHED_UPLOADS = 20;
/** Unattached uploads one account may keep (bytes): 40 MB. */
export const MAX_UNATTACHED_BYTES = 40 * 1024 * 1024;
/** Unfinished tus uploads one account may have on a node. */
export const MAX_LIVE_TUS_UPLOADS = 8;
/** How long (ms) an unfinished tus upload is counted at most: TUS_EXPIRY_MS, after which it is purged. */
const LIVE_TUS_MS = 24 * 3600_000;

const MB = 1024 * 1024;

/**
 * Throws 409 `upload_limit` when `userId` already keeps MAX_UNATTACHED_UPLOADS unattached uploads, or when they and
 * `addBytes` (the new file's size, bytes) would exceed MAX_UNATTACHED_BYTES. A check before the bytes are read (the
 * Content-Length or tus Upload-Length): uploads running at once may all pass it; insertUploadWithinQuota decides.
 */
export async function assertUploadRoom(db: DbOrTx, userId: number, addBytes: number): Promise<void> {
  const { count, bytes } = await unattachedUsage(db, userId);
  if (count >= MAX_UNATTACHED_UPLOADS) {
    throw new HttpError(409, 'upload_limit', `You have ${MAX_UNATTACHED_UPLOADS} documents that are not part of an application. Delete the ones you no longer need, then upload again.`);
  }
  if (bytes + Math.max(0, addBytes) > MAX_UNATTACHED_BYTES) {
    throw new HttpError(409, 'upload_limit', `Your documents that are not part of an application would take more than ${MAX_UNATTACHED_BYTES / MB} MB. Delete the ones you no longer need, then upload again.`);
  }
}

/**
 * Inserts the metadata `row` of a stored file (an `uploads` row; `size` in bytes) if its account, `row.userId`, has
 * room for it (assertUploadRoom's rule and 409 `upload_limit`), and returns it; nothing is inserted when refused.
 * One transaction: lock the account's users row (lockUserRow, FOR NO KEY UPDATE), count, insert. The lock makes the
 * uploads of one account take turns, and each count runs after the previous holder committed, so it sees that row.
 * Why not one INSERT … SELECT … WHERE (count) < 20: on PostgreSQL (READ COMMITTED) each of two such statements
 * counts in a snapshot without the other's uncommitted row, so both insert; a statement alone is atomic only on
 * PGlite, which runs one at a time. Why the users row and not the uploads rows: an account at 0 uploads has no
 * upload row to lock. FOR NO KEY UPDATE does not hold up writes that only reference the account (their foreign-key
 * checks take KEY SHARE); an update of the users row itself (a log-in, a profile save) waits for the upload's
 * transaction, a few ms. Other accounts never wait. Throws the database's errors as they come (23505 on a duplicate id).
 */
export async function insertUploadWithinQuota(db: Db, row: NewUploadRow): Promise<UploadRow> {
  return db.transaction(async (tx) => {
    await lockUserRow(tx, row.userId);
    await assertUploadRoom(tx, row.userId, row.size);
    return insertUploadRow(tx, row);
  });
}

/** What liveTusUploads returns: see there. */
export interface LiveTusUploads {
  /**
   * Records upload `id` of `userId` as unfinished, unless the account has MAX_LIVE_TUS_UPLOADS already: then throws
   * 409 `upload_limit`. `stillLive(id)` answers whether a counted upload is still unfinished (asked only at the limit).
   */
  add(userId: number, id: string, stillLive: (id: string) => Promise<boolean>): Promise<void>;
  /** Forgets upload `id` (finished, refused or cancelled). */
  remove(id: string): void;
}

/** The unfinished tus uploads of each account on this node, in memory (module comment). */
export function liveTusUploads(now: () => number = Date.now): LiveTusUploads {
  const byUser = new Map<number, Map<string, number>>();
  const owner = new Map<string, number>();
  return {
    async add(userId, id, stillLive) {
      let mine = byUser.get(userId);
      if (!mine) byUser.set(userId, (mine = new Map()));
      for (const [other, at] of mine) if (now() - at > LIVE_TUS_MS) { mine.delete(other); owner.delete(other); }
      if (mine.size >= MAX_LIVE_TUS_UPLOADS) {
        const live = await Promise.all([...mine.keys()].map(async (other) => [other, await stillLive(other).catch(() => true)] as const));
        for (const [other, isLive] of live) if (!isLive) { mine.delete(other); owner.delete(other); }
      }
      if (mine.size >= MAX_LIVE_TUS_UPLOADS) {
        throw new HttpError(409, 'upload_limit', `You have ${MAX_LIVE_TUS_UPLOADS} unfinished uploads. Let them finish or cancel them, then try again.`);
      }
      mine.set(id, now());
      owner.set(id, userId);
    },
    remove(id) {
      const userId = owner.get(id);
      if (userId === undefined) return;
      owner.delete(id);
      const mine = byUser.get(userId);
      mine?.delete(id);
      if (mine && mine.size === 0) byUser.delete(userId);
    },
  };
}
