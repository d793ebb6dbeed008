import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRead, takeRead } from './early-reads.ts';

describe('early reads (issue #17: account pages read with the session check)', () => {
  // A browser with the signed-in hint whose session check has not answered yet.
  // Removed afterwards: test files share their worker (vitest isolate: false).
  const g = globalThis as { document?: unknown };
  const hadDocument = 'document' in g;
  beforeAll(() => { if (!hadDocument) g.document = { cookie: 'college.signed_in=1' }; });
  afterAll(() => { if (!hadDocument) delete g.document; });
  it('a started read is taken once; the next take reads anew, and a second start while one waits makes no request', async () => {
    let calls = 0;
    const read = () => Promise.resolve(++calls);
    startRead('/api/x', read);
    startRead('/api/x', read);
    expect(calls).toBe(1);
    expect(await takeRead('/api/x', read)).toBe(1);
    expect(await takeRead('/api/x', read)).toBe(2);
  });

  it('a failed started read reaches its taker as the same error, and one nobody takes reports no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      startRead('/api/fails', () => Promise.reject(new TypeError('Failed to fetch')));
      startRead('/api/never-taken', () => Promise.reject(new TypeError('Failed to fetch')));
      await new Promise((r) => setTimeout(r, 20));
      await expect(takeRead('/api/fails', () => Promise.resolve('fresh'))).rejects.toThrow('Failed to fetch');
      expect(unhandled).toEqual([]);
    } finally { process.off('unhandledRejection', onUnhandled); }
  });
});
