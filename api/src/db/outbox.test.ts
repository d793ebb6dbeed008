/**
 * The outbox worker's own log lines (operations audit): a failed pass logged drizzle's err.message, which holds the
 * query's parameters (addresses, message bodies); it now logs describeErrorForLog (SQL with placeholders, SQLSTATE).
 */
import { describe, expect, it, vi } from 'vitest';
import { retryLater, startOutboxWorker } from './outbox.ts';
import type { DbOrTx } from './client.ts';

describe('outbox worker log', () => {
  it('a pass that fails with a database error is logged without the query parameters', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    let failed!: () => void;
    const done = new Promise<void>((r) => { failed = r; });
    const err = Object.assign(new Error('Failed query: update mail_outbox set last_error = $1 where "to" = $2\nparams: boom,thabo@example.com'), {
      query: 'update mail_outbox set last_error = $1 where "to" = $2', params: ['boom', 'thabo@example.com'],
      cause: Object.assign(new Error('deadlock detected'), { code: '40P01', severity: 'ERROR' }) });
    const stop = startOutboxWorker('mail', async () => { failed(); throw err; }, 1);
    try {
      await done;
      await stop();
      const logged = error.mock.calls.map((c) => c.join(' ')).join('\n');
      expect(logged).toContain('[mail] outbox pass failed');
      expect(logged).toContain('code=40P01');
      expect(logged).not.toContain('thabo@example.com');
    } finally { error.mockRestore(); }
  });

  it('a failure recorded for a row another node has claimed since logs nothing: that node records its own outcome (no false GIVEN UP)', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const answering = (rows: unknown[]) => ({ execute: async () => ({ rows }) }) as unknown as DbOrTx;
    try {
      expect(await retryLater(answering([]), 'sms_outbox', { id: 7, attempts: 36, claimToken: 'old' }, true, new Error('gateway down'))).toBe(false);
      expect(await retryLater(answering([]), 'sms_outbox', { id: 7, attempts: 3, claimToken: 'old' }, false, new Error('gateway down'))).toBe(false);
      expect(error).not.toHaveBeenCalled();
      expect(warn).not.toHaveBeenCalled();
      expect(await retryLater(answering([{ id: 7 }]), 'sms_outbox', { id: 7, attempts: 36, claimToken: 'ours' }, true, new Error('gateway down'))).toBe(true);
      expect(error.mock.calls.map((c) => c.join(' ')).join('\n')).toContain('GIVEN UP: sms_outbox row 7');
    } finally { error.mockRestore(); warn.mockRestore(); }
  });
});
