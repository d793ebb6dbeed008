/**
 * Toaster island: renders $toasts with Radix Toast (spec §9: max 5, 5000 ms, swipe right,
 * threshold 50 px, hotkey F8). Mounted once per page that has islands.
 */
import * as ToastPrimitive from '@radix-ui/react-toast';
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $toasts, dismissToast, showFlashedToast, TOAST_CLASSES } from '../../stores/toasts.ts';


export default function Toaster() {
  const toasts = useStore($toasts);
  useEffect(() => { showFlashedToast(); }, []);
  return (
    <ToastPrimitive.Provider swipeDirection="right" swipeThreshold={50} duration={5000}>
      {toasts.map((t) => (
        <ToastPrimitive.Root key={t.id} onOpenChange={(open) => { if (!open) dismissToast(t.id); }}
          data-testid="toast" className={`mb-2 rounded-lg border p-4 shadow-lg ${TOAST_CLASSES[t.variant ?? 'default']}`}>
          <ToastPrimitive.Title className="font-semibold">{t.title}</ToastPrimitive.Title>
          {t.description && <ToastPrimitive.Description className="mt-1 text-sm">{t.description}</ToastPrimitive.Description>}
          <ToastPrimitive.Close aria-label="Close" className="absolute right-2 top-2 rounded px-1 text-lg leading-none opacity-70 hover:opacity-100">×</ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport hotkey={['F8']} className="fixed bottom-0 right-0 z-[100] flex w-full max-w-sm flex-col p-4 outline-none [&>li]:relative" />
    </ToastPrimitive.Provider>
  );
}
