/**
 * Reading one page of a list (api/contracts/paging.ts): a page past the last is answered as the last page, so an
 * admin whose page number outlived the rows (kept in the URL, rows deleted) sees rows and consistent numbers.
 */
import { pageCount, pageInfo, type PageInfo, type PageQuery } from '#contracts/paging.ts';

/**
 * Reads page `q.page` with `read(page)`; when the list has rows but fewer pages than that, reads the last page instead
 * (a second read). Resolves to what the read that counts resolved to, and its paging fields (pageInfo). Rejects with
 * whatever `read` rejects with.
 */
export async function readPage<R extends { total: number }>(q: PageQuery, read: (page: number) => Promise<R>): Promise<{ result: R; info: PageInfo }> {
  let page = q.page;
  let result = await read(page);
  const last = pageCount(result.total, q.pageSize);
  if (page > last && result.total > 0) result = await read(page = last);
  return { result, info: pageInfo({ page, pageSize: q.pageSize }, result.total) };
}
