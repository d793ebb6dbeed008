/**
 * Plain-script parts of public pages that load on first use (issue #17 data budget: a warm public page should cost
 * its HTML, not the code of a form nobody touches). Runs with the site-wide header script, which a visitor has
 * cached from the first page, so such a page loads no script of its own at first paint. The same idea as the
 * `client:interact` island directive (site/integrations/client-interact-directive.ts), for non-island markup:
 *
 *   <form data-on-use="contact">…</form>    → on the first focus, pointer press, touch or key inside it, loads
 *                                             PARTS.contact and calls its `enhance(root)` once.
 *
 * A click on a button or a submit before the part has loaded is held (default prevented) and repeated once it runs,
 * so a person who taps Send at once still sends, through the form's own validation. If the part cannot load
 * (offline and never cached), the element's `[data-on-use-error]` says so (its value, or a general message) and the next interaction tries again.
 * Also, on load: submit buttons of `form[data-on-use]` are enabled (disabled in the HTML for visitors without
 * JavaScript); `input[data-today="min|max"]` get today's date in South Africa as that bound (same rule as
 * todayInSouthAfrica() in api/contracts/assessment.ts); F8 moves focus to a script-only toast region
 * (ToastRegion.astro), and a toast flashed by an earlier page loads that region at once.
 */
import { hasFlashedToast } from '../../stores/toasts.ts';

export interface Part { enhance(root: HTMLElement): void }

/** What each `data-on-use` value loads. */
const PARTS: Record<string, () => Promise<Part>> = {
  contact: () => import('./contact-form.ts'),
  assessment: () => import('./assessment-form.ts'),
  eligibility: () => import('./eligibility-calculator.ts'),
};
const EVENTS = ['focusin', 'pointerdown', 'touchstart', 'keydown'] as const;
const CONTROLS = 'input, select, textarea, button, label';
const LOAD_FAILED = 'Could not load the form. Please check your connection and try again.';

function onFirstUse(root: HTMLElement, load: () => Promise<Part>): void {
  let state: 'idle' | 'loading' | 'ready' = 'idle';
  let held: (() => void) | null = null;
  const error = root.querySelector<HTMLElement>('[data-on-use-error]');

  const start = async (e?: Event) => {
    // A finger or pointer scrolling across the form is not a use of it; pressing one of its controls is.
    if (e && (e.type === 'pointerdown' || e.type === 'touchstart') && !(e.target as Element).closest?.(CONTROLS)) return;
    if (state !== 'idle') return;
    state = 'loading';
    let part: Part;
    try { part = await load(); } catch {
      state = 'idle';
      if (held && error) { error.textContent = error.dataset.onUseError || LOAD_FAILED; error.hidden = false; }
      held = null;
      return;
    }
    state = 'ready';
    for (const type of EVENTS) root.removeEventListener(type, start, true);
    root.removeEventListener('click', hold, true);
    root.removeEventListener('submit', hold, true);
    if (error) { error.hidden = true; error.textContent = ''; }
    part.enhance(root);
    const replay = held;
    held = null;
    replay?.();
  };
  function hold(e: Event) {
    if (state === 'ready') return;
    const button = e.type === 'click' ? (e.target as Element).closest?.('button') : null;
    const form = e.type === 'submit' && e.target instanceof HTMLFormElement ? e.target : null;
    if (!button && !form) return;
    e.preventDefault();
    held = button ? () => button.click() : () => form!.requestSubmit();
    void start();
  }
  root.addEventListener('click', hold, true);
  root.addEventListener('submit', hold, true);
  for (const type of EVENTS) root.addEventListener(type, start, { capture: true, passive: true });
}

/** Wires every `[data-on-use]` element of the page and the helpers above; called once by the header script. */
export function enhanceOnUse(): void {
  for (const root of document.querySelectorAll<HTMLElement>('[data-on-use]')) {
    const load = PARTS[root.dataset.onUse ?? ''];
    if (!load) continue;
    if (root instanceof HTMLFormElement) root.querySelectorAll<HTMLButtonElement>('button[type="submit"]').forEach((b) => { b.disabled = false; });
    onFirstUse(root, load);
  }
  const dates = document.querySelectorAll<HTMLInputElement>('input[data-today]');
  if (dates.length) {
    const today = new Date(Date.now() + 2 * 3600_000).toISOString().slice(0, 10);
    dates.forEach((input) => { if (input.dataset.today === 'min') input.min = today; else input.max = today; });
  }
  const region = document.querySelector<HTMLElement>('[data-toast-region]');
  if (!region) return;
  document.addEventListener('keydown', (e) => { if (e.key === 'F8') { e.preventDefault(); region.focus(); } });
  if (hasFlashedToast()) void import('./toast-region.ts').then((m) => m.mountToastRegion()).catch(() => {});
}
