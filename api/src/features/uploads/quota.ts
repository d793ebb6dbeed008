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
 * Both answer 409 `upload_limit` with a message saying what to do. The count and the insert are not one statement:
 * uploads racing in parallel may pass the limit by a few, which is all this needs (a bound, not an exact quota).
 */
import type { Db } from '../../db/client.ts';
import { HttpError } from '../../http/errors.ts';
import { unattachedUsage } from './uploads.repo.ts';

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
 * `addBytes` (the new file's size, bytes) would exceed MAX_UNATTACHED_BYTES.
 */
export async function assertUploadRoom(db: Db, userId: number, addBytes: number): Promise<void> {
  const { count, bytes } = await unattachedUsage(db, userId);
  if (count >= MAX_UNATTACHED_UPLOADS) {
    throw new HttpError(409, 'upload_limit', `You have ${MAX_UNATTACHED_UPLOADS} documents that are not part of an application. Delete the ones you no longer need, then upload again.`);
  }
  if (bytes + Math.max(0, addBytes) > MAX_UNATTACHED_BYTES) {
    throw new HttpError(409, 'upload_limit', `Your documents that are not part of an application would take more than ${MAX_UNATTACHED_BYTES / MB} MB. Delete the ones you no longer need, then upload again.`);
  }
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
