/**
 * Default hero image: one of 4 local images by course id modulo 4 (spec §9). The four are small hand-made SVGs
 * (drawn after the gradient-and-bokeh JPEGs they replaced; issue #17) kept in ONE file, `heroes.svg`, stacked
 * 1200 × 600 apart, each picked by a `<view id="h{n}">` fragment (SVG 1.1 §7.7 "linking into SVG content"). The
 * build writes it once as a hashed file under /_astro/ (served `immutable`); a browser fetches it once (about 0.85 KB
 * Brotli) for every card and course page, where four files cost four requests with their response headers.
 */
import heroes from '../assets/courses/heroes.svg';

const views: ImageMetadata[] = [0, 1, 2, 3].map((n) => ({ ...heroes, src: `${heroes.src}#h${n}`, width: 1200, height: 600 }));

/**
 * The default hero image of course `id` (spec §9 fallback stock image; remote-image.ts courseImage picks it): its
 * metadata, `src` the sprite's URL with the picture's fragment (`…/heroes.<hash>.svg#h2`), `width` × `height`
 * 1200 × 600.
 */
export function defaultCourseImage(id: number): ImageMetadata {
  return views[((id % 4) + 4) % 4]!;
}
