/**
 * Toaster island: shows $toasts (spec §9: max 5, 5000 ms, swipe right, threshold 50 px, hotkey F8; see
 * ToastStack.tsx). Mounted once per page that has islands. The Radix part loads with the first toast, not with the
 * page (issue #17 data budget); once loaded it stays, so later toasts show at once. If it cannot load (offline,
 * and never cached by the service worker), the toasts still show, as a plain live region that closes them after
 * the same 5000 ms.
 *
 * While a modal dialog hides the rest of the page from assistive technology (Radix's hideOthers puts
 * aria-hidden="true" on this island; a native modal makes it inert), the toasts are rendered inside the topmost
 * open dialog instead, so they are announced, reachable by Tab and F8, and inside the dialog's focus trap
 * (accessibility audit F1, WCAG 4.1.3 / 2.1.1). They look the same: the region is fixed to the viewport's corner.
 * Escape closes what opened last: a toast shown while the dialog is open first (then the dialog), while a toast
 * that was already showing when the dialog opened stays and the dialog closes.
 */
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useRef, useState, type ReactElement, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { $toasts, dismissToast, showFlashedToast, TOAST_CLASSES, type Toast } from '../../stores/toasts.ts';

const ToastStack = lazy(() => import('./ToastStack.tsx').catch(() => ({ default: PlainToasts })));

const OPEN_DIALOGS = '[role=dialog][data-state=open], [role=alertdialog][data-state=open], dialog[open]';
const HIDDEN = '[aria-hidden=true], [inert]';

/**
 * The element the toasts belong in while `home` (an element of this island) is hidden from assistive technology:
 * the last open dialog in document order (Radix portals append, so the last is on top) that is not hidden itself.
 * Null when `home` is exposed (no modal open), or when no such dialog is found.
 */
export function toastHost(home: Element | null): HTMLElement | null {
  if (!home?.isConnected || !home.closest(HIDDEN)) return null;
  const open = [...document.querySelectorAll<HTMLElement>(OPEN_DIALOGS)].filter((d) => !d.closest(HIDDEN));
  return open[open.length - 1] ?? null; // not .at(-1): missing before Chrome 92 and Safari 15.4 (client-syntax.spec)
}

/**
 * The element the toasts are rendered into (created once, on the client), and the open dialog it is in (null: none).
 * The element itself is moved between this island (after `home`) and the topmost open dialog as dialogs open and
 * close (attribute and child-list changes under <body>): moved, not re-rendered, so the toasts keep their timers and
 * are not announced twice, and a toast shown before a panel opened stays below it (Escape closes the panel).
 */
function useToastBox(home: RefObject<HTMLElement | null>): [HTMLDivElement | null, HTMLElement | null] {
  const [box] = useState(() => (typeof document === 'undefined' ? null : document.createElement('div')));
  const [host, setHost] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (!box) return;
    const update = () => {
      const h = toastHost(home.current);
      if (h) { if (box.parentElement !== h) h.appendChild(box); }
      else if (home.current && box.previousElementSibling !== home.current) home.current.after(box);
      setHost(h);
    };
    const observer = new MutationObserver(update);
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-hidden', 'inert', 'data-state', 'open'] });
    update();
    return () => { observer.disconnect(); box.remove(); };
  }, []);
  return [box, host];
}

/** Renders nothing until the first toast, then the Radix toast stack (kept mounted from then on). */
export default function Toaster(): ReactElement | null {
  const toasts = useStore($toasts);
  const [needed, setNeeded] = useState(false);
  const home = useRef<HTMLSpanElement>(null);
  const [box, host] = useToastBox(home);
  useEffect(() => { showFlashedToast(); }, []);
  useEffect(() => { if (toasts.length > 0) setNeeded(true); }, [toasts.length]);
  const stack = (needed || toasts.length > 0) ? <Suspense fallback={null}><ToastStack toasts={toasts} announceIn={host} /></Suspense> : null;
  return (
    <>
      <span ref={home} hidden />
      {stack && box ? createPortal(stack, box) : stack}
    </>
  );
}

/** The toasts without Radix: a polite live region, each toast closable and gone after 5000 ms (unless `persist`). */
function PlainToasts({ toasts }: { toasts: Toast[]; announceIn?: HTMLElement | null }): ReactElement {
  useEffect(() => {
    const timers = toasts.filter((t) => !t.persist).map((t) => setTimeout(() => dismissToast(t.id), 5000));
    return () => timers.forEach(clearTimeout);
  }, [toasts]);
  return (
    <section aria-label="Notifications" className="fixed bottom-0 right-0 z-[100] flex w-full max-w-sm flex-col p-4 [[role=dialog]_&]:top-0 [[role=dialog]_&]:bottom-auto [[role=dialog]_&]:left-0 [[role=dialog]_&]:right-auto">
      <ol role="status" aria-live="polite">
        {toasts.map((t) => (
          <li key={t.id} data-testid="toast" className={`relative mb-2 rounded-lg border p-4 shadow-lg ${TOAST_CLASSES[t.variant ?? 'default']}`}>
            <p className="font-semibold">{t.title}</p>
            {t.description && <p className="mt-1 text-sm">{t.description}</p>}
            <button type="button" aria-label="Close" onClick={() => dismissToast(t.id)} className="absolute right-2 top-2 rounded px-1 text-lg leading-none opacity-70 hover:opacity-100">×</button>
          </li>
        ))}
      </ol>
    </section>
  );
}
