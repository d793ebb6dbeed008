/**
 * Documents from a phone camera (issue #16 point 2): each photo is turned upright as the applicant rotated it,
 * resized and compressed to a JPEG of at most PAGE_MAX_BYTES (300 KB) with browser-image-compression; several
 * photos of one document become one PDF with pdf-lib (one page per photo). Both libraries load with a dynamic
 * import only when a photo is processed, so /apply stays light. Throws an Error fit to show when an image cannot
 * be read.
 */

/** Largest size of one compressed page (bytes), issue #16 point 2. */
export const PAGE_MAX_BYTES = 300 * 1024;
/** Longest side of a page in pixels: enough to read an ID or a results statement. */
const MAX_SIDE = 2000;

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

async function rotated(file: File, turns: number): Promise<Blob> {
  if (turns % 4 === 0) return file;
  const bmp = await createImageBitmap(file);
  const quarter = turns % 2 === 1;
  const canvas = document.createElement('canvas');
  canvas.width = quarter ? bmp.height : bmp.width;
  canvas.height = quarter ? bmp.width : bmp.height;
  const ctx = canvas.getContext('2d')!;
  ctx.translate(canvas.width / 2, canvas.height / 2);
  ctx.rotate((turns % 4) * Math.PI / 2);
  ctx.drawImage(bmp, -bmp.width / 2, -bmp.height / 2);
  bmp.close();
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('This photo could not be read.'))), 'image/jpeg', 0.92));
}

/** One page as a compressed JPEG of at most PAGE_MAX_BYTES. */
export async function compressPage(page: { file: File; turns: number }): Promise<Blob> {
  const { default: compress } = await import('browser-image-compression');
  const upright = await rotated(page.file, page.turns);
  const asFile = new File([upright], 'page.jpg', { type: upright.type || 'image/jpeg' });
  // No web worker: its default loads the library from a CDN, which the CSP (script-src 'self') forbids.
  return compress(asFile, { maxSizeMB: PAGE_MAX_BYTES / 1024 / 1024, maxWidthOrHeight: MAX_SIDE, fileType: 'image/jpeg', useWebWorker: false, maxIteration: 15, initialQuality: 0.8 });
}

/** The file to upload for `pages`: one JPEG for one page, else one PDF with a page per photo. `base` names it. */
export async function pagesToFile(pages: { file: File; turns: number }[], base: string): Promise<File> {
  const jpegs = await Promise.all(pages.map(compressPage));
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
