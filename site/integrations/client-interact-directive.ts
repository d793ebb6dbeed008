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
 * (offline, a chunk lost), a held submit is dropped, never posted natively, and the next use tries again; the page
 * says that part of it did not load (BaseLayout's `astro:hydration-error` listener).
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

/**
 * Loads and hydrates the island; rejects when it did not hydrate. Astro resolves a do-nothing `hydrate` when the
 * island's code failed to load (astro-island.js `handleHydrationError`, after its `astro:hydration-error` event), and
 * only a hydrated island loses its `ssr` attribute: without this check a held submit was repeated on the bare
 * server-rendered form, a native POST of the password to the page (audit of cheap phones, November 2026).
 */
function hydrateOrReject(load: () => Promise<() => Promise<void>>, el: HTMLElement): Promise<void> {
  return load().then((hydrate) => hydrate()).then(() => {
    if (el.hasAttribute('ssr')) throw new Error('island not hydrated');
  });
}

export default ((load, options, el) => {
  const start = onFirstUse(el, () => hydrateOrReject(load, el));
  if (maybeSignedIn() || urlHas(options.value)) void start();
}) satisfies ClientDirective;
