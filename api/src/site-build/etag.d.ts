/** The part of `etag` (1.x, no bundled types; the package `send` tags files with) that serve.ts uses. */
declare module 'etag' {
  import type { Stats } from 'node:fs';
  /**
   * An entity tag: for a Stats, `"<size hex>-<mtime ms hex>"`, weak (`W/` prefix) unless `weak: false`; for a string
   * or Buffer, a strong `"<length hex>-<sha1 base64, 27 chars>"` unless `weak: true`. Throws TypeError for anything else.
   */
  export default function etag(entity: string | Buffer | Stats, options?: { weak?: boolean }): string;
}
