import { describe, expect, it } from 'vitest';
import { pageInfo, pageRange } from './paging.ts';

describe('paging (api/contracts/paging.ts)', () => {
  it('the pager range of a page past the last is the last page, never "Showing 1,050–1,050 of 1,050" or "Page 30 of 21"', () => {
    expect(pageRange(30, 50, 1050)).toEqual({ page: 21, pages: 21, from: 1001, to: 1050 });
    expect(pageRange(21, 50, 1050)).toEqual({ page: 21, pages: 21, from: 1001, to: 1050 });
    expect(pageRange(1, 50, 1050)).toEqual({ page: 1, pages: 21, from: 1, to: 50 });
    expect(pageRange(2, 25, 26)).toEqual({ page: 2, pages: 2, from: 26, to: 26 });
  });

  it('an empty list is one page showing rows 0–0', () => {
    expect(pageRange(1, 25, 0)).toEqual({ page: 1, pages: 1, from: 0, to: 0 });
    expect(pageRange(3, 25, 0)).toEqual({ page: 1, pages: 1, from: 0, to: 0 });
  });

  it('page info never reports a page above pages', () => {
    expect(pageInfo({ page: 30, pageSize: 50 }, 1050)).toEqual({ total: 1050, page: 21, pageSize: 50, pages: 21 });
    expect(pageInfo({ page: 2, pageSize: 25 }, 0)).toEqual({ total: 0, page: 1, pageSize: 25, pages: 1 });
  });
});
