/**
 * Default hero image: one of 4 local images by course id modulo 4 (spec §9). Each is a small hand-made SVG (about
 * 0.5 KB compressed, drawn after the gradient-and-bokeh JPEGs it replaced; issue #17): imported as an asset, so the
 * build writes it once as a hashed file under /_astro/ (served `immutable`) that every card and course page of that
 * design shares, instead of inlining it or resizing it per width.
 */
import hero0 from '../assets/courses/hero-0.svg';
import hero1 from '../assets/courses/hero-1.svg';
import hero2 from '../assets/courses/hero-2.svg';
import hero3 from '../assets/courses/hero-3.svg';

const heroes = [hero0, hero1, hero2, hero3];
/**
 * The default hero image of course `id` (spec §9 fallback stock image; remote-image.ts courseImage picks it): its
 * metadata, `src` the file's URL, `width` × `height` 1200 × 600.
 */
export function defaultCourseImage(id: number): ImageMetadata {
  return heroes[((id % 4) + 4) % 4]!;
}
