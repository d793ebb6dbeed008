/**
 * Hook over $session that triggers the once-per-page current-user check.
 * The first render always reports "loading", as the pre-rendered HTML did: the header may have
 * finished the check before this island hydrates, and hydration must start from the server's markup
 * (preact/compat does not patch attributes while hydrating).
 */
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $session, loadSession, type SessionState } from '../../stores/session.ts';

const LOADING: SessionState = { user: null, isLoading: true, error: null };

export function useSession(): SessionState {
  const s = useStore($session);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => { setHydrated(true); void loadSession(); }, []);
  return hydrated ? s : LOADING;
}
