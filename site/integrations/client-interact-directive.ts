/**
 * The `client:interact` directive's browser side (issue #17; registered by client-interact.mjs, inlined by Astro
 * into pages that use it). Hydrates the island on its first use, so a page whose form nobody touches downloads none
 * of the form's JavaScript; what a use is, and how a tap on a button or a submit before hydration is held (no native
 * submit) and repeated once the island runs, is site/lib/first-use.ts, shared with the public pages' plain forms.
 * It hydrates at once instead when the person may be signed in (the `college.signed_in` hint cookie or a stored
 * token, as site/stores/session.ts decides), so the signed-in redirect of /login and /register still runs on
 * arrival (issue #14 point 11), and when the page URL's query has the `key=value` the directive's value names
 * (`client:interact="mode=full"`).
 *
 * What is typed before hydration stays: Preact hydrates the server-rendered inputs in place and the forms start
 * from the values in them (site/islands/ui/typed-values.ts, issue #14 point 12). If the JavaScript cannot be loaded
 * (offline), a held submit is dropped and the next use tries again.
 */
import type { ClientDirective } from 'astro';
import { onFirstUse } from '../lib/first-use.ts';

function maybeSignedIn(): boolean {
  if (document.cookie.includes('college.signed_in=1')) return true;
  try { return Boolean(localStorage.getItem('authToken')); } catch { return false; }
}

function urlHas(param: unknown): boolean {
  return location.search.split(/[?&]/).includes(param as string);
}

export default ((load, options, el) => {
  const start = onFirstUse(el, () => load().then((hydrate) => hydrate()));
  if (maybeSignedIn() || urlHas(options.value)) void start();
}) satisfies ClientDirective;
