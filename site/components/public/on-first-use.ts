/**
 * Plain-script parts of public pages that load on first use (issue #17 data budget: a warm public page should cost
 * its HTML, not the code of a form nobody touches). Runs with the site-wide header script, which a visitor has
 * cached from the first page, so such a page loads no script of its own at first paint. The rule is the one of the
 * `client:interact` islands (site/lib/first-use.ts: what a use is; a tap on a button or a submit before the part
 * has loaded is held and repeated once it runs, so a person who taps Send at once still sends, through the form's
 * own validation), for non-island markup:
 *
 *   <form data-on-use="contact">…</form>    → on the first use of one of its controls, loads PARTS.contact and
 *                                             calls its `enhance(root)` once.
 *
 * If the part cannot load (offline and never cached), the element's `[data-on-use-error]` says so (its value, or a
 * general message) and the next use tries again.
 * Also, on load: submit buttons of `form[data-on-use]` are enabled (disabled in the HTML for visitors without
 * JavaScript); `input[data-today="min|max"]` get today's date in South Africa (todayInSouthAfrica) as that bound, and
 * `input[data-today="before"]` yesterday's as its max (a date of birth: the rule refuses today); F8 moves focus to a script-only toast region
 * (ToastRegion.astro), and a toast flashed by an earlier page loads that region at once.
 */
import { onFirstUse } from '../../lib/first-use.ts';
import { hasFlashedToast } from '../../stores/toasts.ts';
import { todayInSouthAfrica } from '#contracts/sa-calendar.ts';

export interface Part { enhance(root: HTMLElement): void }

/** What each `data-on-use` value loads. */
const PARTS: Record<string, () => Promise<Part>> = {
  contact: () => import('./contact-form.ts'),
  assessment: () => import('./assessment-form.ts'),
  eligibility: () => import('./eligibility-calculator.ts'),
};
const LOAD_FAILED = 'Could not load the form. Please check your connection and try again.';

/** Loads `load` on the first use of `root` and enhances it; says so in its `[data-on-use-error]` if loading fails. */
function onUse(root: HTMLElement, load: () => Promise<Part>): void {
  const error = root.querySelector<HTMLElement>('[data-on-use-error]');
  const say = (text: string) => { if (error) { error.textContent = text; error.hidden = !text; } };
  onFirstUse(root, () => load().then((part) => { say(''); part.enhance(root); }, (e: unknown) => {
    say(error?.dataset.onUseError || LOAD_FAILED);
    throw e;
  }));
}

/** Wires every `[data-on-use]` element of the page and the helpers above; called once by the header script. */
export function enhanceOnUse(): void {
  for (const root of document.querySelectorAll<HTMLElement>('[data-on-use]')) {
    const load = PARTS[root.dataset.onUse ?? ''];
    if (!load) continue;
    if (root instanceof HTMLFormElement) root.querySelectorAll<HTMLButtonElement>('button[type="submit"]').forEach((b) => { b.disabled = false; });
    onUse(root, load);
  }
  const dates = document.querySelectorAll<HTMLInputElement>('input[data-today]');
  if (dates.length) {
    const now = Date.now();
    const today = todayInSouthAfrica(new Date(now));
    const yesterday = todayInSouthAfrica(new Date(now - 86_400_000)); // UTC+2 all year: a day is always 24 hours
    dates.forEach((input) => {
      if (input.dataset.today === 'min') input.min = today;
      else input.max = input.dataset.today === 'before' ? yesterday : today;
    });
  }
  const region = document.querySelector<HTMLElement>('[data-toast-region]');
  if (!region) return;
  document.addEventListener('keydown', (e) => { if (e.key === 'F8') { e.preventDefault(); region.focus(); } });
  if (hasFlashedToast()) void import('./toast-region.ts').then((m) => m.mountToastRegion()).catch(() => {});
}
