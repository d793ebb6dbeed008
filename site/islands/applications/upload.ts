/**
 * What a document slot accepts before sending (DESIGN §4 Documents, spec §5 Step 3: types; files over 5 MB refused
 * with the spec's message), and the plain one-request upload through XMLHttpRequest with progress, used where an
 * admin uploads for a walk-in applicant. The applicant's own uploads are resumable (tus-upload.ts, issue #16).
 */
import { MAX_UPLOAD_BYTES } from '#contracts/application-steps.ts';
import { TOKEN_KEY } from '../../lib/api-client.ts';
import { askToSignInAgain } from '../ui/save-api.ts';
import type { UploadView } from '#contracts/application-views.ts';

export const ACCEPT = '.pdf,.doc,.docx,.jpg,.jpeg,.png,application/pdf,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document,image/jpeg,image/png';
export const SIZE_MESSAGE = 'File size exceeds 5MB limit';
const ALLOWED_EXT = /\.(pdf|docx?|jpe?g|png)$/i;

/** null when the file may be sent, else the message to show. */
export function precheck(file: File): string | null {
  if (file.size > MAX_UPLOAD_BYTES) return SIZE_MESSAGE;
  if (!ALLOWED_EXT.test(file.name)) return 'Only PDF, DOC, DOCX, JPG, JPEG and PNG files are accepted';
  return null;
}

/**
 * The second line under a precheck `problem` for `file` (usability audit, November 2026: the spec's line says what is
 * wrong, this one what to do): the size in MB for a file over 5 MB; for a HEIC photo (`heic`), the camera setting.
 */
export function uploadHelp(file: File, problem: string, heic: boolean): string | null {
  if (problem === SIZE_MESSAGE) return `This file is ${+(file.size / 1024 / 1024).toFixed(1)} MB. Take a photo of each page instead (we make photos smaller), or scan at a lower quality.`;
  if (heic) return `This is an iPhone photo (HEIC). Use "Take a photo" instead, or in your camera settings choose 'Most compatible' (JPEG).`;
  return null;
}

/** One POST of `file` as multipart form data: the answer's status and parsed JSON body (null if none). */
function send(file: File, onProgress: (percent: number) => void, signal: AbortSignal | undefined, endpoint: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', endpoint);
    xhr.withCredentials = true;
    try { const t = localStorage.getItem(TOKEN_KEY); if (t) xhr.setRequestHeader('Authorization', `Bearer ${t}`); } catch { /* private mode */ }
    xhr.upload.onprogress = (e) => { if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100)); };
    xhr.onload = () => {
      let body: any = null;
      try { body = JSON.parse(xhr.responseText); } catch { /* not JSON */ }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new Error('The upload was interrupted. Check your connection and try again.'));
    xhr.onabort = () => reject(new Error('Upload cancelled'));
    signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

/**
 * Uploads `file` to `endpoint` (default POST /api/uploads; an admin entering a walk-in application uses
 * /api/admin/walk-in/applicants/{id}/uploads). `onProgress` gets 0..100. Rejects with an Error whose message is fit
 * to show. A 401 (the login ended) asks "Your session has ended" (ui/SignInAgain.tsx) and, logged in again, sends
 * the file once more.
 */
export async function uploadFile(file: File, onProgress: (percent: number) => void, signal?: AbortSignal, endpoint = '/api/uploads'): Promise<UploadView> {
  let r = await send(file, onProgress, signal, endpoint);
  if (r.status === 401 && !signal?.aborted) {
    if (await askToSignInAgain()) r = await send(file, onProgress, signal, endpoint);
  }
  if (r.status === 201 && r.body?.upload) { onProgress(100); return r.body.upload; }
  if (r.status === 413) throw new Error(SIZE_MESSAGE);
  throw new Error(r.body?.error?.message ?? `Upload failed (${r.status}). Please try again.`);
}
