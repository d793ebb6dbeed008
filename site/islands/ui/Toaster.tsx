/**
 * Toaster island: shows $toasts (spec §9: max 5, 5000 ms, swipe right, threshold 50 px, hotkey F8; see
 * ToastStack.tsx). Mounted once per page that has islands. The Radix part loads with the first toast, not with the
 * page (issue #17 data budget); once loaded it stays, so later toasts show at once. If it cannot load (offline,
 * and never cached by the service worker), the toasts still show, as a plain live region that closes them after
 * the same 5000 ms.
 */
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useState, type ReactElement } from 'react';
import { $toasts, dismissToast, showFlashedToast, TOAST_CLASSES, type Toast } from '../../stores/toasts.ts';

const ToastStack = lazy(() => import('./ToastStack.tsx').catch(() => ({ default: PlainToasts })));

/** Renders nothing until the first toast, then the Radix toast stack (kept mounted from then on). */
export default function Toaster(): ReactElement | null {
  const toasts = useStore($toasts);
  const [needed, setNeeded] = useState(false);
  useEffect(() => { showFlashedToast(); }, []);
  useEffect(() => { if (toasts.length > 0) setNeeded(true); }, [toasts.length]);
  if (!needed && toasts.length === 0) return null;
  return <Suspense fallback={null}><ToastStack toasts={toasts} /></Suspense>;
}

/** The toasts without Radix: a polite live region, each toast closable and gone after 5000 ms (unless `persist`). */
function PlainToasts({ toasts }: { toasts: Toast[] }): ReactElement {
  useEffect(() => {
    const timers = toasts.filter((t) => !t.persist).map((t) => setTimeout(() => dismissToast(t.id), 5000));
    return () => timers.forEach(clearTimeout);
  }, [toasts]);
  return (
    <section aria-label="Notifications" className="fixed bottom-0 right-0 z-[100] flex w-full max-w-sm flex-col p-4">
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
