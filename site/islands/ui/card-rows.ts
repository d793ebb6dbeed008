/**
 * Tailwind classes that lay a table out as one card per row below 1024 px (issue #14: on a phone a person sees each
 * row's status and actions without scrolling sideways). CSS only: the DOM, and with it the table's roles and every
 * locator, stays the same. Put `block` on the table and its row groups, `row` on each body row, `cell` on a cell that
 * shows as it is (the row's title, its actions), and `labelled` with `data-label="…"` on a cell that shows its column
 * name before its value (in the table's own type, whatever the cell's font). The header row either becomes a
 * wrapping row of sort buttons (`headRow`, `headCell`) or, where it holds only names, `visuallyHidden` (still read as
 * column headers). Below 20em (a phone with text at 200 %) a labelled cell's value goes below its name, which would
 * otherwise take half the card. Names get a 6rem column: the widest, "Department", is 85 px in 14 px type (in 5rem it
 * broke as "Departmen/t"). From 1024 px the classes do nothing.
 */
export const CARD_ROWS = {
  block: 'max-lg:block',
  headRow: 'max-lg:flex max-lg:flex-wrap max-lg:items-center max-lg:gap-x-1 max-lg:py-1',
  headCell: 'max-lg:px-2 max-lg:py-1',
  visuallyHidden: 'max-lg:sr-only',
  row: 'max-lg:relative max-lg:flex max-lg:flex-col max-lg:gap-1.5 max-lg:px-3 max-lg:py-3',
  /** A row that starts with a selection checkbox: room on the left for `checkCell`. */
  rowWithCheck: 'max-lg:pl-10',
  checkCell: 'max-lg:absolute max-lg:left-0 max-lg:top-2.5',
  cell: 'max-lg:p-0',
  labelled: 'max-lg:flex max-lg:items-baseline max-lg:gap-2 max-lg:p-0 max-[20em]:flex-wrap max-[20em]:before:basis-full max-lg:before:w-24 max-lg:before:shrink-0 max-lg:before:font-sans max-lg:before:text-sm max-lg:before:font-normal max-lg:before:normal-case max-lg:before:text-slate-600 max-lg:dark:before:text-slate-300 max-lg:before:content-[attr(data-label)]',
} as const;
