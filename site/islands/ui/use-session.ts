/** React hook over $session that triggers the once-per-page current-user check. */
import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { $session, loadSession } from '../../stores/session.ts';

export function useSession() {
  const s = useStore($session);
  useEffect(() => { void loadSession(); }, []);
  return s;
}
