/**
 * Images an admin gives by URL (spec §3 Course `imageUrl`, §2 About announcements "optional image"; §5 "valid
 * URL"), used at build time only. Astro fetches such an image when the site is built and serves resized AVIF/WebP
 * copies from this site (astro.config.mjs `image.remotePatterns`), so a visitor's phone never fetches from another
 * host (CSP `img-src 'self'`, no hot-linking) and downloads no more than the card needs.
 *
 * A URL that does not answer with an image within FETCH_TIMEOUT_MS, or whose host is not on the public internet
 * (public-address.ts: no reading from the college's own network), is left out with a warning in the build log, so
 * a broken link costs a default picture, never a failed publish.
 */
import { inferRemoteSize } from 'astro:assets';
import { imageLinkProblem } from './public-address.ts';
import { defaultCourseImage } from './course-image.ts';

/** How long the build waits for an admin's image to answer (ms). */
export const FETCH_TIMEOUT_MS = 8_000;
const checked = new Map<string, Promise<string | null>>();

/** `url` when it is an http(s) URL that answers with an image the build can read; else null. Memoised per build. */
export function usableRemoteImage(url: string | null | undefined): Promise<string | null> {
  if (!url || !/^https?:\/\//i.test(url)) return Promise.resolve(null);
  let found = checked.get(url);
  if (!found) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer in ${FETCH_TIMEOUT_MS} ms`)), FETCH_TIMEOUT_MS); });
    found = imageLinkProblem(url)
      .then((problem) => { if (problem) throw new Error(problem); return Promise.race([inferRemoteSize(url), timeout]); })
      .then((size) => (size.width > 0 && size.height > 0 ? url : null))
      .catch((err: unknown) => { console.warn(`[site] image left out, ${url}: ${(err as Error)?.message ?? err}`); return null; })
      .finally(() => clearTimeout(timer));
    checked.set(url, found);
  }
  return found;
}

/**
 * The image to show for course `id`: its `imageUrl` (a string, for astro:assets to resize) when the build can fetch
 * it, else the default's metadata (course-image.ts, an SVG shown as it is) (spec §3, §9).
 */
export async function courseImage(id: number, imageUrl: string | null | undefined) {
  return (await usableRemoteImage(imageUrl)) ?? defaultCourseImage(id);
}
