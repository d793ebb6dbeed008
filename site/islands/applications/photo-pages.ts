/**
 * Documents from a phone camera (issue #16 point 2): each photo is turned upright as the applicant rotated it,
 * resized and compressed to a JPEG of at most PAGE_MAX_BYTES (300 KB) with browser-image-compression; several
 * photos of one document become one PDF with pdf-lib (one page per photo). The compression runs in a same-origin
 * worker (compress.worker.ts; performance audit, November 2026: on the main thread a 12-megapixel photo made a
 * 442 ms long task at CPU ×6), started only when a photo is compressed; where Worker or OffscreenCanvas is missing
 * or the worker fails, the page does it on the main thread as before (compress-page.ts, the same steps). The
 * libraries load with a dynamic import only when a photo is processed, so /apply stays light (issue #17). Throws
 * a PhotoReadError naming the page when an image cannot be read. Only a worker that cannot start or load sends
 * later photos to the main thread; a photo the library cannot read is that photo's problem (accessibility audit,
 * November 2026: one corrupt JPEG made every later photo a 100 ms long task).
 */
import { compressUpright, PAGE_MAX_BYTES } from './compress-page.ts';

export { PAGE_MAX_BYTES };

/** A photo waiting in a slot: the original, its quarter-turns clockwise, and a preview URL. */
export interface PhotoPage { file: File; turns: number; preview: string }

export const isImage = (f: File) => /^image\/(jpeg|png)$/.test(f.type) || /\.(jpe?g|png)$/i.test(f.name);

/** What to do about an iPhone's HEIC photo (usability audit, November 2026). */
export const HEIC_HINT = "In your camera settings choose 'Most compatible' (JPEG), or take the photo again.";

/**
 * The format of a file that is not a JPEG or PNG photo, for a message: 'HEIC' (also HEIF, from the MIME type, the
 * name or an ISO-BMFF 'ftyp' box of a HEIF brand in the first 12 bytes), 'WebP', 'AVIF', else the name's extension
 * in capitals, else null.
 */
export async function photoFormat(f: File): Promise<string | null> {
  const head = String.fromCharCode(...new Uint8Array(await f.slice(0, 12).arrayBuffer()));
  if (/^image\/hei[cf]/i.test(f.type) || /\.hei[cf]$/i.test(f.name) || (head.slice(4, 8) === 'ftyp' && /^(hei|hev|mif|msf)/.test(head.slice(8)))) return 'HEIC';
  if (f.type === 'image/webp' || (head.startsWith('RIFF') && head.slice(8) === 'WEBP')) return 'WebP';
  if (f.type === 'image/avif' || head.slice(4, 12) === 'ftypavif') return 'AVIF';
  return /\.([a-z0-9]{1,5})$/i.exec(f.name)?.[1].toUpperCase() ?? null;
}

/** The slot's message for a photo that is not a JPEG or PNG (format from photoFormat). */
export function unreadablePhotoMessage(format: string | null): string {
  if (format === 'HEIC') return `This photo is in HEIC format, which we can't read. ${HEIC_HINT}`;
  return `This photo is in ${format ? `${format} format, which` : 'a format'} we can't read. Take the photo again, or choose a JPG, PNG or PDF file.`;
}

interface Job { resolve: (blob: Blob) => void; reject: (error: Error) => void }
/** The running worker and its unanswered jobs; null when none runs (it stops when it has nothing left to do). */
let running: { worker: Worker; jobs: Map<number, Job> } | null = null;
/** Set once the worker could not start or load here (no module workers, script not loaded): later pages skip it. */
let workerFailed = false;
let lastJob = 0;

/** `page` compressed in the worker, or null where no worker can do it (then the caller compresses it itself). */
function inWorker(page: { file: File; turns: number }): Promise<Blob> | null {
  if (workerFailed || typeof Worker !== 'function' || typeof OffscreenCanvas !== 'function' || !('convertToBlob' in OffscreenCanvas.prototype)) return null;
  if (!running) {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./compress.worker.ts', import.meta.url), { type: 'module' });
    } catch {
      workerFailed = true;
      return null;
    }
    const mine = { worker, jobs: new Map<number, Job>() };
    const stop = () => { worker.terminate(); if (running === mine) running = null; };
    worker.onmessage = (e: MessageEvent<{ id: number; blob?: Blob; error?: string }>) => {
      const job = mine.jobs.get(e.data.id);
      if (!job) return;
      mine.jobs.delete(e.data.id);
      if (e.data.blob) job.resolve(e.data.blob);
      else job.reject(new Error(e.data.error ?? 'compression failed in the worker'));
      if (!mine.jobs.size) stop();
    };
    worker.onerror = (e) => {
      e.preventDefault();
      workerFailed = true;
      mine.jobs.forEach((job) => job.reject(new Error(e.message || 'the compression worker failed')));
      mine.jobs.clear();
      stop();
    };
    running = mine;
  }
  const { worker, jobs } = running;
  const id = ++lastJob;
  return new Promise<Blob>((resolve, reject) => {
    jobs.set(id, { resolve, reject });
    worker.postMessage({ id, file: page.file, turns: page.turns });
  });
}

/** One page as a compressed JPEG of at most PAGE_MAX_BYTES, upright; in the worker where it can, else here. */
export async function compressPage(page: { file: File; turns: number }): Promise<Blob> {
  const job = inWorker(page);
  if (job) {
    try { return await job; } catch { /* the main thread does it below, and says what went wrong if it fails too */ }
  }
  const { default: compress } = await import('browser-image-compression');
  return compressUpright(page.file, page.turns, compress);
}

/** A photo that could not be read or compressed: `page` is its index (from 0) in the pages given to pagesToFile. */
export class PhotoReadError extends Error {
  readonly page: number;
  constructor(page: number, cause: unknown) {
    super('This photo could not be read.', { cause });
    this.page = page;
  }
}

/**
 * The file to upload for `pages`: one JPEG for one page, else one PDF with a page per photo. `base` names it.
 * Throws PhotoReadError for a page that cannot be read (the first to fail).
 */
export async function pagesToFile(pages: { file: File; turns: number }[], base: string): Promise<File> {
  const jpegs = await Promise.all(pages.map((p, i) => compressPage(p).catch((e: unknown) => { throw new PhotoReadError(i, e); })));
  if (jpegs.length === 1) return new File([jpegs[0]], `${base}.jpg`, { type: 'image/jpeg' });
  const { PDFDocument } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  for (const j of jpegs) {
    const img = await pdf.embedJpg(new Uint8Array(await j.arrayBuffer()));
    // A4 width (595 pt), height in proportion.
    const scale = 595 / img.width;
    const page = pdf.addPage([595, img.height * scale]);
    page.drawImage(img, { x: 0, y: 0, width: 595, height: img.height * scale });
  }
  const bytes = await pdf.save();
  return new File([bytes as BlobPart], `${base}.pdf`, { type: 'application/pdf' });
}
