/**
 * Loading a part of a page on its first use, keeping a tap or submit made before it runs (issue #17 data budget: a
 * page costs its HTML, not the code of a form nobody touches). One rule for the `client:interact` islands
 * (site/integrations/client-interact-directive.ts, which Astro inlines into every page with such an island: keep
 * this small) and the public pages' plain forms (site/components/public/on-first-use.ts).
 *
 *   const start = onFirstUse(root, run)   // start(): what a use does, for loading at once
 *
 * - A use of `root`: focus entering one of its form controls or labels, a key or a pointer press (mouse, pen or
 *   touch) on one. A press elsewhere in it, such as a finger scrolling across the form, is not. The first use calls
 *   `run()`, which loads and starts the code and resolves once it runs; uses while it loads do nothing more.
 * - Held: a click on a button or a submit of a form inside `root` before then is not carried out (default prevented:
 *   no native submit, so no password in a URL and no POST to a static page), counts as a use, and is repeated once
 *   `run()` has resolved, with `button.click()` / `form.requestSubmit()` (a dispatched submit event where Safari < 16 lacks it), so the code's own validation and requests
 *   handle it; the last one wins. A person who taps Send at once still sends.
 * - If `run()` rejects (offline and never cached; for an island, also when Astro resolved without hydrating it, see
 *   client-interact-directive.ts), a held click or submit is dropped, never carried out natively, and the next use
 *   tries again.
 */

/** What `root` listens to (capturing) until the code runs: the uses, then the click and submit that may be held. */
const EVENTS = ['focusin', 'keydown', 'pointerdown', 'click', 'submit'];

/**
 * Wires `root` as described above; `run` loads and starts the code (rejects when it could not be loaded). Returns
 * `start`, which does what a use does: resolves once the code runs, or after a failed load.
 */
export function onFirstUse(root: HTMLElement, run: () => Promise<unknown>): () => Promise<void> {
  let loading: Promise<void> | undefined;
  let held: (() => void) | undefined;
  const start = () => loading || (loading = run().then(() => {
    for (const type of EVENTS) root.removeEventListener(type, on, true);
    held?.();
  }, () => {
    loading = held = undefined;
  }));
  const on = (e: Event) => {
    const target = e.target as Element;
    const button = e.type == 'click' && target.closest?.('button');
    // Form controls (input, select, textarea, button, fieldset, output) and labels are the elements with a `form`.
    if (button || e.type == 'submit') {
      e.preventDefault();
      // Safari < 16 has no requestSubmit; a dispatched submit event reaches the form's own handler the same way.
      held = button ? () => button.click() : () => {
        const form = target as HTMLFormElement;
        if (form.requestSubmit) form.requestSubmit(); else form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
      };
    } else if (!('form' in target)) return;
    void start();
  };
  for (const type of EVENTS) root.addEventListener(type, on, true);
  return start;
}
