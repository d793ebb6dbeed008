/** Default hero image: one of 4 local images by course id modulo 4 (spec §9). */
import hero0 from '../assets/courses/hero-0.jpg';
import hero1 from '../assets/courses/hero-1.jpg';
import hero2 from '../assets/courses/hero-2.jpg';
import hero3 from '../assets/courses/hero-3.jpg';

const heroes = [hero0, hero1, hero2, hero3];
/** The default hero image of course `id` (spec §9 fallback stock image; remote-image.ts courseImage picks it). */
export function defaultCourseImage(id: number) {
  return heroes[((id % 4) + 4) % 4];
}

/**
 * Image quality (sharp's 1–100 scale) for a course's card and hero: 30 for the bundled default images, whose soft
 * gradients look the same as at sharp's default 50 and weigh 40 % less (480 px AVIF 2 615 → 1 576 bytes; issue #17,
 * a warm course page); `undefined` (the default) for an admin's own photo. Card and hero must pass the same value so
 * they share the 480 and 720 px files.
 */
export function courseImageQuality(image: unknown): number | undefined {
  return heroes.includes(image as ImageMetadata) ? 30 : undefined;
}
