/**
 * Focus back where it was when a Radix dialog closes (WCAG 2.4.3). Radix returns focus to its Dialog.Trigger; our
 * dialogs are opened from state (a row's Delete, a panel's Cancel, Escape inside a form) without one, so Radix
 * focused nothing and the focus fell to <body>. Spread the returned handlers on Dialog.Content or
 * AlertDialog.Content: the element focused when the dialog opened gets the focus back if it is still on the
 * page and usable, else `fallback()` (the next row after a delete, the list's heading), else the first control still
 * on the page in the nearest box that held the opener (its row if the row stayed, else the list or the section;
 * screen-reader audit: a panel closed after its application left a filtered list dropped the focus to <body>).
 */
import { useRef } from 'react';

/** Whether `el` can take the focus back: still in the document, not disabled, not hidden. */
export function canTakeFocus(el: Element | null | undefined): el is HTMLElement {
  return el instanceof HTMLElement && el.isConnected && !el.matches(':disabled') && el.getClientRects().length > 0;
}

/**
 * Handlers for a Radix dialog's content: `onOpenAutoFocus` remembers the element that had the focus,
 * `onCloseAutoFocus` gives it back (or to `fallback()`). Without either, the focus stays where the page put it.
 */
export function useReturnFocus(fallback?: () => HTMLElement | null | undefined): { onOpenAutoFocus: () => void; onCloseAutoFocus: (e: Event) => void } {
  const opener = useRef<HTMLElement | null>(null);
  const around = useRef<HTMLElement[]>([]);
  const fallbackRef = useRef(fallback);
  fallbackRef.current = fallback;
  return {
    onOpenAutoFocus: () => {
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
      around.current = [];
      for (let el = opener.current?.parentElement; el && el !== document.body; el = el.parentElement) around.current.push(el);
    },
    onCloseAutoFocus: (e: Event) => {
      e.preventDefault();
      let target: HTMLElement | null | undefined = canTakeFocus(opener.current) ? opener.current : fallbackRef.current?.();
      if (!canTakeFocus(target)) target = nearestControl(around.current);
      opener.current = null;
      around.current = [];
      if (canTakeFocus(target)) target.focus();
    },
  };
}

const CONTROLS = 'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';

/** The first control that can take the focus in the nearest of `boxes` (innermost first) still on the page. */
function nearestControl(boxes: HTMLElement[]): HTMLElement | null {
  for (const box of boxes) {
    if (!box.isConnected) continue;
    const found = Array.from(box.querySelectorAll<HTMLElement>(CONTROLS)).find((el) => canTakeFocus(el) && el.getAttribute('aria-hidden') !== 'true');
    if (found) return found;
  }
  return null;
}
