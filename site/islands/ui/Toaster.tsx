/**
 * Toaster island: shows $toasts (spec §9: max 5, 5000 ms, swipe right, threshold 50 px, hotkey F8; see
 * ToastStack.tsx). Mounted once per page that has islands. The Radix part loads with the first toast, not with the
 * page (issue #17 data budget); once loaded it stays, so later toasts show at once.
 */
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useState, type ReactElement } from 'react';
import { $toasts, showFlashedToast } from '../../stores/toasts.ts';

const ToastStack = lazy(() => import('./ToastStack.tsx'));

/** Renders nothing until the first toast, then the Radix toast stack (kept mounted from then on). */
export default function Toaster(): ReactElement | null {
  const toasts = useStore($toasts);
  const [needed, setNeeded] = useState(false);
  useEffect(() => { showFlashedToast(); }, []);
  useEffect(() => { if (toasts.length > 0) setNeeded(true); }, [toasts.length]);
  if (!needed && toasts.length === 0) return null;
  return <Suspense fallback={null}><ToastStack toasts={toasts} /></Suspense>;
}
