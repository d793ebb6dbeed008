/**
 * Paging of the admin and external lists (volume audit: no silent cap), shared by the API and the islands' Pager.
 * Zod-free, so islands import it without zod; the query schema is pageQuerySchema in common.ts.
 *
 * A page past the last one (a page kept in the URL, a list that shrank) is answered as the last page: the API reads
 * the last page's rows instead (readPage, api/src/http/paging.ts), and pageInfo never reports a page above `pages`.
 */

/** The most rows a page of any list may hold. */
export const MAX_PAGE_SIZE = 100;

/** A page asked for: `page` 1-based, `pageSize` rows a page (1–MAX_PAGE_SIZE). */
export interface PageQuery { page: number; pageSize: number }

/** The paging part of a list answer: `total` rows match, `pages` ≥ 1, 1 ≤ `page` ≤ `pages`, `pageSize` rows a page. */
export interface PageInfo { total: number; page: number; pageSize: number; pages: number }

/** How many pages `total` rows fill at `pageSize` a page: at least 1 (an empty list is one empty page). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** The paging fields for `total` rows read with `q`; a page past the last is reported as the last (see above). */
export function pageInfo(q: PageQuery, total: number): PageInfo {
  const pages = pageCount(total, q.pageSize);
  return { total, page: Math.min(q.page, pages), pageSize: q.pageSize, pages };
}

/**
 * What a pager shows for page `page` of `total` rows at `pageSize` a page: `pages` (≥ 1), `page` clamped to 1…pages,
 * and the 1-based rows `from`–`to` shown (both 0 when there are no rows).
 */
export function pageRange(page: number, pageSize: number, total: number): { page: number; pages: number; from: number; to: number } {
  const pages = pageCount(total, pageSize);
  const p = Math.min(Math.max(1, page), pages);
  if (total <= 0) return { page: p, pages, from: 0, to: 0 };
  return { page: p, pages, from: (p - 1) * pageSize + 1, to: Math.min(total, p * pageSize) };
}
