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
