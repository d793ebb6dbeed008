/**
 * The one status badge (issue #15 point 5): a status looks the same to admins, students and the external
 * pages. Colours of spec §4 for application statuses (pending yellow, under_review blue, documents_required
 * orange, accepted green, rejected red, payment_pending purple); the external system's student statuses
 * (spec §3) reuse them (active green, graduated blue, withdrawn grey); anything else is grey. The text carries
 *  the meaning; every pair is 900 text on a 100–200 background (50 on 700–900 in dark mode), well over axe's 4.5:1.
 * Its edge is a real 1 px border (it was a ring, a box-shadow, which forced colours drop): the pill keeps its outline
 * in Windows High Contrast; the padding is 1 px less each side so it is the same size as before.
 */
import type { ReactElement } from 'react';
import { STATUS_COLOUR, statusLabel } from '#contracts/statuses.ts';
import type { EXTERNAL_STUDENT_STATUSES } from '#contracts/external-options.ts';

type Colour = 'yellow' | 'blue' | 'orange' | 'green' | 'red' | 'purple' | 'grey';

const EXTERNAL_COLOUR: Record<typeof EXTERNAL_STUDENT_STATUSES[number], Colour> = {
  active: 'green', pending: 'yellow', graduated: 'blue', withdrawn: 'grey',
};

const CLASSES: Record<Colour, string> = {
  yellow: 'bg-yellow-100 text-yellow-900 border-yellow-300 dark:bg-yellow-900 dark:text-yellow-50 dark:border-yellow-700',
  blue: 'bg-blue-100 text-blue-900 border-blue-300 dark:bg-blue-900 dark:text-blue-50 dark:border-blue-700',
  orange: 'bg-orange-100 text-orange-900 border-orange-300 dark:bg-orange-900 dark:text-orange-50 dark:border-orange-700',
  green: 'bg-green-100 text-green-900 border-green-300 dark:bg-green-900 dark:text-green-50 dark:border-green-700',
  red: 'bg-red-100 text-red-900 border-red-300 dark:bg-red-900 dark:text-red-50 dark:border-red-700',
  purple: 'bg-purple-100 text-purple-900 border-purple-300 dark:bg-purple-900 dark:text-purple-50 dark:border-purple-700',
  grey: 'bg-slate-200 text-slate-900 border-slate-300 dark:bg-slate-700 dark:text-slate-50 dark:border-slate-500',
};

/** The colour name a status is shown in ('under_review' → 'blue', 'withdrawn' → 'grey', unknown → 'grey'). */
export function statusColour(status: string): Colour {
  return (STATUS_COLOUR as Record<string, Colour>)[status] ?? (EXTERNAL_COLOUR as Record<string, Colour>)[status] ?? 'grey';
}

/**
 * A pill with the status's label ('under_review' → 'Under Review') in its colour; `data-status`/`data-colour` for tests.
 * In a flex row it keeps its width (shrink-0): 'Documents Required' was squeezed onto two lines beside its count on the
 * admin dashboard (248 px of its 303, at 360 px and 200 % text) and beside 'Small Business Entrepreneurship' on My
 * Applications (96 px, at 360 px and normal text). It never grows past its row (max-w-full): a label longer than the
 * whole line wraps inside.
 */
export function StatusBadge({ status }: { status: string }): ReactElement {
  const colour = statusColour(status);
  return (
    <span data-status={status} data-colour={colour}
      className={`inline-flex max-w-full shrink-0 items-center rounded-full border px-[9px] py-px text-xs font-semibold ${CLASSES[colour]}`}>
      {statusLabel(status)}
    </span>
  );
}
