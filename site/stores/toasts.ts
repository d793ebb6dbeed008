/**
 * $toasts: the toast queue (spec §9: at most 5 shown, 5000 ms). `toast()` shows one now;
 * `flashToast()` keeps one in sessionStorage for the next page (e.g. before a redirect).
 */
import { atom } from 'nanostores';

/** `persist`: stays until closed rather than for 5000 ms (a save that failed: the admin must see it; audit C item 5). */
export interface Toast { id: number; title: string; description?: string; variant?: 'default' | 'destructive' | 'success'; persist?: boolean }
export const $toasts = atom<Toast[]>([]);

/** The one colour map of toasts (issue #15 point 5), shared by the Toaster island and the script-only ToastRegion. */
export const TOAST_CLASSES: Record<NonNullable<Toast['variant']>, string> = {
  default: 'border-slate-300 bg-white text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100',
  success: 'border-green-700 bg-green-50 text-green-950 dark:bg-green-950 dark:text-green-50',
  destructive: 'border-red-800 bg-red-700 text-white',
};
export const TOAST_LIMIT = 5;
const FLASH_KEY = 'flash-toast';
/** Set once this page is on its way out: a toast flashed by an earlier page is then left for the next one. */
let leaving = false;
let next = 1;

/** Shows `t` now; the oldest goes when more than TOAST_LIMIT are queued. */
export function toast(t: Omit<Toast, 'id'>): void {
  $toasts.set([...$toasts.get(), { ...t, id: next++ }].slice(-TOAST_LIMIT));
}

/** Removes the toast with this id (closed, swiped or timed out). */
export function dismissToast(id: number): void {
  $toasts.set($toasts.get().filter((t) => t.id !== id));
}

/** Keeps `t` for the next page. The page that saved it never shows it, even if its Toaster hydrates before the redirect. */
export function flashToast(t: Omit<Toast, 'id'>): void {
  try { sessionStorage.setItem(FLASH_KEY, JSON.stringify({ ...t, from: window.location.pathname })); } catch { toast(t); }
}

/**
 * Call just before sending the browser on (location.replace) from a page that did not save the flashed toast
 * itself, e.g. /login passing a signed-in person on: this page's Toaster, if it hydrates in the meantime, no
 * longer takes the toast that should reach the next page.
 */
export function keepFlashedToast(): void {
  leaving = true;
}

/** Whether an earlier page saved a toast with flashToast (cheap: no parsing), e.g. to load a lazy toast region. */
export function hasFlashedToast(): boolean {
  try { return sessionStorage.getItem(FLASH_KEY) !== null; } catch { return false; }
}

/** Shows a toast saved by flashToast on an earlier page (not while this page is leaving, see keepFlashedToast). */
export function showFlashedToast(): void {
  if (leaving) return;
  try {
    const raw = sessionStorage.getItem(FLASH_KEY);
    if (!raw) return;
    const { from, ...t } = JSON.parse(raw) as Omit<Toast, 'id'> & { from?: string };
    if (from === window.location.pathname) return;
    sessionStorage.removeItem(FLASH_KEY);
    toast(t);
  } catch { /* ignore */ }
}
