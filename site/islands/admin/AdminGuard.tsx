/**
 * The admin layout's guard and logout button (spec §2 Admin layout, §6): logged out → /auth?redirect=<this page>
 * (issue #14 point 11: after logging in the admin lands where they were going); signed in but
 * not admin → toast 'Unauthorized' / 'You need admin privileges to access this page' and /login (mode
 * 'redirect'), or stay and let the page show the 'Unauthorized Access' message (mode 'message').
 * Log out → /auth, unless the person chose to stay (stores/session.ts logout). Shows the layout's admin navigation
 * (elements marked data-admin-only, invisible until then) only once the session is an admin's (admin-day audit item 3).
 * While an admin is signed in it watches the idle limit (ui/idle-watch.ts): "Are you still there?" 2 minutes before the
 * log-out (WCAG 2.2.1), its dialog loaded only then.
 */
import { useEffect, useState } from 'react';
import { logout } from '../../stores/session.ts';
import { flashToast } from '../../stores/toasts.ts';
import { useAdminAccess } from './use-admin.ts';
import { watchIdle } from '../ui/idle-watch.ts';

export const UNAUTHORIZED_TOAST = { title: 'Unauthorized', description: 'You need admin privileges to access this page', variant: 'destructive' as const };

export default function AdminGuard({ mode = 'redirect' }: { mode?: 'redirect' | 'message' }) {
  const access = useAdminAccess();
  const [pending, setPending] = useState(false);
  useEffect(() => {
    if (access === 'anonymous' && !pending) window.location.replace(`/auth?redirect=${encodeURIComponent(window.location.pathname + window.location.search)}`);
    if (access === 'forbidden' && mode === 'redirect') {
      flashToast(UNAUTHORIZED_TOAST);
      window.location.replace('/login');
    }
    if (access === 'admin') document.querySelectorAll('[data-admin-only]').forEach((el) => el.classList.remove('invisible'));
  }, [access, mode, pending]);
  useEffect(() => (access === 'admin' ? watchIdle() : undefined), [access]);
  if (access !== 'admin') return null;
  return (
    <button type="button" className="btn-secondary w-full" disabled={pending}
      onClick={async () => { setPending(true); if (await logout()) window.location.assign('/auth'); else setPending(false); }}>
      {pending ? 'Logging out…' : 'Log out'}
    </button>
  );
}
