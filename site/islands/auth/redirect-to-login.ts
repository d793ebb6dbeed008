/** The login guard of the account pages: where a visitor without a session is sent (spec §8). */
import { flashToast } from '../../stores/toasts.ts';

/** Sends the visitor to /login, keeping the page to come back to. */
export function redirectToLogin(withRedirect = true, toastOpts?: { title: string; description: string }) {
  // Stored as the page goes away, so this page's own Toaster (hydrating on idle) cannot consume it first.
  if (toastOpts) window.addEventListener('pagehide', () => flashToast({ ...toastOpts, variant: 'destructive' }), { once: true });
  const here = window.location.pathname + window.location.search;
  window.location.replace(withRedirect ? `/login?redirect=${encodeURIComponent(here)}` : '/login');
}
