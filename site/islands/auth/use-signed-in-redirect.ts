/**
 * /login, /register and /auth for someone already signed in (issue #14 point 11): they go straight to the
 * page they asked for (a safe same-site ?redirect=) or their dashboard. Only the first settled session check
 * counts, so a person who signs in or registers on this page is sent on by the form itself, not twice.
 */
import { useEffect, useRef } from 'react';
import { useSession } from '../ui/use-session.ts';
import { destinationAfterLogin, safeRedirect } from './safe-redirect.ts';
import { $toasts, flashToast, keepFlashedToast } from '../../stores/toasts.ts';

/** On /login, /register and /auth: sends a signed-in person on (safe ?redirect= or their dashboard), keeping a pending toast for the next page. */
export function useSignedInRedirect(): void {
  const { user, isLoading } = useSession();
  const decided = useRef(false);
  useEffect(() => {
    if (isLoading || decided.current) return;
    decided.current = true;
    if (!user) return;
    // A toast that brought the person here (e.g. 'Unauthorized' from an admin page) goes on with them.
    // One not shown yet stays stored: a Toaster hydrating before the next page arrives leaves it alone.
    // Not .at(-1): missing before Chrome 92 and Safari 15.4, where it threw and the person stayed on /login.
    const toasts = $toasts.get();
    const shown = toasts[toasts.length - 1];
    if (shown) { const { id: _id, ...rest } = shown; flashToast(rest); }
    keepFlashedToast();
    window.location.replace(destinationAfterLogin(user.role, new URLSearchParams(window.location.search).get('redirect')));
  }, [user, isLoading]);
}

/** `path` with the current page's safe ?redirect= carried over ('/register' → '/register?redirect=%2Fapply%2F3'). */
export function withRedirect(path: string): string {
  if (typeof window === 'undefined') return path;
  const redirect = safeRedirect(new URLSearchParams(window.location.search).get('redirect'));
  if (!redirect) return path;
  const u = new URL(path, window.location.origin);
  u.searchParams.set('redirect', redirect);
  return `${u.pathname}${u.search}`;
}
