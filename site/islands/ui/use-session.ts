/**
 * Hook over $session that triggers the once-per-page current-user check.
 * The first render always reports "loading", as the pre-rendered HTML did: the header may have
 * finished the check before this island hydrates, and hydration must start from the server's markup
 * (preact/compat does not patch attributes while hydrating).
 * While a student is signed in it also watches the idle limit (idle-watch.ts, WCAG 2.2.1): the student pages (dashboard,
 * My Applications, the wizard, an application) all read the session here; admin pages leave it to AdminGuard.
 */
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $session, loadSession, type SessionState } from '../../stores/session.ts';
import { watchIdle } from './idle-watch.ts';

const LOADING: SessionState = { user: null, isLoading: true, error: null };

export function useSession(): SessionState {
  const s = useStore($session);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => { setHydrated(true); void loadSession(); }, []);
  useIdleWatch(s.user?.role === 'student');
  return hydrated ? s : LOADING;
}

/**
 * Watches a student's idle limit while `signedIn` (idle-watch.ts watchIdle: "Are you still there?" before the 2-hour
 * log-out, "Your session has ended" at it). useSession calls it; a student page that reads no session (profile) calls
 * it once its own read succeeded.
 */
export function useIdleWatch(signedIn: boolean): void {
  useEffect(() => (signedIn ? watchIdle('student') : undefined), [signedIn]);
}
