/**
 * The date line of an announcement refreshed in the browser (components/public/AnnouncementList.astro): the long
 * date of the day it was in South Africa, as the build writes it (format.ts formatDateInSouthAfrica; '' for no or a
 * bad date). A module of its own so the list's dynamic import names one function, not format.ts itself: importing the
 * shared `format` chunk dynamically made the bundler build that chunk's namespace object and load its runtime file
 * (rolldown-runtime, 1 060 B) on /dashboard/student and /my-applications (issue #17).
 */
import { formatDateInSouthAfrica } from './format.ts';

export function announcementDay(value: string | Date | null | undefined): string {
  return formatDateInSouthAfrica(value);
}
