/**
 * Same-origin module worker that compresses photographed pages off the main thread (performance audit, November
 * 2026: 2.0 s and a 442 ms long task for a 12-megapixel photo at CPU ×6 on the main thread). Started by
 * photo-pages.ts only when a photo is compressed; Vite bundles it with browser-image-compression into one
 * /_astro/compress.worker-*.js file, allowed by the pages' CSP (script-src 'self'; no CDN, no blob: script).
 * Message in: { id: number, file: File, turns: number } (turns: quarter-turns clockwise).
 * Message out: { id, blob: Blob } (JPEG ≤ PAGE_MAX_BYTES, upright) or { id, error: string }.
 * Pages are done one at a time, so a several-page document holds one decoded photo at a time.
 */
import compress from 'browser-image-compression';
import { compressUpright } from './compress-page.ts';

interface WorkerScope { onmessage: ((e: MessageEvent<{ id: number; file: File; turns: number }>) => void) | null; postMessage(message: unknown): void }
const scope = self as unknown as WorkerScope;

let queue: Promise<void> = Promise.resolve();
scope.onmessage = (e) => {
  const { id, file, turns } = e.data;
  queue = queue.then(() => compressUpright(file, turns, compress).then(
    (blob) => scope.postMessage({ id, blob }),
    (err: unknown) => scope.postMessage({ id, error: err instanceof Error ? err.message : String(err) }),
  ));
};
