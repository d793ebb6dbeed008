/**
 * Resumable upload of one document (issue #16 points 1 and 5) with tus-js-client against /api/uploads/tus.
 * A dropped connection is retried on its own (back-off up to 30 s, for about ten minutes, and at once when the
 * browser comes back online) and resumes from the offset the server holds, never from zero. While a file uploads
 * it is also kept in IndexedDB under `key`, so after a page reload `pendingFile(key)` (lib/pending-uploads.ts) finds it and carries on
 * (tus-js-client's stored fingerprint gives the upload URL). tus-js-client is loaded with a dynamic import on
 * the first upload, so pages that never upload do not pay for it.
 * If the login ended while the person was away (401), "Your session has ended" asks them to log in again
 * (ui/SignInAgain.tsx, as for saves) and the upload carries on from where it was. Cancelled (README "Cancel leaves
 * the form as it is"; phone audit 2026-11-28), the file stays kept under `key` like an offline one, tus-js-client's
 * resume record too, and the upload fails with SignInNeededError (SIGNED_OUT_MESSAGE, not the server's
 * 'Authentication required'): the caller keeps the file and sends it again after the next log-in, and a reload once
 * logged in finds it with `pendingFile(key)`.
 * Resolves with the stored upload (UploadView); rejects with SignInNeededError (above), or an Error whose message is fit to show
 * ('File size exceeds 5MB limit' for 413, the server's message for 415 and for the account's upload limit, a 409
 * `upload_limit` that is not retried: it is not tus's offset conflict, which a retry resolves).
 */
import { TOKEN_KEY } from '../../lib/api-client.ts';
import { askToSignInAgain } from '../ui/save-api.ts';
import type { UploadView } from '#contracts/application-views.ts';
import { dropPending, savePending } from '../../lib/pending-uploads.ts';

/**
 * Bytes per PATCH. A cut loses at most the chunk in flight, so small chunks waste little on a flaky link
 * (64 KB is about 5 s at 100 kbps); each costs one round trip (400 ms on a rural link, under 10 %).
 */
export const CHUNK_BYTES = 64 * 1024;
const RETRY_DELAYS = [0, 1000, 2000, 4000, 8000, 15000, ...Array(20).fill(30000)];
const SIZE_MESSAGE = 'File size exceeds 5MB limit';
/** What a document slot says about a file whose upload waits for a log-in (as 'Not sent yet: …' on the application page). */
export const SIGNED_OUT_MESSAGE = 'Not uploaded yet: log in again to send this file.';

/**
 * The upload stopped because the login has ended and the person cancelled "Your session has ended": nothing is
 * lost (the file is still kept for resume); calling resumableUpload again with the same file and key, logged in,
 * carries on. Its message is SIGNED_OUT_MESSAGE.
 */
export class SignInNeededError extends Error {
  constructor() { super(SIGNED_OUT_MESSAGE); this.name = 'SignInNeededError'; }
}

function authHeaders(): Record<string, string> {
  try { const t = localStorage.getItem(TOKEN_KEY); return t ? { Authorization: `Bearer ${t}` } : {}; } catch { return {}; }
}

async function viewFor(id: string, body: string): Promise<UploadView> {
  try { const v = JSON.parse(body)?.upload; if (v?.id) return v; } catch { /* the finish came from a HEAD: no body */ }
  const res = await fetch('/api/uploads', { credentials: 'same-origin', headers: authHeaders() });
  const found = res.ok ? ((await res.json()).uploads as UploadView[]).find((u) => u.id === id) : undefined;
  if (!found) throw new Error('The upload finished but could not be found. Please try again.');
  return found;
}

/**
 * Uploads `file` resumably; `onProgress` gets 0..100. `key` names the user and slot (lib/pending-uploads.ts
 * pendingUploadKey), for resume after a reload; tus-js-client's resume record is keyed by it too, so a file is only
 * ever resumed into the upload its own user started.
 * Aborting through `signal` stops without deleting what the server holds.
 */
export async function resumableUpload(file: File, key: string, onProgress: (percent: number) => void, signal?: AbortSignal): Promise<UploadView> {
  const tus = await import('tus-js-client');
  await savePending(key, file);
  return new Promise<UploadView>((resolve, reject) => {
    let lastBody = '';
    const upload = new tus.Upload(file, {
      endpoint: '/api/uploads/tus',
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      removeFingerprintOnSuccess: true,
      fingerprint: (f: File) => Promise.resolve(['tus-br', key, f.name, f.type, f.size, f.lastModified].join('-')),
      metadata: { filename: file.name, filetype: file.type },
      headers: authHeaders(),
      onProgress: (sent, total) => onProgress(total ? Math.min(99, Math.floor((sent / total) * 100)) : 0),
      onAfterResponse: (_req, res) => { lastBody = res.getBody() ?? ''; },
      onShouldRetry: (err) => {
        const res = (err as any).originalResponse;
        const status = res?.getStatus?.() ?? 0;
        // tus's own 409 (offset conflict) is resolved by a retry; the account's upload limit is not (uploads/quota.ts).
        if (status === 409 && (res?.getBody?.() ?? '').includes('"upload_limit"')) return false;
        return status === 0 || status >= 500 || status === 409 || status === 423 || status === 429;
      },
      onSuccess: () => {
        const id = (upload.url ?? '').split('/').pop() ?? '';
        window.removeEventListener('online', kick);
        void dropPending(key);
        viewFor(id, lastBody).then((v) => { onProgress(100); resolve(v); }, reject);
      },
      onError: async (err) => {
        const res = (err as any).originalResponse;
        const status = res?.getStatus?.() ?? 0;
        if (status === 401 && !signal?.aborted) {
          if (await askToSignInAgain()) { upload.options.headers = authHeaders(); upload.start(); return; }
          // Cancelled: keep the file (and tus's resume record) for after the next log-in.
          window.removeEventListener('online', kick);
          return reject(new SignInNeededError());
        }
        window.removeEventListener('online', kick);
        void dropPending(key);
        if (status === 413) return reject(new Error(SIZE_MESSAGE));
        let message = '';
        try { message = JSON.parse(res?.getBody?.() ?? '')?.error?.message ?? ''; } catch { /* not JSON */ }
        reject(new Error(message || 'The upload could not be finished. Check your connection and try again.'));
      },
    });
    // Back online: retry now rather than waiting out the back-off.
    const kick = () => { void upload.abort().then(() => upload.start()); };
    window.addEventListener('online', kick);
    signal?.addEventListener('abort', () => { window.removeEventListener('online', kick); void upload.abort(); void dropPending(key); reject(new Error('Upload cancelled')); });
    upload.findPreviousUploads().then((previous) => {
      if (previous.length) upload.resumeFromPreviousUpload(previous[0]);
      upload.start();
    }, () => upload.start());
  });
}
