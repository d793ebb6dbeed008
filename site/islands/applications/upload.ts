/**
 * Browser side of POST /api/uploads (DESIGN §4 Documents): one file per request through XMLHttpRequest so the
 * progress bar can follow the upload. Files over 5 MB are refused before sending (spec §5 Step 3).
 */
import { MAX_UPLOAD_BYTES } from '../../../api/contracts/application-steps.ts';
import { TOKEN_KEY } from '../../lib/api-client.ts';
import type { UploadView } from '../student/shared.tsx';

export const ACCEPT = '.pdf,.doc,.docx,.jpg,.jpeg,.png,application/pdf,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document,image/jpeg,image/png';
export const SIZE_MESSAGE = 'File size exceeds 5MB limit';
const ALLOWED_EXT = /\.(pdf|docx?|jpe?g|png)$/i;

/** null when the file may be sent, else the message to show. */
export function precheck(file: File): string | null {
  if (file.size > MAX_UPLOAD_BYTES) return SIZE_MESSAGE;
  if (!ALLOWED_EXT.test(file.name)) return 'Only PDF, DOC, DOCX, JPG, JPEG and PNG files are accepted';
  return null;
}

/** Uploads `file`; `onProgress` gets 0..100. Rejects with an Error whose message is fit to show. */
export function uploadFile(file: File, onProgress: (percent: number) => void, signal?: AbortSignal): Promise<UploadView> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/uploads');
    xhr.withCredentials = true;
    try { const t = localStorage.getItem(TOKEN_KEY); if (t) xhr.setRequestHeader('Authorization', `Bearer ${t}`); } catch { /* private mode */ }
    xhr.upload.onprogress = (e) => { if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100)); };
    xhr.onload = () => {
      let body: any = null;
      try { body = JSON.parse(xhr.responseText); } catch { /* not JSON */ }
      if (xhr.status === 201 && body?.upload) { onProgress(100); resolve(body.upload); return; }
      if (xhr.status === 413) return reject(new Error(SIZE_MESSAGE));
      reject(new Error(body?.error?.message ?? `Upload failed (${xhr.status}). Please try again.`));
    };
    xhr.onerror = () => reject(new Error('The upload was interrupted. Check your connection and try again.'));
    xhr.onabort = () => reject(new Error('Upload cancelled'));
    signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}
