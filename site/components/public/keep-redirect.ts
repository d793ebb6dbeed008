/**
 * Links marked `data-keep-redirect` carry the page's safe ?redirect= along (issue #14 point 11): the Register
 * link on /login and /auth, so someone sent to log in before applying comes back to the course after registering.
 */
import { safeRedirect } from '../../islands/auth/safe-redirect.ts';

const redirect = safeRedirect(new URLSearchParams(window.location.search).get('redirect'));
if (redirect) {
  for (const a of document.querySelectorAll<HTMLAnchorElement>('a[data-keep-redirect]')) {
    const u = new URL(a.href, window.location.origin);
    u.searchParams.set('redirect', redirect);
    a.href = `${u.pathname}${u.search}`;
  }
}
