/**
 * Focus back where it was when a Radix dialog closes (WCAG 2.4.3). Radix returns focus to its Dialog.Trigger; our
 * dialogs are opened from state (a row's Delete, a panel's Cancel, Escape inside a form) without one, so Radix
 * focused nothing and the focus fell to <body>. Spread the returned handlers on Dialog.Content or
 * AlertDialog.Content: the element focused when the dialog opened gets the focus back if it is still on the
 * page and usable, else `fallback()` (the next row after a delete, the list's heading).
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
  const fallbackRef = useRef(fallback);
  fallbackRef.current = fallback;
  return {
    onOpenAutoFocus: () => {
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
    },
    onCloseAutoFocus: (e: Event) => {
      e.preventDefault();
      const target = canTakeFocus(opener.current) ? opener.current : fallbackRef.current?.();
      opener.current = null;
      if (canTakeFocus(target)) target.focus();
    },
  };
}
