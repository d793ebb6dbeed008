/**
 * The `client:interact` directive's browser side (issue #17; registered by client-interact.mjs, inlined by Astro
 * into pages that use it). Hydrates the island on the first focus, pointer press, touch or key inside it, so a page
 * whose form nobody touches downloads none of the form's JavaScript. It hydrates at once instead when the person
 * may be signed in (the `college.signed_in` hint cookie or a stored token, as site/stores/session.ts decides), so
 * the signed-in redirect of /login and /register still runs on arrival (issue #14 point 11), and when the page URL
 * has the query parameter the directive's value names (`client:interact="mode=full"`).
 *
 * What is typed before hydration stays: Preact hydrates the server-rendered inputs in place and the forms start
 * from the values in them (site/islands/ui/typed-values.ts, issue #14 point 12). A form submitted before hydration
 * is not sent natively (no password in a URL or a POST to a static page): the submit is held and repeated with
 * `requestSubmit()` once the island runs, so the form's own validation and request handle it. If the JavaScript
 * cannot be loaded (offline), the next interaction tries again.
 */
import type { ClientDirective } from 'astro';

const EVENTS = ['focusin', 'pointerdown', 'touchstart', 'keydown'] as const;

function maybeSignedIn(): boolean {
  if (document.cookie.split('; ').includes('college.signed_in=1')) return true;
  try { return Boolean(localStorage.getItem('authToken')); } catch { return false; }
}

function urlHas(param: unknown): boolean {
  if (typeof param !== 'string' || !param.includes('=')) return false;
  const [key, value] = param.split('=') as [string, string];
  return new URLSearchParams(window.location.search).get(key) === value;
}

const interact: ClientDirective = (load, options, el) => {
  let loading = false;
  let held: HTMLFormElement | null = null;
  const hold = (e: Event) => {
    e.preventDefault();
    held = e.target instanceof HTMLFormElement ? e.target : null;
    void start();
  };
  const start = async () => {
    if (loading) return;
    loading = true;
    try {
      const hydrate = await load();
      await hydrate();
    } catch {
      loading = false;
      return;
    }
    for (const type of EVENTS) el.removeEventListener(type, start, true);
    el.removeEventListener('submit', hold, true);
    held?.requestSubmit();
  };
  el.addEventListener('submit', hold, true);
  for (const type of EVENTS) el.addEventListener(type, start, { capture: true, passive: true });
  if (maybeSignedIn() || urlHas(options.value)) void start();
};

export default interact;
