/**
 * The work on one photographed page (issue #16 point 2), the same in the compression worker (compress.worker.ts)
 * and, as its fallback, on the main thread (photo-pages.ts): turn the photo `turns` quarter-turns clockwise (after
 * the browser has applied its EXIF orientation), then resize it to at most MAX_SIDE px and compress it to a JPEG of
 * at most PAGE_MAX_BYTES with browser-image-compression, which also follows the EXIF orientation when the browser
 * does not. The library is passed in (`compress`) so the main thread can load it lazily and the worker bundle it.
 * Rejects when the image cannot be read (createImageBitmap's or the library's error).
 */
import type imageCompression from 'browser-image-compression';

/** Largest size of one compressed page (bytes), issue #16 point 2. */
export const PAGE_MAX_BYTES = 300 * 1024;
/** Longest side of a page in pixels: enough to read an ID or a results statement. */
const MAX_SIDE = 2000;

async function rotated(file: File, turns: number): Promise<Blob> {
  if (turns % 4 === 0) return file;
  const bmp = await createImageBitmap(file);
  const quarter = turns % 2 === 1;
  const width = quarter ? bmp.height : bmp.width;
  const height = quarter ? bmp.width : bmp.height;
  const draw = (ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D) => {
    ctx.translate(width / 2, height / 2);
    ctx.rotate((turns % 4) * Math.PI / 2);
    ctx.drawImage(bmp, -bmp.width / 2, -bmp.height / 2);
    bmp.close();
  };
  // A worker has no document: there it draws on an OffscreenCanvas; the main thread keeps its <canvas>.
  if (typeof document === 'undefined') {
    const canvas = new OffscreenCanvas(width, height);
    draw(canvas.getContext('2d')!);
    return canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 });
  }
  const canvas = Object.assign(document.createElement('canvas'), { width, height });
  draw(canvas.getContext('2d')!);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('This photo could not be read.'))), 'image/jpeg', 0.92));
}

/** `file` upright (`turns` quarter-turns clockwise) as a JPEG of at most PAGE_MAX_BYTES, at most MAX_SIDE px long. */
export async function compressUpright(file: File, turns: number, compress: typeof imageCompression): Promise<Blob> {
  const upright = await rotated(file, turns);
  const asFile = new File([upright], 'page.jpg', { type: upright.type || 'image/jpeg' });
  // useWebWorker false: in our worker the library runs where it is; its own worker would load it from a CDN.
  return compress(asFile, { maxSizeMB: PAGE_MAX_BYTES / 1024 / 1024, maxWidthOrHeight: MAX_SIDE, fileType: 'image/jpeg', useWebWorker: false, maxIteration: 15, initialQuality: 0.8 });
}
