/**
 * The admin islands' dialog: a Radix modal, or a right-hand side panel with `side`. It keeps unsaved work
 * (issue #16, no lost work): each form inside reports its unsaved changes with `usePanelUnsaved(unsaved)`, and
 * while any has some, closing the panel (Escape, the ×, a click outside, the form's Cancel, the browser's Back)
 * first asks "Discard your changes?". The browser's Back closes the panel rather than leaving the page
 * (use-back-closes).
 */
import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { useConfirm } from './ConfirmDialog.tsx';
import { useBackCloses } from '../ui/use-back-closes.ts';
import { useLeaveWarning } from '../ui/use-leave-warning.ts';
import { useReturnFocus } from '../ui/return-focus.ts';
import { $toasts } from '../../stores/toasts.ts';

interface PanelGuard { report: (form: object, unsaved: boolean) => void; requestClose: () => Promise<boolean>; focusHome: () => boolean }
const PanelGuardContext = createContext<PanelGuard | null>(null);

/**
 * Tells the surrounding Panel whether the form has unsaved changes, and asks before the page is left while it has.
 * Returns the panel's guarded close (for the form's Cancel button): it resolves true once the panel closed.
 * Outside a Panel it only warns on leaving the page, and the returned close calls `fallback`.
 */
export function usePanelUnsaved(unsaved: boolean, fallback: () => void = () => {}): () => Promise<boolean> {
  const guard = useContext(PanelGuardContext);
  const form = useRef({}).current;
  useLeaveWarning(unsaved);
  // A layout effect runs as the change is rendered, not after the next paint: a Back pressed right after typing
  // must already find the form unsaved.
  useLayoutEffect(() => {
    guard?.report(form, unsaved);
    return () => guard?.report(form, false);
  }, [guard, unsaved]);
  return guard ? guard.requestClose : async () => { fallback(); return true; };
}

/**
 * The panel's own place for the keyboard focus when the control that had it goes away or turns disabled (WCAG 2.4.3:
 * the browser would drop it to <body>, outside the dialog): a function that focuses the panel's Close (×), else the
 * panel itself, and answers whether it did (false outside a Panel, or before it is on the page).
 */
export function usePanelFocusHome(): () => boolean {
  const guard = useContext(PanelGuardContext);
  return guard ? guard.focusHome : () => false;
}

/**
 * Scrolls an element that takes the focus inside the panel into view when it is outside the panel's visible part
 * (accessibility audit: WCAG 2.4.11 Focus Not Obscured). Radix's focus trap moves the focus with preventScroll when Tab
 * wraps from the last control to the first (the × Close, 1,500 px above on a phone), so the focus was off-screen.
 * An element already in view is left alone, so the browser's own focus scrolling (and the decision bar's scroll
 * padding, ApplicationReview) still decides otherwise. Returns a ref callback for the panel's scrolling element.
 */
function useFocusInView(): (el: HTMLElement | null) => void {
  const detach = useRef<(() => void) | null>(null);
  return useCallback((el: HTMLElement | null) => {
    detach.current?.();
    detach.current = null;
    if (!el) return;
    const onFocusIn = (e: FocusEvent) => {
      const target = e.target;
      if (!(target instanceof HTMLElement) || target === el) return;
      const r = target.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      const top = Math.max(box.top, 0);
      const bottom = Math.min(box.bottom, window.innerHeight);
      if (r.top < top || r.bottom > bottom || r.left < Math.max(box.left, 0) || r.right > Math.min(box.right, window.innerWidth)) {
        target.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      }
    };
    el.addEventListener('focusin', onFocusIn);
    detach.current = () => el.removeEventListener('focusin', onFocusIn);
  }, []);
}

/** The toasts' part of an open panel (the Toaster moves its region into the topmost dialog): Escape there is the toast's. */
const TOAST_AREA = '[data-testid=toast], [aria-label^="Notifications"]';

/**
 * Escape pressed in the open panel (`content`) closes it through `close` even while a toast shown since it opened is
 * on top (phone audit 2026-11-28, 360 px and 1280 px by keyboard: after Update status the first Escape only took
 * away the 5 s 'Application updated' toast, so Escape seemed not to work and the focus stayed in the panel). Radix's
 * toast is a dismissable layer above the dialog and would take it; a toast that closes itself does not need it, and
 * goes back to the page with the panel. A toast that stays until closed (`persist`: a failure) still takes the first
 * Escape, as does one holding the focus (admin-toast-in-dialog). Runs before Radix's own handlers (window, capture).
 */
function useEscapeOverToasts(open: boolean, content: { current: HTMLElement | null }, close: () => void): void {
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      const box = content.current;
      const target = e.target instanceof Element ? e.target : null;
      if (!box || !target || !box.contains(target) || target.closest(TOAST_AREA)) return;
      const shown = $toasts.get();
      if (shown.length === 0 || shown.some((t) => t.persist) || !box.querySelector('[data-testid=toast]')) return;
      e.preventDefault();
      e.stopPropagation();
      close();
    };
    addEventListener('keydown', onKey, true);
    return () => removeEventListener('keydown', onKey, true);
  }, [open]);
}

/**
 * Radix dialog styled as a modal; `side` makes it a right-hand panel. On close the focus goes back to the element
 * that had it when the panel opened (the row's Edit or View, the New button). The modal is centred with inset-0 and
 * auto margins, not a transform: the Toaster renders its fixed region inside the open dialog (audit F1), and a
 * transformed ancestor would pin it to the dialog's corner instead of the window's (ConfirmDialog likewise). Below
 * 640 px its padding is 1rem rather than 1.5rem, and never more than max(16 px, 4vw): 16 px at normal text as before,
 * and 16 px rather than 32 px with 200 % text on a 360 px phone, so the content keeps 310 px of the 342 px box.
 * A control focused outside the visible part is scrolled into view (useFocusInView). A form inside may put the focus
 * back on the panel's Close when its focused control turns disabled (usePanelFocusHome). Escape closes the panel even
 * with a self-closing toast on top (useEscapeOverToasts).
 */
export default function Panel({ open, onOpenChange, title, description, side = false, children }: {
  open: boolean; onOpenChange: (o: boolean) => void; title: string; description?: string; side?: boolean; children: ReactNode;
}) {
  const unsaved = useRef(new Set<object>());
  const asking = useRef<Promise<boolean> | null>(null);
  const [confirm, ask] = useConfirm();
  const change = useRef(onOpenChange);
  change.current = onOpenChange;
  const closeButton = useRef<HTMLButtonElement | null>(null);
  const content = useRef<HTMLDivElement | null>(null);
  const guard = useRef<PanelGuard>({
    report: (form, u) => { if (u) unsaved.current.add(form); else unsaved.current.delete(form); },
    requestClose: () => {
      if (asking.current) return asking.current;
      const decided = unsaved.current.size > 0
        ? ask({ title: 'Discard your changes?', description: 'What you typed in this form has not been saved and will be lost.', action: 'Discard changes', cancel: 'Keep editing', danger: true, back: false })
        : Promise.resolve(true);
      asking.current = decided.then((discard) => {
        asking.current = null;
        if (discard) { unsaved.current.clear(); change.current(false); }
        return discard;
      });
      return asking.current;
    },
    focusHome: () => {
      const home = closeButton.current?.isConnected ? closeButton.current : content.current?.isConnected ? content.current : null;
      home?.focus();
      return home != null;
    },
  }).current;
  useBackCloses(open, guard.requestClose);
  useEscapeOverToasts(open, content, () => { void guard.requestClose(); });
  // Opened from state (no Dialog.Trigger): give the focus back to what opened it (WCAG 2.4.3).
  const returnFocus = useReturnFocus();
  const focusInView = useFocusInView();
  const contentRef = useCallback((el: HTMLDivElement | null) => { content.current = el; focusInView(el); }, [focusInView]);
  return (
    <>
      <Dialog.Root open={open} onOpenChange={(o) => { if (o) onOpenChange(true); else void guard.requestClose(); }}>
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
          <Dialog.Content
            {...returnFocus}
            // No description: none rather than the title again (screen-reader audit: "Application APP-1" was read twice).
            {...(description ? {} : { 'aria-describedby': undefined })}
            ref={contentRef}
            className={side
              ? 'fixed inset-y-0 right-0 z-50 w-full max-w-2xl overflow-y-auto bg-white p-[min(1rem,max(16px,4vw))] shadow-xl sm:p-6 dark:bg-slate-900'
              : 'fixed inset-0 z-50 m-auto h-fit max-h-[90vh] w-[95vw] max-w-2xl overflow-y-auto rounded-lg bg-white p-[min(1rem,max(16px,4vw))] shadow-xl sm:p-6 dark:bg-slate-900'}>
            <div className="mb-4 flex items-start justify-between gap-4">
              <div className="min-w-0">
                <Dialog.Title className="text-xl font-bold break-words">{title}</Dialog.Title>
                {description && <Dialog.Description className="text-sm muted">{description}</Dialog.Description>}
              </div>
              <Dialog.Close ref={closeButton} className="btn-secondary px-2" aria-label="Close">×</Dialog.Close>
            </div>
            <PanelGuardContext.Provider value={guard}>{children}</PanelGuardContext.Provider>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
      {confirm}
    </>
  );
}
