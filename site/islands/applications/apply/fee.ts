/**
 * The application fee a page shows (spec §9: '$50.00' by default; the admin may change it on /admin/settings). Read
 * from GET /api/settings/application-fee, so the amount shown is the amount charged; the page sends it back as the
 * submit's `expectedFee` and the server answers 409 `fee_changed` when it changed meanwhile (nothing is charged).
 *
 * Offline (issue #16: the wizard keeps working offline) the page shows the last fee read on this device for this
 * user (lib/offline-snapshot.ts), else the spec's default, marked as not confirmed: that is safe because submitting
 * needs a connection and the server then checks the fee again.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { APPLICATION_FEE } from '#contracts/application-steps.ts';
import type { ApplicationFeeView } from '#contracts/settings.ts';
import { api, READ_TIMEOUT_MS } from '../../../lib/api-client.ts';
import { recall, remember } from '../../../lib/offline-snapshot.ts';

/** The public read of the fee charged now. */
export const FEE_PATH = '/api/settings/application-fee';
const SNAPSHOT_KEY = 'application-fee';

/**
 * The fee on screen: `fee` 'NN.NN' (null only while the first read is under way) and where it came from —
 * 'server' (read now), 'last-known' (read earlier on this device, at `savedAt`, ISO 8601) or 'default' (never read:
 * the spec's APPLICATION_FEE).
 */
export interface ShownFee { fee: string | null; source: 'loading' | 'server' | 'last-known' | 'default'; savedAt?: string }

/**
 * Reads the fee; remembers it for `userId` (when given) so it can be shown offline. Never throws: when the read
 * fails (offline, timeout after READ_TIMEOUT_MS, server error) it answers the last-known or the default fee.
 */
export async function readFee(userId?: number): Promise<ShownFee> {
  try {
    const r = await api<ApplicationFeeView>(FEE_PATH, { timeoutMs: READ_TIMEOUT_MS, cache: 'no-store' });
    if (userId !== undefined) remember(SNAPSHOT_KEY, userId, r.applicationFee);
    return { fee: r.applicationFee, source: 'server' };
  } catch {
    const last = userId !== undefined ? recall<string>(SNAPSHOT_KEY, userId) : null;
    return last && typeof last.data === 'string' ? { fee: last.data, source: 'last-known', savedAt: last.savedAt } : { fee: APPLICATION_FEE, source: 'default' };
  }
}

/**
 * The fee to show, read once at mount and again when `online` turns true while the shown fee is not confirmed.
 * `userId` may arrive after the read (the session check still pending): the fee read is then kept for that user,
 * or, when the read failed, that user's last-known fee is shown, without reading again (issue #17: one request).
 * Returns it with `refresh()` (reads again; resolves to the new value), e.g. after a 409 `fee_changed`.
 */
export function useApplicationFee(userId: number | undefined, online = true): [ShownFee, () => Promise<ShownFee>] {
  const [shown, setShown] = useState<ShownFee>({ fee: null, source: 'loading' });
  const alive = useRef(true);
  const user = useRef(userId);
  user.current = userId;
  // The user the shown fee was read for (undefined: read before the session was known).
  const readFor = useRef<number | undefined>(undefined);
  const refresh = useCallback(async () => {
    const forUser = user.current;
    const next = await readFee(forUser);
    if (alive.current) { readFor.current = forUser; setShown(next); }
    return next;
  }, []);
  useEffect(() => { alive.current = true; void refresh(); return () => { alive.current = false; }; }, [refresh]);
  useEffect(() => {
    if (userId === undefined || readFor.current === userId || shown.source === 'loading') return;
    readFor.current = userId;
    if (shown.source === 'server' && shown.fee) remember(SNAPSHOT_KEY, userId, shown.fee);
    else if (shown.source === 'default') {
      const last = recall<string>(SNAPSHOT_KEY, userId);
      if (last && typeof last.data === 'string') setShown({ fee: last.data, source: 'last-known', savedAt: last.savedAt });
    }
  }, [userId, shown]);
  useEffect(() => { if (online && (shown.source === 'last-known' || shown.source === 'default')) void refresh(); }, [online]);
  return [shown, refresh];
}

/** The note under a fee the server has not confirmed (offline, or the read failed), or null. */
export function unconfirmedFeeNote(shown: ShownFee): string | null {
  if (shown.source === 'last-known') return `The fee could not be checked just now: this is the fee as of ${new Date(shown.savedAt!).toLocaleDateString()}. It is confirmed when you submit.`;
  if (shown.source === 'default') return 'The fee could not be checked just now. It is confirmed when you submit.';
  return null;
}
