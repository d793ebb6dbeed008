/**
 * Files whose resumable upload has not finished, kept in this browser's IndexedDB (database 'college-uploads',
 * store 'pending') so a reload can carry on (issue #16 points 1 and 5; islands/applications/tus-upload.ts), and
 * tus-js-client's resume records in localStorage ('tus::…'). Keys begin with the signed-in user's id
 * (`pendingUploadKey`), so one person's unfinished ID document is never resumed into another person's account, and
 * `forgetPendingUploads` erases them all when someone logs out or another person signs in on this device
 * (POPIA s19; ASVS 5.0 V14.3.1). Kept apart from tus-upload.ts so the session store can erase them without
 * loading the upload code.
 */

const DB = 'college-uploads';
const TUS_PREFIX = 'tus::';

function idb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(DB, 1);
    open.onupgradeneeded = () => open.result.createObjectStore('pending');
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

async function pending<T>(mode: IDBTransactionMode, fn: (s: IDBObjectStore) => IDBRequest): Promise<T | undefined> {
  try {
    const db = await idb();
    try {
      // Settled when the transaction has committed, not when the request succeeded: a log-out navigates away
      // right after, and an uncommitted erasure would be lost with the page.
      return await new Promise<T>((resolve, reject) => {
        const tx = db.transaction('pending', mode);
        const req = fn(tx.objectStore('pending'));
        tx.oncomplete = () => resolve(req.result as T);
        tx.onerror = () => reject(tx.error ?? req.error);
        tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
      });
    } finally { db.close(); }
  } catch { return undefined; /* private mode or no IndexedDB: resume-after-reload is simply unavailable */ }
}

/** The key of `slot`'s unfinished upload on the page at `path` for user `userId`: `<userId>:<path>:<slot>`. */
export function pendingUploadKey(userId: number, path: string, slot: string): string { return `${userId}:${path}:${slot}`; }

/** Keeps `file` under `key` until its upload ends. Resolves even where IndexedDB is unavailable. */
export const savePending = (key: string, file: File) => pending('readwrite', (s) => s.put(file, key));
/** Forgets the file under `key` (its upload finished, failed or was cancelled). */
export const dropPending = (key: string) => pending('readwrite', (s) => s.delete(key));
/** The file that was uploading under `key` when the page went away, if any. */
export const pendingFile = (key: string) => pending<File>('readonly', (s) => s.get(key));

/**
 * Erases every unfinished upload this browser keeps, of every user: the files in IndexedDB and tus-js-client's
 * resume records in localStorage. Called by the session store at log-out and when a different user signs in.
 */
export async function forgetPendingUploads(): Promise<void> {
  try { for (const k of Object.keys(localStorage)) if (k.startsWith(TUS_PREFIX)) localStorage.removeItem(k); } catch { /* ignore */ }
  if (typeof indexedDB === 'undefined') return;
  await pending('readwrite', (s) => s.clear());
}
