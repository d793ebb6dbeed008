/**
 * A confirmation's action cannot be pressed by the gesture that opened it (phone audit, 2026-11-27, HIGH 1: two
 * taps on a list's quick Approve, 40-250 ms apart, opened "Accept APP-n?" with the first and hit "Accept
 * application", which lies under Approve on a 360 px screen, with the second: the applicant was e-mailed without the
 * officer ever reading the question).
 *
 * `useSettleGuard(open)` returns `ready`, false for `CONFIRM_SETTLE_MS` (500 ms) after `open` turns true, and
 * `guard(onConfirm)`, props for the dialog's action button: while not ready it is `aria-disabled="true"` (greyed by
 * the .btn classes like a busy button) and a click on it from a mouse, pen or finger is ignored and cancelled
 * (preventDefault: a Radix AlertDialog.Action then does not close). A keyboard click (Enter/Space, event.detail 0)
 * is not held back: the dialog puts the focus on Cancel, so a quick double Enter on Approve lands on Cancel, and a
 * keyboard or screen-reader user who moved to the action did so on purpose. Cancel, Escape and the overlay work at
 * once. 500 ms is longer than a double tap or double click (Android's double-tap timeout is
 * 300 ms, Windows' default double-click time 500 ms) and shorter than reading the question. Playwright treats
 * `aria-disabled="true"` as not enabled, so its click() waits for the end of the guard instead of being lost.
 */
import { useEffect, useState } from 'react';

/** How long (ms) after a confirmation opens its action ignores presses. */
export const CONFIRM_SETTLE_MS = 500;

type ClickEvent = { preventDefault(): void; detail?: number };

/**
 * `open`: whether the dialog is open now; `question`: what it asks (an object per question), so that a question
 * replacing an open one is guarded afresh (senior review). Returns `ready` (the guard is over) and `guard(onConfirm)`, the props to
 * spread on the action button; `onConfirm` is called only for a click once ready.
 */
export function useSettleGuard(open: boolean, question?: unknown): { ready: boolean; guard: <E extends ClickEvent>(onConfirm?: (e: E) => void) => { 'aria-disabled': 'true' | undefined; onClick: (e: E) => void } } {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    setReady(false);
    if (!open) return undefined;
    const timer = setTimeout(() => setReady(true), CONFIRM_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [open, question]);
  return {
    ready,
    guard: <E extends ClickEvent>(onConfirm?: (e: E) => void) => ({
      'aria-disabled': ready ? undefined : ('true' as const),
      // detail 0: a click made by Enter/Space on the focused button, which the person moved there on purpose.
      onClick: (e: E) => { if (!ready && e.detail !== 0) { e.preventDefault(); return; } onConfirm?.(e); },
    }),
  };
}
