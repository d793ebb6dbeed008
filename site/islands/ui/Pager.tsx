/**
 * Paging under an admin list (the /admin/applications pattern): Previous, 'Page N of M', Next, and
 * 'Showing X–Y of Z' so that a list never hides rows silently (volume audit). Nothing when the list is empty.
 * A page past the last (kept in the URL, or rows that went away) is shown as the last page and asked for once
 * through `onPage(last)`; the API answers such a page with the last page's rows (api/contracts/paging.ts).
 */
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { pageRange } from '#contracts/paging.ts';
import { BusyButton } from './BusyButton.tsx';

/**
 * The pager for page `page` of `total` rows, `pageSize` a page; `onPage(n)` asks for page n; `busy` (a page is
 * loading) makes the buttons aria-disabled, as is Previous on the first page and Next on the last, so the button just
 * pressed keeps the focus (ui/BusyButton.tsx, WCAG 2.4.3); `children` (e.g. a rows-per-page select) go between Next and the range.
 */
export function Pager({ page: asked, pageSize, total, onPage, busy = false, label = 'Pagination', children }:
  { page: number; pageSize: number; total: number; onPage: (page: number) => void; busy?: boolean; label?: string; children?: ReactNode }) {
  const { page, pages, from, to } = pageRange(asked, pageSize, total);
  // Past the end: ask once for the last page (the caller's page state, and the URL where it keeps one, follow).
  useEffect(() => { if (total > 0 && asked > pages) onPage(pages); }, [total, asked, pages]);
  if (total <= 0) return null;
  const n = (v: number) => v.toLocaleString('en-US');
  return (
    <nav aria-label={label} className="mt-3 flex flex-wrap items-center gap-2 text-sm">
      <BusyButton className="btn-secondary" busy={busy} unavailable={page <= 1} onClick={() => onPage(page - 1)}>Previous</BusyButton>
      <span>Page {n(page)} of {n(pages)}</span>
      <BusyButton className="btn-secondary" busy={busy} unavailable={page >= pages} onClick={() => onPage(page + 1)}>Next</BusyButton>
      {children}
      <span className="ml-auto muted" data-testid="page-range">Showing {n(from)}–{n(to)} of {n(total)}</span>
    </nav>
  );
}
