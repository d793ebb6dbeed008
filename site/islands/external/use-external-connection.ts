/**
 * The connection check of the external pages (spec §2 External pages, §6): GET /api/external/me, run before any
 * external data read. Audit: the pages read data in parallel with it, so a page that was not connected sent 401
 * data reads (payments, students, branches) before redirecting or showing "Not connected".
 */
import { useCallback, useEffect, useState } from 'react';
import type { ExternalUser } from '#contracts/external.ts';
import { api } from '../../lib/api-client.ts';
import { isExternalLoginRequired } from './external-client.ts';

/**
 * Whether this admin is connected to the external system: 'checking' until GET /api/external/me answers, then
 * 'connected' (with the external user), 'not-connected' (401 external_login_required, or a 200 without a user) or
 * 'error' (any other failure: portal session gone, server unreachable).
 */
export type ExternalConnection =
  | { state: 'checking' } | { state: 'connected'; user: ExternalUser } | { state: 'not-connected' } | { state: 'error' };

/**
 * Runs the connection check once on mount; a page reads external data only once it says 'connected'.
 * Returns the state and a function that checks again (the retry of the 'error' state). Never throws.
 */
export function useExternalConnection(): [ExternalConnection, () => void] {
  const [conn, setConn] = useState<ExternalConnection>({ state: 'checking' });
  const check = useCallback(() => {
    setConn({ state: 'checking' });
    api<{ user?: ExternalUser | null }>('/api/external/me')
      .then((r) => setConn(r.user ? { state: 'connected', user: r.user } : { state: 'not-connected' }))
      .catch((e) => setConn(isExternalLoginRequired(e) ? { state: 'not-connected' } : { state: 'error' }));
  }, []);
  useEffect(() => { check(); }, [check]);
  return [conn, check];
}
