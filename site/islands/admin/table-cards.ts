/**
 * The admin course and announcement tables (CoursesManager.tsx, AnnouncementsManager.tsx) as cards, one per row, both
 * where a phone gets them (CARD_ROWS, ui/card-rows.ts: a window below 1024 px) and wherever their region is narrower
 * than 44rem. The second is a container query in rem, which follows the text however it is enlarged; the media query
 * does not follow a page style html{font-size:200%} (Firefox's "Zoom text only"), so with text at 200 % from a 1024 px
 * window both tables stayed tables in a region 29–42rem wide and scrolled sideways inside it, Edit, Deactivate and
 * Delete off to the right (WCAG 1.4.4, 1.4.10; layout review, November 2026). Why 44rem: with text at 200 % the
 * region is 29rem wide in a 1024 px window and 42rem at 1440 px, so both are cards there; at 100 % the narrowest
 * region from 1024 px is 46rem (45rem beside a 17 px scrollbar, the admin sidebar taking 13rem), so at 100 % nothing
 * changes. The course table needs about 50rem as a table (797 px at 100 % in DejaVu Sans): in a 44–50rem region (a
 * 1024–1080 px window at 100 %, about 1600 px at 200 %) it scrolled sideways by up to 55 px, Deactivate cut off (layout
 * review, 2026-11-28). There it stays a table, snug: its cells' sides are 0.5rem instead of 0.75rem and a row's buttons
 * stand one above the other, so it needs about 43rem (691 px) and the course titles get the room left. Each key as in
 * CARD_ROWS, which it includes; `region` goes on the table's scrolling region (the size container), `actions` on the
 * row's actions cell, `actionsRow` on the buttons' flex row, `nowrapWide` on a cell that keeps to one line only while it
 * is a table's, `snugCell` on every th and td and `snugActionsRow` on the buttons' flex row of a table that needs up
 * to 50rem.
 */
import { CARD_ROWS } from '../ui/card-rows.ts';

/** The class lists by part of the table (see the module), each a string of Tailwind classes. */
export const TABLE_CARDS = {
  region: '@container',
  block: `${CARD_ROWS.block} @max-[44rem]:block`,
  visuallyHidden: `${CARD_ROWS.visuallyHidden} @max-[44rem]:sr-only`,
  row: `${CARD_ROWS.row} @max-[44rem]:relative @max-[44rem]:flex @max-[44rem]:flex-col @max-[44rem]:gap-1.5 @max-[44rem]:px-3 @max-[44rem]:py-3`,
  cell: `${CARD_ROWS.cell} @max-[44rem]:p-0`,
  labelled: `${CARD_ROWS.labelled} @max-[44rem]:flex @max-[44rem]:items-baseline @max-[44rem]:gap-2 @max-[44rem]:p-0 @max-[44rem]:before:w-24 @max-[44rem]:before:shrink-0 @max-[44rem]:before:font-sans @max-[44rem]:before:text-sm @max-[44rem]:before:font-normal @max-[44rem]:before:normal-case @max-[44rem]:before:text-slate-600 @max-[44rem]:dark:before:text-slate-300 @max-[44rem]:before:content-[attr(data-label)]`,
  actions: `${CARD_ROWS.cell} @max-[44rem]:p-0 max-lg:pt-1 @max-[44rem]:pt-1`,
  actionsRow: 'max-lg:flex-wrap @max-[44rem]:flex-wrap',
  nowrapWide: 'lg:@min-[44rem]:whitespace-nowrap',
  snugCell: 'lg:@min-[44rem]:@max-[50rem]:px-2',
  snugActionsRow: 'lg:@min-[44rem]:@max-[50rem]:flex-col',
} as const;
